import { createRequire } from 'node:module';
import { describeError } from '@toolshed/core';
import { parseCliArgs, type CommandInvocation, type CommandName } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { benchCommand } from './bench_command.ts';
import { callCommand } from './call_command.ts';
import { chatCommand } from './chat_command.ts';
import { checkCommand } from './check_command.ts';
import { demoCommand } from './demo/mod.ts';
import { commandUsage, notYetImplemented, overallUsage, usageHint } from './help.ts';
import { mcpCommand } from './mcp_command.ts';
import { rulesCommand } from './rules_command.ts';
import { runCommand } from './run_command.ts';
import { searchCommand } from './search_command.ts';
import { toolsCommand } from './tools_command.ts';
import { trustCommand } from './trust_command.ts';
import { UsageError } from './usage_error.ts';
import { versionText } from './_versions.ts';

const { version: VERSION } = createRequire(import.meta.url)('../package.json') as { version: string };

const RUNNERS: Record<
  Exclude<CommandName, 'rules' | 'bench'>,
  (invocation: CommandInvocation, io: CliIo) => Promise<number>
> = {
  demo: demoCommand,
  tools: toolsCommand,
  call: callCommand,
  check: checkCommand,
  run: (invocation, io) => runCommand(invocation, io),
  search: searchCommand,
  mcp: mcpCommand,
  trust: trustCommand,
  chat: chatCommand,
};

/**
 * Runs the `toolshed` CLI in-process: parses `argv`, runs the command, and returns the exit code.
 * It never throws: a usage error prints the message and the command's usage to stderr and
 * returns 2; anything unexpected prints one line `toolshed: <message>` (and the stack when
 * `TOOLSHED_DEBUG=1`) and returns 1.
 *
 * @param argv The arguments after `toolshed`.
 * @param io The streams to use, whether a person is at the terminal, and test hooks.
 * @returns The exit code: 0 ok; 1 a tool error, no search match, a failed MCP server, a rule
 *   problem found by `rules lint`, or an unexpected failure; 2 a usage error (including a bad
 *   settings file).
 *
 * @example
 * ```ts
 * const code = await runCli(['tools', '--json'], { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, isTTY: false });
 * process.exitCode = code;
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseCliArgs(argv);
    switch (parsed.kind) {
      case 'help':
        io.stdout.write(parsed.command ? commandUsage(parsed.command) : overallUsage());
        return 0;
      case 'version':
        io.stdout.write(versionText(VERSION));
        return 0;
      case 'planned':
        io.stderr.write(notYetImplemented(parsed.name));
        return 2;
      case 'command':
        return await RUNNERS[parsed.command](parsed, io);
      case 'rules':
        return await rulesCommand(parsed.argv, io);
      case 'bench':
        return await benchCommand(parsed.argv, io);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`toolshed: ${e.message}\n`);
      if (e.showUsage) io.stderr.write(`\n${usageHint(e.command)}`);
      return 2;
    }
    io.stderr.write(`toolshed: ${describeError(e)}\n`);
    if ((io.env ?? process.env)['TOOLSHED_DEBUG'] === '1' && e instanceof Error && e.stack)
      io.stderr.write(`${e.stack}\n`);
    return 1;
  }
}
