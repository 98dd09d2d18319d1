import { quoted } from './_printable.ts';

/** What {@linkcode withoutClaudeOnlyMcp} kept, and what it says it left out. */
export interface ClaudeOnlyMcpResult {
  /** The configuration without Claude Code's features Toolshed lacks. */
  config: Record<string, unknown>;
  /** One warning per server changed or left out, naming the key and what Toolshed does instead. */
  notices: string[];
}

/** Server types of Claude Code's `.mcp.json` that Toolshed has no transport for. */
const CLAUDE_ONLY_TYPES: Readonly<Record<string, string>> = {
  ws: 'a WebSocket server, a transport Toolshed does not have',
  sdk: "a server inside the Claude Agent SDK's own process",
};

/**
 * Takes out of an MCP configuration what only Claude Code runs, with a warning for each, so that
 * a Claude Code project's `.mcp.json` loads instead of stopping the command: `headersHelper` (a
 * command Claude Code runs for the request headers; here the server gets its `headers` only),
 * and servers of `"type": "ws"` or `"sdk"` (not started). Anything else is left for the bridge to
 * check.
 *
 * @param config The parsed configuration (`{ mcpServers: {...} }`); not changed.
 * @param file The file it came from, named in the warnings.
 * @returns The configuration to use and the warnings.
 *
 * @example
 * ```ts
 * import { withoutClaudeOnlyMcp } from './_mcp_claude_only.ts';
 *
 * const { notices } = withoutClaudeOnlyMcp({ mcpServers: { ws: { type: 'ws', url: 'ws://127.0.0.1:1' } } }, '.mcp.json');
 * notices[0]; // '.mcp.json: server "ws" is "type": "ws", a WebSocket server, … not started.'
 * ```
 */
export function withoutClaudeOnlyMcp(config: Record<string, unknown>, file: string): ClaudeOnlyMcpResult {
  const servers = config['mcpServers'];
  if (!isObject(servers)) return { config, notices: [] };
  const notices: string[] = [];
  const kept: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    if (!isObject(server)) {
      kept[name] = server;
      continue;
    }
    const type = server['type'];
    if (typeof type === 'string' && Object.hasOwn(CLAUDE_ONLY_TYPES, type)) {
      notices.push(
        `${file}: server ${quoted(name)} is "type": "${type}", ${CLAUDE_ONLY_TYPES[type]}; not started (Toolshed runs "stdio", "http" and "sse" servers).`,
      );
      continue;
    }
    if (server['headersHelper'] !== undefined) {
      const { headersHelper: _, ...rest } = server;
      notices.push(
        `${file}: server ${quoted(name)} has "headersHelper", a command Claude Code runs for its request headers; Toolshed does not run it, so the server gets only its "headers" (put a token there as "\${VAR}").`,
      );
      kept[name] = rest;
      continue;
    }
    kept[name] = server;
  }
  return { config: { ...config, mcpServers: kept }, notices };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
