import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode mcpServers}; none yet. */
export type McpServersOptions = Record<string, unknown>;

/**
 * The `mcp` family: MCP servers as tools, and sessions served over MCP. Not yet implemented — the family is empty.
 *
 * @param config Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [mcpServers()] });
 * ```
 */
export function mcpServers(_config: McpServersOptions = {}): Family {
  return defineFamily({ name: 'mcp', version, tools: [] });
}
