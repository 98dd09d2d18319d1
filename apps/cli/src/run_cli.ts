import { createRequire } from 'node:module';
import type { CommandInvocation, CommandName } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { helpOrVersion } from './_help_or_version.ts';
import { commandUsage, notYetImplemented, overallUsage, usageHint } from './help.ts';
import { UsageError } from './usage_error.ts';
import { versionText } from './_versions.ts';
import { printableMessage } from './_printable.ts';

const { version: VERSION } = createRequire(import.meta.url)('../package.json') as { version: string };

type Runner = (invocation: CommandInvocation, io: CliIo) => Promise<number>;

// Each command is imported when it runs, so a command loads only what it uses: `--help` loads
// neither core nor a family, `call Read --only fs` loads core and tool-fs (see
// module_loading_test.ts).
const RUNNERS: Record<Exclude<CommandName, 'rules' | 'bench'>, () => Promise<Runner>> = {
  demo: async () => (await import('./demo/mod.ts')).demoCommand,
  tools: async () => (await import('./tools_command.ts')).toolsCommand,
  call: async () => (await import('./call_command.ts')).callCommand,
  check: async () => (await import('./check_command.ts')).checkCommand,
  run: async () => {
    const { runCommand } = await import('./run_command.ts');
    return (invocation, io) => runCommand(invocation, io);
  },
  search: async () => (await import('./search_command.ts')).searchCommand,
  mcp: async () => (await import('./mcp_command.ts')).mcpCommand,
  trust: async () => (await import('./trust_command.ts')).trustCommand,
  chat: async () => (await import('./chat_command.ts')).chatCommand,
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
 * import { runCli } from '@toolshed/cli';
 *
 * const code = await runCli(['tools', '--json'], { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, isTTY: false });
 * process.exitCode = code;
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const quick = helpOrVersion(argv);
    if (quick?.kind === 'help') {
      io.stdout.write(quick.command ? commandUsage(quick.command) : overallUsage());
      return 0;
    }
    if (quick?.kind === 'version') {
      io.stdout.write(versionText(VERSION));
      return 0;
    }
    const { parseCliArgs } = await import('./args.ts');
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
        return await (await RUNNERS[parsed.command]())(parsed, io);
      case 'rules':
        return await (await import('./rules_command.ts')).rulesCommand(parsed.argv, io);
      case 'bench':
        return await (await import('./bench_command.ts')).benchCommand(parsed.argv, io);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`toolshed: ${printableMessage(e.message)}\n`);
      if (e.showUsage) io.stderr.write(`\n${usageHint(e.command)}`);
      return 2;
    }
    const { describeError } = await import('@toolshed/core/internal');
    io.stderr.write(`toolshed: ${printableMessage(describeError(e))}\n`);
    if ((io.env ?? process.env)['TOOLSHED_DEBUG'] === '1' && e instanceof Error && e.stack)
      io.stderr.write(`${e.stack}\n`);
    return 1;
  }
}
