/**
 * `@toolshed/tool-shell/internal`: the parts Bash is made of — the command parser and analysis, the
 * process runner, the bubblewrap sandbox's arguments, output formatting — for this repository's
 * benchmarks and sibling packages. **Unstable**: these names may change or go in any release,
 * without a major version. Integrators need only `@toolshed/tool-shell`.
 *
 * ```ts
 * import { runCommand } from '@toolshed/tool-shell/internal';
 *
 * const { output, exitCode } = await runCommand('echo hi', { cwd: process.cwd(), timeoutMs: 5_000 });
 * console.log(exitCode, output); // 0 "hi\n"
 * ```
 *
 * @module
 */
export { formatBashOutput } from '../bash_tool.ts';
export { taskOutputInput } from '../task_output_tool.ts';
export { taskStopInput } from '../task_stop_tool.ts';
export { resolveShellOptions, type ResolvedShellOptions } from '../shell_options.ts';
export { BASE_ENV_NAMES, policyEnvironment } from '../shell_env.ts';
export {
  analyzeCommand,
  isBashParserLoaded,
  loadBashParser,
  type AnalyzeOptions,
  type ShellAnalysis,
  type ShellRedirect,
  type ShellWord,
  type SimpleCommand,
} from '../bash_parser.ts';
export { classifyAnalysis } from '../classify_command.ts';
export {
  commandMatcher,
  matchCommandRule,
  MAX_COMMAND_PARTS,
  splitCommand,
  type CommandPart,
  type CommandSplit,
} from '../command_matcher.ts';
export { commandResources, type CommandResources, type CommandResourcesOptions } from '../command_resources.ts';
export { checkShellPermissions } from '../shell_permissions.ts';
export {
  RUN_MARK_VAR,
  runCommand,
  startCommand,
  type CommandProgress,
  type CommandResult,
  type RunCommandOptions,
  type RunningCommand,
} from '../run_command.ts';
export {
  bwrapArguments,
  findBwrap,
  quarantineCreated,
  SANDBOX_PROTECTED,
  type SandboxProtection,
  sandboxProtection,
  type SandboxSpec,
  unixSocketFilter,
} from '../sandbox.ts';
export { MAX_UNREAD_CHARS } from '../task_registry.ts';
