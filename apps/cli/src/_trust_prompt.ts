import path from 'node:path';
import { declineProjectTrust, loadSettings, trustProject, type SettingSource } from '@toolshed/core';
import { readTrustList } from '@toolshed/core/internal';
import type { CliIo } from './cli_io.ts';
import { mcpJsonServersLine } from './_mcp_json_servers.ts';
import type { Prompter } from './_prompter.ts';
import { escapeUnprintable } from './_printable.ts';

/**
 * In a terminal, asks once whether to trust a project folder whose settings files hold things
 * that an untrusted folder may not set (allow rules, a permissive mode, hooks), naming them and
 * the `.mcp.json` servers that trusting starts (with their commands). Yes adds it to
 * the trust list; no is remembered there too, so the question is not asked again (`toolshed
 * trust DIR` still trusts it later). Does nothing when the folder is trusted or declined, when
 * nothing would be ignored, or when the trust list cannot be read.
 *
 * @param dir The project folder (`--cwd`).
 * @param options The settings `sources` the command reads, whose trust list (`homeDir`), the
 *   `prompter` (asks on stderr, reads stdin), and where the explanation goes (`io`).
 * @returns Whether the folder was trusted now.
 */
export async function askToTrustProject(
  dir: string,
  {
    sources,
    homeDir,
    prompter,
    io,
  }: { sources: readonly SettingSource[]; homeDir: string; prompter: Prompter; io: Pick<CliIo, 'stderr'> },
): Promise<boolean> {
  let declined: string[];
  try {
    declined = (await readTrustList({ homeDir })).declined;
  } catch {
    return false;
  }
  const settings = await loadSettings({ cwd: dir, homeDir, sources });
  const untrusted = settings.untrustedProject;
  if (!untrusted || declined.some((d) => d === untrusted.dir)) return false;
  // `.mcp.json` is read only where the Claude Code sources are (its servers start only then).
  const servers = sources.includes('claude')
    ? await mcpJsonServersLine(dir, {
        selection: (await loadSettings({ cwd: dir, homeDir, sources, trustedProject: true })).mcpjsonServers,
      })
    : undefined;
  const lines = [
    // What is ignored quotes the project's own settings: control and bidi characters shown escaped.
    ...untrusted.ignored.map((i) => `  ${escapeUnprintable(`${path.relative(dir, i.file)}: ${i.what.join('; ')}`)}\n`),
    ...(servers ? [`  ${servers}\n`] : []),
  ].join('');
  io.stderr.write(
    `toolshed: the settings files of ${dir} are not trusted; until they are, only their deny and ask rules apply. Ignored:\n${lines}`,
  );
  const answer = await prompter.ask(
    `Trust ${dir}, so that these apply (they can allow commands, run hooks${servers ? ' and start MCP servers' : ''})? [y/N] `,
  );
  if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) {
    await trustProject(dir, { homeDir });
    io.stderr.write(`toolshed: trusted ${dir}.\n`);
    return true;
  }
  await declineProjectTrust(dir, { homeDir }).catch(() => {});
  io.stderr.write(
    `toolshed: not trusted; you will not be asked again for this folder. Run "toolshed trust ${dir}" to trust it later.\n`,
  );
  return false;
}
