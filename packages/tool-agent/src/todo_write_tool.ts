import { buildTool, type AnyTool } from '@toolshed/core';
import { z } from 'zod';

/** One item of the session's todo list. */
export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** Present continuous form shown while the item is in progress ("Running tests"). */
  activeForm: string;
}

/** Input of TodoWrite: the whole list, replacing the one before. */
export const todoWriteInput = z.strictObject({
  todos: z
    .array(
      z.strictObject({
        content: z.string().min(1).describe('What to do, in the imperative ("Run the tests")'),
        status: z.enum(['pending', 'in_progress', 'completed']),
        activeForm: z.string().min(1).describe('The present continuous form ("Running the tests")'),
      }),
    )
    .describe('The updated todo list'),
});

/** What a TodoWrite call returns: the list before and after. */
export interface TodoWriteOutput {
  oldTodos: Todo[];
  newTodos: Todo[];
}

const MARK: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/**
 * Makes the TodoWrite tool: the session's todo list, replaced whole on each call and kept per
 * session (a sub-agent's child session has its own). The result tells the model what changed;
 * `renderResult` draws the list as a checklist for a person.
 *
 * @returns The tool and a reader of a session's current list (for an integrator's UI).
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createTodoWriteTool } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const todos = createTodoWriteTool();
 * const session = await createSession({ cwd, tools: [todos.tool] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'TodoWrite', input: { todos: [{ content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' }] } }]);
 * todos.current(session.id); // [{ content: 'Fix the bug', … }]
 * ```
 */
export function createTodoWriteTool(): { tool: AnyTool; current(sessionId: string): readonly Todo[] } {
  const lists = new Map<string, Todo[]>();
  const tool = buildTool({
    name: 'TodoWrite',
    searchHint: 'plan track progress todo checklist',
    description:
      'Creates and updates the todo list of this session, to plan multi-step work and show progress. Send the whole list each time; it replaces the previous one. Keep exactly one item "in_progress" while you work, and mark items "completed" as soon as they are done.',
    inputSchema: todoWriteInput,
    // It only touches the session's own bookkeeping, so it needs no permission (plan mode included).
    checkPermissions: () => ({ behavior: 'allow' }),
    async call({ todos }, ctx) {
      if (!lists.has(ctx.sessionId)) ctx.onClose(() => void lists.delete(ctx.sessionId));
      const oldTodos = lists.get(ctx.sessionId) ?? [];
      const newTodos = todos.map((t) => ({ ...t }));
      lists.set(ctx.sessionId, newTodos);
      return { data: { oldTodos, newTodos } satisfies TodoWriteOutput };
    },
    mapResult: ({ oldTodos, newTodos }: TodoWriteOutput) => {
      const changes = describeChanges(oldTodos, newTodos);
      const inProgress = newTodos.filter((t) => t.status === 'in_progress').length;
      const hint = inProgress > 1 ? ` Note: ${inProgress} items are in progress; keep one at a time.` : '';
      return `Todo list updated (${newTodos.filter((t) => t.status === 'completed').length}/${newTodos.length} completed): ${changes}.${hint} Keep using the todo list to track your progress.`;
    },
    renderResult: ({ newTodos }: TodoWriteOutput) => renderChecklist(newTodos),
  });
  return { tool, current: (sessionId) => lists.get(sessionId) ?? [] };
}

/**
 * A todo list as a plain-text checklist: `[x]` done, `[~]` in progress (with its active form),
 * `[ ]` pending.
 *
 * @param todos The list.
 * @returns One line per item.
 *
 * @example
 * ```ts
 * import { renderChecklist } from '@toolshed/tool-agent';
 *
 * renderChecklist([{ content: 'Run tests', status: 'in_progress', activeForm: 'Running tests' }]); // '[~] Running tests'
 * ```
 */
export function renderChecklist(todos: readonly Todo[]): string {
  if (todos.length === 0) return '(no todos)';
  return todos.map((t) => `${MARK[t.status]} ${t.status === 'in_progress' ? t.activeForm : t.content}`).join('\n');
}

function describeChanges(before: readonly Todo[], after: readonly Todo[]): string {
  const parts: string[] = [];
  const old = new Map(before.map((t) => [t.content, t]));
  const now = new Set(after.map((t) => t.content));
  for (const t of after) {
    const was = old.get(t.content);
    if (!was) parts.push(`added "${t.content}" (${t.status})`);
    else if (was.status !== t.status) parts.push(`"${t.content}" ${was.status} → ${t.status}`);
  }
  for (const t of before) if (!now.has(t.content)) parts.push(`removed "${t.content}"`);
  return parts.length ? parts.join('; ') : 'no changes';
}
