import { z } from 'zod';
import { buildTool, type Tool } from '../tool.ts';
import { backgroundTasksOf, type TaskStatus } from './background_tasks.ts';
import { unknownTaskMessage } from './task_output_tool.ts';

/**
 * Input of the TaskStop tool (Claude Code's fields).
 *
 * @example
 * ```ts
 * import { taskStopInput } from '@toolshed/core/internal';
 *
 * taskStopInput.parse({ task_id: 'bash_1_ab12cd' });
 * ```
 */
export const taskStopInput = z.object({
  task_id: z.string().min(1).describe('The id of the background task to stop'),
});

/** What TaskStop returns. */
export interface TaskStopResult {
  task_id: string;
  status: TaskStatus;
  /** False when the task had already ended. */
  stopped: boolean;
  exit_code: number | null;
}

/**
 * TaskStop: ends a background task of any family — kills a Bash command's whole process tree
 * (SIGTERM, then SIGKILL), aborts a background Agent.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * await session.run([{ type: 'tool_use', id: 't3', name: 'TaskStop', input: { task_id: 'bash_1_ab12cd' } }]);
 * ```
 */
export const taskStopTool: Tool<typeof taskStopInput, TaskStopResult> = buildTool({
  name: 'TaskStop',
  searchHint: 'stop kill background task shell command agent',
  description:
    "Stops a background task started with run_in_background: kills a Bash command's whole process tree (SIGTERM, then SIGKILL after a short grace), or aborts a background Agent. Its output so far stays readable with TaskOutput and in its log file.",
  inputSchema: taskStopInput,
  getToolUseSummary: ({ task_id }) => task_id,
  // Stopping what this session started needs no prompt; deny rules still apply before this.
  checkPermissions: () => ({ behavior: 'allow', reason: 'it only stops a background task this session started' }),
  mapResult: (r) =>
    r.stopped
      ? `Task ${r.task_id} was stopped.`
      : `Task ${r.task_id} had already ended (${r.status}${r.exit_code !== null ? `, exit code ${r.exit_code}` : ''}); nothing was stopped.`,
  async call({ task_id }, ctx) {
    const registry = backgroundTasksOf(ctx);
    const task = registry.get(task_id);
    if (!task) throw new Error(unknownTaskMessage(registry, task_id));
    const wasRunning = task.status === 'running';
    await task.stop();
    return { data: { task_id, status: task.status, stopped: wasRunning, exit_code: task.exitCode } };
  },
});
