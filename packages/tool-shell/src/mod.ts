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
export {
  bashInput,
  bashResultFailed,
  bashTool,
  createBashTool,
  formatBashOutput,
  type BashOutput,
} from './bash_tool.ts';
export { taskOutputInput, taskOutputTool, type TaskOutputResult } from './task_output_tool.ts';
export { taskStopInput, taskStopTool, type TaskStopResult } from './task_stop_tool.ts';
export {
  resolveShellOptions,
  type ResolvedShellOptions,
  type SandboxOptions,
  type ShellToolsOptions,
} from './shell_options.ts';
export { BASE_ENV_NAMES, isShellEnvPolicy, policyEnvironment, type ShellEnvPolicy } from './shell_env.ts';
export {
  analyzeCommand,
  isBashParserLoaded,
  loadBashParser,
  type AnalyzeOptions,
  type ShellAnalysis,
  type ShellRedirect,
  type ShellWord,
  type SimpleCommand,
} from './bash_parser.ts';
export { classifyAnalysis, classifyCommand, type Classification } from './classify_command.ts';
export {
  commandMatcher,
  matchCommandRule,
  MAX_COMMAND_PARTS,
  splitCommand,
  type CommandPart,
  type CommandSplit,
} from './command_matcher.ts';
export { commandResources, type CommandResources, type CommandResourcesOptions } from './command_resources.ts';
export { checkShellPermissions } from './shell_permissions.ts';
export { READ_ONLY_PROGRAMS, type ProgramRule } from './read_only_rules.ts';
export {
  RUN_MARK_VAR,
  runCommand,
  startCommand,
  type CommandProgress,
  type CommandResult,
  type RunCommandOptions,
  type RunningCommand,
} from './run_command.ts';
export {
  bwrapArguments,
  findBwrap,
  missingProtectedEntries,
  quarantineCreated,
  SANDBOX_HOME_SECRETS,
  SANDBOX_PROTECTED,
  SANDBOX_UNAVAILABLE,
  type SandboxSpec,
  unixSocketFilter,
} from './sandbox.ts';
export {
  MAX_UNREAD_CHARS,
  shellTasksKey,
  TaskRegistry,
  tasksOf,
  type BackgroundTask,
  type TaskRegistryOptions,
  type TaskStatus,
} from './task_registry.ts';
