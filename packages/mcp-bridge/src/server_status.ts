/**
 * Where a server connection stands: `pending` before the first attempt, `connected`, `failed`
 * (the last attempt failed; the next call retries after a backoff), `disconnected` (it was
 * connected and went away; the next call reconnects), `closed` (the session ended).
 */
export type McpConnectionState = 'pending' | 'connected' | 'failed' | 'disconnected' | 'closed';

/**
 * Where one configured server stands: what `toolshed mcp list` prints (see `listMcpServers`).
 * `denied` is a server that a deny rule removes whole (`mcp__server`), so it was not started.
 */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  state: McpConnectionState | 'denied';
  /** Why it is not connected, when it failed or went away. */
  error?: string;
  /** The deny rule that kept a `denied` server from starting, and where it comes from (a settings file, `cli`, `options`). */
  deniedBy?: { rule: string; source: string };
  /** How many tools it lists. */
  tools: number;
  resources: boolean;
  /** What the server says about how to use it (`instructions` of its `initialize` answer). */
  instructions?: string;
}
