import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LoadedSettings } from '@toolshed/core';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { selectMcpjsonServers } from './_mcpjson_selection.ts';
import { escapeUnprintable, quoted } from './_printable.ts';

/**
 * What trusting a folder would start from its `.mcp.json`, in one line for the trust question
 * and `toolshed trust`: each server's name and the command it runs (or the address it connects
 * to), every word quoted and escaped (see `quoted`). Undefined when the folder has no
 * `.mcp.json` or it names no server.
 *
 * @param dir The project folder.
 * @param options `selection`: the settings' `mcpjsonServers` as they apply once the folder is
 *   trusted, so that the servers they leave out are named as not started.
 * @returns For example `.mcp.json: 1 server starts at each command: "issues" runs "node" "server.js"`.
 *
 * @example
 * ```ts
 * import { mcpJsonServersLine } from './_mcp_json_servers.ts';
 *
 * const line = await mcpJsonServersLine('/src/cloned');
 * if (line) process.stderr.write(`  ${line}\n`);
 * ```
 */
export async function mcpJsonServersLine(
  dir: string,
  options: { selection?: LoadedSettings['mcpjsonServers'] } = {},
): Promise<string | undefined> {
  const file = path.join(dir, '.mcp.json');
  if (!existsSync(file)) return undefined;
  let servers: Record<string, unknown>;
  try {
    servers = (await readMcpConfigFile(file, dir, { label: '.mcp.json', inProject: true }))['mcpServers'] as Record<
      string,
      unknown
    >;
  } catch (e) {
    return `.mcp.json: cannot be read (${escapeUnprintable((e as Error).message)}); its servers would not start until it is fixed`;
  }
  if (Object.keys(servers).length === 0) return undefined;
  const { kept, left } = options.selection
    ? selectMcpjsonServers(servers, options.selection)
    : { kept: servers, left: [] };
  const entries = Object.entries(kept);
  const parts = entries.map(([name, value]) => `${quoted(name)} ${whatItStarts(value)}`);
  const count = entries.length === 1 ? '1 server starts' : `${entries.length} servers start`;
  const notStarted = left.length
    ? `${entries.length ? '; ' : ''}not started, as the settings say: ${left.map((l) => `${quoted(l.name)} (${l.why})`).join(', ')}`
    : '';
  return `.mcp.json: ${entries.length ? `${count} at each command: ${parts.join('; ')}` : 'no server starts'}${notStarted}`;
}

function whatItStarts(value: unknown): string {
  const server = (value ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
  if (typeof server.command === 'string') {
    const args = Array.isArray(server.args) ? server.args.map((a) => quoted(String(a))) : [];
    return `runs ${[quoted(server.command), ...args].join(' ')}`;
  }
  if (typeof server.url === 'string') return `connects to ${escapeUnprintable(server.url)}`;
  return `(${escapeUnprintable(JSON.stringify(value) ?? 'nothing')})`;
}
