import { buildTool, ToolshedError, type AnyTool } from '@toolshed/core';
import { z } from 'zod';
import { sessionTaskStore } from './_session_store.ts';
import type { TaskListLocationOptions } from './task_list_location.ts';
import { corruptMessage, isCorrupt, type TaskRecord, type TaskStore, type TaskStoreOptions } from './task_store.ts';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** A task-list change was refused (an unknown task, a cycle, a bad status). */
    task_refused: true;
  }
}

/** Error code of a refused task-list operation (not found, claimed, blocked, corrupt file). */
export const TASK_REFUSED = 'task_refused' as const;

/** Options of {@linkcode taskListTools}. */
export type TaskListToolsOptions = TaskListLocationOptions & TaskStoreOptions;

const taskIdField = z
  .string()
  .min(1)
  .describe('The id of the task, as TaskCreate or TaskList gave it (for example "3")');

/** Input of TaskCreate. */
export const taskCreateInput = z.strictObject({
  subject: z.string().min(1).describe('A short title in the imperative, for example "Run the test suite"'),
  description: z.string().describe('What needs to be done, in enough detail for another agent to do it'),
  activeForm: z
    .string()
    .optional()
    .describe('Present continuous form shown while the task runs, for example "Running the test suite"'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Arbitrary data to keep with the task'),
});

/** Input of TaskGet. */
export const taskGetInput = z.strictObject({ taskId: taskIdField });

/** Input of TaskUpdate. */
export const taskUpdateInput = z.strictObject({
  taskId: taskIdField,
  subject: z.string().min(1).optional().describe('A new title'),
  description: z.string().optional().describe('A new description'),
  activeForm: z.string().optional().describe('A new present continuous form'),
  status: z
    .enum(['pending', 'in_progress', 'completed', 'deleted'])
    .optional()
    .describe('The new status; "deleted" removes the task'),
  owner: z
    .string()
    .min(1)
    .optional()
    .describe('Claim the task for this owner (your agent name); refused if someone else holds it'),
  addBlocks: z.array(z.string()).optional().describe('Ids of tasks that cannot start until this one is completed'),
  addBlockedBy: z
    .array(z.string())
    .optional()
    .describe('Ids of tasks that must be completed before this one can start'),
  metadata: z.record(z.string(), z.unknown()).optional().describe("Data to merge into the task's metadata"),
});

/** Input of TaskList. */
export const taskListInput = z.strictObject({});

/**
 * The four tools of a file-backed task list shared by agents and processes: TaskCreate,
 * TaskGet, TaskUpdate and TaskList, with Claude Code's names and input fields. The list lives in
 * `~/.toolshed/tasks/<list id>/` (one list per project unless `taskListId` or
 * `TOOLSHED_TASK_LIST_ID` says otherwise), so two `toolshed` processes in one project share it.
 *
 * @param options Which list, where, and the lock's staleness.
 * @returns The tools, for a family's `tools`.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { taskListTools } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const session = await createSession({ cwd, tools: taskListTools({ taskListId: 'release' }) });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'TaskCreate', input: { subject: 'Tag v2', description: 'git tag v2' } }]);
 * ```
 */
export function taskListTools(options: TaskListToolsOptions = {}): AnyTool[] {
  const stores = new Map<string, TaskStore>();
  const storeOf = (ctx: Parameters<typeof sessionTaskStore>[0]) => sessionTaskStore(ctx, stores, options);

  const create = buildTool({
    name: 'TaskCreate',
    searchHint: 'create a task in the shared task list',
    description:
      'Creates a task in the shared task list (kept on disk, shared with other agents and processes of this project). Use it to plan multi-step work; then claim a task with TaskUpdate (owner, status "in_progress") and complete it with status "completed".',
    inputSchema: taskCreateInput,
    checkPermissions: () => ({ behavior: 'allow' }),
    async call(input, ctx) {
      const task = await storeOf(ctx).create(definedOnly(input));
      return { data: `Task #${task.id} created successfully: ${task.subject}` };
    },
  });

  const get = buildTool({
    name: 'TaskGet',
    searchHint: 'read one task of the task list',
    description: 'Reads one task of the shared task list: subject, description, status, owner and what blocks it.',
    inputSchema: taskGetInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call({ taskId }, ctx) {
      const found = await storeOf(ctx).get(taskId);
      if (found === undefined)
        throw new ToolshedError(TASK_REFUSED, `Task "${taskId}" was not found; TaskList shows the tasks there are.`);
      if (isCorrupt(found)) throw new ToolshedError(TASK_REFUSED, corruptMessage(found));
      return { data: describeTask(found) };
    },
  });

  const update = buildTool({
    name: 'TaskUpdate',
    searchHint: 'claim complete or change a task of the task list',
    description:
      'Changes a task of the shared task list. Claim a task by setting owner (and status "in_progress"): a task someone else owns, a completed task, or one blocked by open tasks cannot be claimed, and the result says which. Set status "completed" when done, "deleted" to remove it. addBlocks / addBlockedBy link tasks.',
    inputSchema: taskUpdateInput,
    checkPermissions: () => ({ behavior: 'allow' }),
    async call({ taskId, status, ...rest }, ctx) {
      const store = storeOf(ctx);
      if (status === 'deleted') {
        if (!(await store.delete(taskId)))
          throw new ToolshedError(TASK_REFUSED, `Task "${taskId}" was not found; TaskList shows the tasks there are.`);
        return { data: `Task #${taskId.replace(/^#/, '')} deleted.` };
      }
      const outcome = await store.update(taskId, definedOnly({ ...rest, status }));
      if (!outcome.ok) throw new ToolshedError(TASK_REFUSED, outcome.message);
      const what = outcome.changed.length ? outcome.changed.join(', ') : 'nothing (it already was so)';
      return { data: `Updated task #${outcome.task.id}: ${what}.\n${describeTask(outcome.task)}` };
    },
  });

  const list = buildTool({
    name: 'TaskList',
    searchHint: 'list the tasks of the task list',
    description:
      'Lists every task of the shared task list with its status, owner and blockers, so you can pick the next unclaimed, unblocked task.',
    inputSchema: taskListInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(_input, ctx) {
      const { tasks, corrupt } = await storeOf(ctx).list();
      const open = new Set(tasks.filter((t) => t.status !== 'completed').map((t) => t.id));
      const lines = tasks.map((t) => {
        const blockers = t.blockedBy.filter((b) => open.has(b));
        return `#${t.id} [${t.status}] ${t.subject}${t.owner ? ` (owner: ${t.owner})` : ''}${blockers.length ? ` [blocked by ${blockers.map((b) => `#${b}`).join(', ')}]` : ''}`;
      });
      for (const c of corrupt) lines.push(`#${c.id} [unreadable] ${corruptMessage(c)}`);
      return { data: lines.length ? lines.join('\n') : 'No tasks yet. Create one with TaskCreate.' };
    },
  });

  return [create, get, update, list];
}

function describeTask(task: TaskRecord): string {
  const lines = [`Task #${task.id}: ${task.subject}`, `Status: ${task.status}`];
  if (task.owner) lines.push(`Owner: ${task.owner}`);
  if (task.activeForm) lines.push(`Active form: ${task.activeForm}`);
  if (task.blockedBy.length) lines.push(`Blocked by: ${task.blockedBy.map((b) => `#${b}`).join(', ')}`);
  if (task.blocks.length) lines.push(`Blocks: ${task.blocks.map((b) => `#${b}`).join(', ')}`);
  lines.push(`Description: ${task.description}`);
  return lines.join('\n');
}

/** Drops undefined fields, as exactOptionalPropertyTypes wants for the store's inputs. */
function definedOnly<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
