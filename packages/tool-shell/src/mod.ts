/**
 * `@toolshed/tool-shell`: Bash that is safe to auto-approve, kills what it starts, and runs in
 * the background — Bash, TaskOutput and TaskStop for Toolshed, with an optional bubblewrap
 * sandbox.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { shellTools } from '@toolshed/tool-shell';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [shellTools()],
 *   permissions: { allow: ['Bash(npm run test:*)'], deny: ['Bash(rm:*)', 'Read(./.env)'] },
 * });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'git status' } }]);
 * await session.close(); // kills background tasks
 * ```
 *
 * @module
 */
export { shellTools } from './family.ts';
export { bashInput, bashResultFailed, bashTool, createBashTool, type BashOutput } from './bash_tool.ts';
export { taskOutputTool, type TaskOutputResult } from './task_output_tool.ts';
export { taskStopTool, type TaskStopResult } from './task_stop_tool.ts';
export { type SandboxOptions, type ShellToolsOptions } from './shell_options.ts';
export { isShellEnvPolicy, type ShellEnvPolicy } from './shell_env.ts';
export { classifyCommand, type Classification } from './classify_command.ts';
export { READ_ONLY_PROGRAMS, type ProgramRule } from './read_only_rules.ts';
export { SANDBOX_HOME_SECRETS, SANDBOX_UNAVAILABLE } from './sandbox.ts';
export {
  shellTasksKey,
  TaskRegistry,
  tasksOf,
  type BackgroundTask,
  type TaskRegistryOptions,
  type TaskStatus,
} from './task_registry.ts';
