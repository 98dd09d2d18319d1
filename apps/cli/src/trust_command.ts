import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { loadSettings, SETTING_SOURCES, trustProject } from '@toolshed/core';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { mcpJsonServersLine } from './_mcp_json_servers.ts';
import { UsageError } from './usage_error.ts';
import { escapeUnprintable } from './_printable.ts';

/**
 * `toolshed trust [DIR]`: trusts a project folder (default `--cwd`), so that the settings files
 * inside it — `.toolshed/settings*.json`, `.claude/settings*.json` — apply whole, allow rules,
 * permissive modes and hooks included, and its `.mcp.json` may be used by default. Until then
 * they may only tighten. The folder is added to `~/.toolshed/trusted-projects.json` (mode
 * 0600), which no repository can write; its subfolders are trusted with it. Prints what now
 * applies that did not before; `--json` prints `{ dir, file, already, nowApplies }`.
 *
 * @param invocation `positionals` is `[]` or `[DIR]`.
 * @param io The CLI's streams; `HOME` in `io.env` is whose trust list.
 * @returns 0.
 * @throws {UsageError} For more than one argument, or a DIR that is not a directory.
 *
 * @example
 * ```ts
 * import type { CliIo, CommonArgs } from '@toolshed/cli';
 * import { trustCommand } from './trust_command.ts';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await trustCommand({ positionals: ['../cloned-repo'], args }, io);
 * ```
 */
export async function trustCommand(invocation: CommandInvocation, io: CliIo): Promise<number> {
  const [given, ...rest] = invocation.positionals;
  if (rest.length)
    throw new UsageError(
      `"toolshed trust" takes at most one folder; unexpected ${rest.map((r) => `"${r}"`).join(' ')}.`,
      { command: 'trust' },
    );
  const dir = given === undefined ? invocation.args.cwd : path.resolve(process.cwd(), given);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`"${given ?? dir}" does not exist (resolved to ${dir}); give the project folder to trust.`, {
      command: 'trust',
      showUsage: false,
    });
  }
  if (!isDir)
    throw new UsageError(`"${given ?? dir}" is not a folder (resolved to ${dir}); give the project folder to trust.`, {
      command: 'trust',
      showUsage: false,
    });
  const homeDir = io.env?.['HOME'] || homedir();
  const before = await loadSettings({ cwd: dir, homeDir, sources: SETTING_SOURCES, trustedProject: false });
  const nowApplies = (before.untrustedProject?.ignored ?? []).map(
    (i) => `${path.relative(dir, i.file)}: ${i.what.join('; ')}`,
  );
  const after = await loadSettings({ cwd: dir, homeDir, sources: SETTING_SOURCES, trustedProject: true });
  const servers = await mcpJsonServersLine(dir, { selection: after.mcpjsonServers });
  if (servers) nowApplies.push(servers);
  let result: Awaited<ReturnType<typeof trustProject>>;
  try {
    result = await trustProject(dir, { homeDir });
  } catch (e) {
    throw new UsageError((e as Error).message, { showUsage: false });
  }
  if (invocation.args.json) {
    io.stdout.write(`${JSON.stringify({ ...result, nowApplies }, null, 2)}\n`);
    return 0;
  }
  const lead = result.already ? `${result.dir} was already trusted` : `Trusted ${result.dir}`;
  io.stdout.write(
    `${lead} (kept in ${result.file}): its settings files in .toolshed/ and .claude/ and its .mcp.json now apply whole.\n`,
  );
  if (!result.subfolders)
    io.stdout.write(
      `This is your home folder or a folder above it, so this trusts that folder only: the repositories below it are each trusted on their own (toolshed trust DIR).\n`,
    );
  // The lines quote the project's own settings: their control and bidi characters are shown escaped.
  if (nowApplies.length)
    io.stdout.write(`Now applies:\n${nowApplies.map((line) => `  ${escapeUnprintable(line)}\n`).join('')}`);
  return 0;
}
