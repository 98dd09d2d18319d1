import { z } from 'zod';
import { buildTool, type Tool } from '../tool.ts';
import { backgroundTasksOf, type BackgroundTasks, type TaskStatus } from './background_tasks.ts';

/**
 * Input of the TaskOutput tool (Claude Code's fields).
 *
 * @example
 * ```ts
 * import { taskOutputInput } from '@toolshed/core/internal';
 *
 * taskOutputInput.parse({ task_id: 'bash_1_ab12cd', block: false });
 * ```
 */
export const taskOutputInput = z.object({
  task_id: z.string().min(1).describe('The id of the background task, as Bash or Agent returned it'),
  block: z.boolean().optional().describe('Wait for the task to finish (up to timeout) before returning; default true'),
  timeout: z
    .number()
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe('How long to wait when block is true, in milliseconds (max 600000); default 30000'),
});

/** What TaskOutput returns. */
export interface TaskOutputResult {
  task_id: string;
  kind: string;
  status: TaskStatus;
  exit_code: number | null;
  signal: string | null;
  /** Why the task was ended by someone else (its log reached the cap, …). */
  stop_reason: string | null;
  /** Output since the last TaskOutput for this task (head and tail when over the cap). */
  output: string;
  /** Characters of unread output dropped from memory (still in the log). */
  skipped_chars: number;
  log_path: string;
}

const MAX_CHARS = 30_000;

/**
 * The "no such task" message: the ids that exist, or how to start one.
 *
 * @param registry The session's tasks.
 * @param id The id asked for.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { backgroundTasksOf, type ToolContext } from '@toolshed/core';
 * import { unknownTaskMessage } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * throw new Error(unknownTaskMessage(backgroundTasksOf(ctx), 'bash_404'));
 * ```
 */
export function unknownTaskMessage(registry: BackgroundTasks, id: string): string {
  const known = registry.list().map((t) => t.id);
  return `No background task "${id}" in this session${known.length ? `; known tasks: ${known.join(', ')}` : '; start one with Bash or Agent and run_in_background: true'}.`;
}

/**
 * TaskOutput: the new output of a background task (a Bash command or an Agent) since the last
 * read, its status and exit code; with `block` (the default) it first waits up to `timeout` for
 * the task to end. One tool for every family's background work: it reads the session's
 * {@linkcode BackgroundTasks}.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't2', name: 'TaskOutput', input: { task_id: 'bash_1_ab12cd', block: false } }]);
 * ```
 */
export const taskOutputTool: Tool<typeof taskOutputInput, TaskOutputResult> = buildTool({
  name: 'TaskOutput',
  searchHint: 'read output of background task shell command agent',
  description: `Reads the output of a background task started with run_in_background (a Bash command or an Agent): everything it printed since the last TaskOutput for that task, its status (running, completed, failed, killed) and exit code.

- block (default true) waits up to timeout milliseconds (default 30000) for the task to finish first; use block: false to peek at a running task.
- Output over 30000 characters keeps its head and tail; the whole output is always in the task's log file (log_path), readable with Read or Grep.`,
  inputSchema: taskOutputInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  getToolUseSummary: ({ task_id }) => task_id,
  mapResult: (r) => {
    const head = `Task ${r.task_id}: ${r.status}${r.exit_code !== null ? `, exit code ${r.exit_code}` : ''}${r.signal ? `, signal ${r.signal}` : ''}.`;
    const reason = r.stop_reason ? `\n${r.stop_reason}` : '';
    const skipped = r.skipped_chars
      ? `\n[${r.skipped_chars} earlier characters were not kept in memory; see ${r.log_path}]`
      : '';
    return `${head}${reason}${skipped}\n${r.output ? `New output since the last read:\n${r.output.replace(/\n$/, '')}` : 'No new output since the last read.'}`;
  },
  async call({ task_id, block, timeout }, ctx, { signal }) {
    const registry = backgroundTasksOf(ctx);
    const task = registry.get(task_id);
    if (!task) throw new Error(unknownTaskMessage(registry, task_id));
    if (block ?? true) await task.wait(timeout ?? 30_000, signal);
    const { text, skippedChars } = task.takeUnread();
    const output =
      text.length > MAX_CHARS
        ? `${text.slice(0, MAX_CHARS / 2)}\n\n[... ${text.length - MAX_CHARS} characters elided; the whole output is in ${task.logPath} ...]\n\n${text.slice(-MAX_CHARS / 2)}`
        : text;
    return {
      data: {
        task_id,
        kind: task.kind,
        status: task.status,
        exit_code: task.exitCode,
        signal: task.signal,
        stop_reason: task.stopReason ?? null,
        output,
        skipped_chars: skippedChars,
        log_path: task.logPath,
      },
    };
  },
});
