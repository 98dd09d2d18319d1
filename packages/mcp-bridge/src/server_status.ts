/**
 * Where a server connection stands: `pending` before the first attempt, `connected`, `failed`
 * (the last attempt failed; the next call retries after a backoff), `disconnected` (it was
 * connected and went away; the next call reconnects), `closed` (the session ended).
 */
export type McpConnectionState = 'pending' | 'connected' | 'failed' | 'disconnected' | 'closed';

/** Where one configured server stands: what `toolshed mcp list` prints (see `listMcpServers`). */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  state: McpConnectionState;
  /** Why it is not connected, when it is not. */
  error?: string;
  /** How many tools it lists. */
  tools: number;
  resources: boolean;
}

