import type { LoadedSettings } from '@toolshed/core';

/** A server of `.mcp.json` the settings leave out, and which key says so. */
export interface LeftOutServer {
  name: string;
  /** `in disabledMcpjsonServers` or `not in enabledMcpjsonServers`. */
  why: string;
}

/**
 * Which servers of a trusted project's `.mcp.json` start, as Claude Code decides it: every one
 * but those in `disabledMcpjsonServers`; when `enabledMcpjsonServers` is set (and
 * `enableAllProjectMcpServers` is not true), only those. Every command that starts them uses it,
 * `mcp list` included.
 *
 * @param servers The `mcpServers` of `.mcp.json`, by name.
 * @param selection The settings' `mcpjsonServers`.
 * @returns The servers to start, and the ones left out with why.
 *
 * @example
 * ```ts
 * import { selectMcpjsonServers } from './_mcpjson_selection.ts';
 *
 * selectMcpjsonServers({ a: {}, b: {} }, { enabled: [], disabled: ['b'] });
 * // { kept: { a: {} }, left: [{ name: 'b', why: 'in disabledMcpjsonServers' }] }
 * ```
 */
export function selectMcpjsonServers(
  servers: Record<string, unknown>,
  selection: LoadedSettings['mcpjsonServers'],
): { kept: Record<string, unknown>; left: LeftOutServer[] } {
  const onlyEnabled = selection.enableAll !== true && selection.enabled.length > 0;
  const kept: Record<string, unknown> = {};
  const left: LeftOutServer[] = [];
  for (const [name, server] of Object.entries(servers)) {
    if (selection.disabled.includes(name)) left.push({ name, why: 'in disabledMcpjsonServers' });
    else if (onlyEnabled && !selection.enabled.includes(name)) left.push({ name, why: 'not in enabledMcpjsonServers' });
    else kept[name] = server;
  }
  return { kept, left };
}
