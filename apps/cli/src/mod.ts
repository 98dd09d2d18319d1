/**
 * `@toolshed/cli`: the `toolshed` binary, also runnable in-process for tests and scripts.
 *
 * ```ts
 * import { runCli } from '@toolshed/cli';
 *
 * const out: string[] = [];
 * const code = await runCli(['tools', '--json', '--only', 'fs'], {
 *   stdout: { write: (s: string) => out.push(s) },
 *   stderr: process.stderr,
 *   stdin: process.stdin,
 *   isTTY: false,
 * });
 * console.log(code, JSON.parse(out.join('')));
 * ```
 *
 * @module
 */
export { runCli } from './run_cli.ts';
export type { CliIo, CliSpinner, TextSink } from './cli_io.ts';
export { parseCliArgs } from './args.ts';
export { DEFAULT_SETTING_SOURCES } from './default_setting_sources.ts';
export type { CommandInvocation, CommandName, CommonArgs, ParsedCommandLine, ParseCliArgsOptions } from './args.ts';
export { FAMILY_NAMES, loadFamilies, parseFamilyList } from './families.ts';
export type { FamilyName, LoadFamiliesOptions } from './families.ts';
export { readMcpConfigFile } from './mcp_config_file.ts';
export { createCliSession, settingsOptions, withSession } from './session_from_args.ts';
export type { SettingsOptions } from './session_from_args.ts';
export { parseTranscript } from './transcript.ts';
export { UsageError } from './usage_error.ts';
export { COMMANDS, commandUsage, notYetImplemented, overallUsage, PLANNED_COMMANDS, usageHint } from './help.ts';
export type { CommandSpec } from './help.ts';
export { toolRow, toolsCommand } from './tools_command.ts';
export type { ToolRow } from './tools_command.ts';
export { callCommand } from './call_command.ts';
export { checkCommand, formatDecision } from './check_command.ts';
export type { CheckOutput } from './check_command.ts';
export { runCommand } from './run_command.ts';
export type { RunCommandOptions } from './run_command.ts';
export { searchCommand } from './search_command.ts';
export type { SearchArgs, SearchInvocation, SearchRow } from './search_command.ts';
export { mcpCommand } from './mcp_command.ts';
export type { McpCommandFlags, McpCommandInvocation, McpListRow } from './mcp_command.ts';
export { formatReport, RULES_USAGE, rulesCommand } from './rules_command.ts';
export { BENCH_USAGE, benchCommand, type BenchCommandOptions } from './bench_command.ts';
