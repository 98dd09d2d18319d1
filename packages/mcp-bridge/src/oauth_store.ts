import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What the bridge keeps of one server's OAuth sign-in: the client registration, the tokens,
 * and the PKCE verifier of a sign-in under way. Shapes are the SDK's (`OAuthTokens`, …).
 */
export interface McpStoredCredentials {
  client?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  codeVerifier?: string;
  /** The redirect URI the client was registered with (a new one means a new registration). */
  redirectUrl?: string;
}

/**
 * Where OAuth credentials live between sessions, by key (the server's name and URL). The
 * default is {@linkcode fileTokenStore} in the user's settings folder; an integrator can keep
 * them in a keychain or a database instead.
 *
 * @example
 * ```ts
 * import { mcpServers, type McpConfig, type McpStoredCredentials, type McpTokenStore } from '@toolshed/mcp-bridge';
 * declare const config: McpConfig;
 * declare const db: { get(key: string): Promise<McpStoredCredentials | undefined>; put(key: string, value: McpStoredCredentials): Promise<void>; delete(key: string): Promise<void> };
 *
 * const store: McpTokenStore = { load: async (key) => db.get(key), save: async (key, value) => (value ? db.put(key, value) : db.delete(key)) };
 * mcpServers(config, { oauth: { store } });
 * ```
 */
export interface McpTokenStore {
  load(key: string): Promise<McpStoredCredentials | undefined>;
  /** Saves, or with `undefined` forgets, one server's credentials. */
  save(key: string, value: McpStoredCredentials | undefined): Promise<void>;
}

/**
 * A token store in one JSON file, readable and writable by its owner only (mode 0600, its
 * folder 0700): `~/.toolshed/mcp-oauth.json` by default. Writes go through a temporary file
 * and a rename, so a crash never leaves half a file; writes of one process are queued.
 *
 * @param file The file's path.
 * @returns The store.
 *
 * @example
 * ```ts
 * import os from 'node:os';
 * import path from 'node:path';
 * import { fileTokenStore } from '@toolshed/mcp-bridge';
 *
 * const store = fileTokenStore(path.join(os.homedir(), '.toolshed', 'mcp-oauth.json'));
 * await store.save('github https://api.example.com/mcp', { tokens: { access_token: 't', token_type: 'Bearer' } });
 * ```
 */
export function fileTokenStore(file: string): McpTokenStore {
  let queue: Promise<unknown> = Promise.resolve();
  const readAll = async (): Promise<Record<string, McpStoredCredentials>> => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw e;
    }
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Record<string, McpStoredCredentials>)
        : {};
    } catch {
      // A file that is not JSON holds nothing usable; the next sign-in writes it anew.
      return {};
    }
  };
  return {
    async load(key) {
      await queue.catch(() => {});
      return (await readAll())[key];
    },
    save(key, value) {
      const next = queue
        .catch(() => {})
        .then(async () => {
          const all = await readAll();
          if (value === undefined) delete all[key];
          else all[key] = value;
          await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
          const temp = `${file}.${process.pid}.tmp`;
          await writeFile(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
          await chmod(temp, 0o600);
          await rename(temp, file);
        });
      queue = next;
      return next;
    },
  };
}

/**
 * A token store in memory: credentials last as long as the process (tests, short-lived jobs).
 *
 * @returns The store.
 *
 * @example
 * ```ts
 * import { mcpServers, memoryTokenStore, type McpAuthorize, type McpConfig } from '@toolshed/mcp-bridge';
 * declare const config: McpConfig;
 * declare const authorize: McpAuthorize;
 *
 * mcpServers(config, { oauth: { store: memoryTokenStore(), authorize } });
 * ```
 */
export function memoryTokenStore(): McpTokenStore {
  const map = new Map<string, McpStoredCredentials>();
  return {
    load: async (key) => structuredClone(map.get(key)),
    save: async (key, value) => {
      if (value === undefined) map.delete(key);
      else map.set(key, structuredClone(value));
    },
  };
}
