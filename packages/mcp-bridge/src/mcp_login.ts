import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { parseMcpConfig, type McpConfig } from './config.ts';
import { McpConnection } from './_server_connection.ts';
import { credentialsKey } from './oauth_provider.ts';
import { fileTokenStore, type McpTokenStore } from './oauth_store.ts';
import { defaultTokenFile } from './family.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode loginMcpServer}. */
export interface LoginMcpServerOptions {
  /** Told where the user signs in: the CLI prints it (and may open a browser). */
  onAuthorizationUrl: (url: URL) => void;
  /** Where the credentials are kept. @default fileTokenStore(`<homeDir>/.toolshed/mcp-oauth.json`) */
  store?: McpTokenStore;
  /** The user's home, holding `.toolshed/`. @default os.homedir() */
  homeDir?: string;
  /** What `${VAR}` in the configuration expands from. @default process.env */
  env?: Record<string, string | undefined>;
  /** How long to wait for the browser to come back. @default 300000 (5 minutes) */
  timeoutMs?: number;
  /** Where stdio servers would start (not used for sign-in). @default process.cwd() */
  cwd?: string;
}

/** What {@linkcode loginMcpServer} reports. */
export interface LoginMcpServerResult {
  server: string;
  /** The server's tools, once signed in. */
  tools: number;
  /** False when the server let us in without a sign-in (it needs none, or takes `headers`). */
  signedIn: boolean;
}

/**
 * Signs in to one remote MCP server with OAuth, as `toolshed mcp login <server>` does: a
 * loopback redirect on 127.0.0.1 (the server's `oauth.callbackPort`, or any free port) waits for
 * the browser, the SDK's flow (discovery, registration, PKCE) gets the tokens, and the store
 * keeps them for later sessions. Earlier tokens of the server are forgotten first, so this also
 * signs in again as another user or with a wider scope.
 *
 * @param name The server's name in the configuration.
 * @param config The `.mcp.json`-shaped configuration.
 * @param options Where the sign-in URL goes, the store, the timeout.
 * @returns The server and its tool count.
 * @throws {TypeError} When the server is not in the configuration or is not a remote server.
 * @throws {Error} When the sign-in fails or times out, saying why.
 *
 * @example
 * ```ts
 * import { loginMcpServer, type McpConfig } from '@toolshed/mcp-bridge';
 * declare const config: McpConfig;
 *
 * await loginMcpServer('github', config, { onAuthorizationUrl: (url) => console.log(`Open ${url}`) });
 * ```
 */
export async function loginMcpServer(
  name: string,
  config: McpConfig,
  options: LoginMcpServerOptions,
): Promise<LoginMcpServerResult> {
  const servers = parseMcpConfig(config, options.env ? { env: options.env } : {});
  const server = servers[name];
  if (!server) {
    const names = Object.keys(servers);
    throw new TypeError(
      `There is no MCP server "${name}" in the configuration${names.length ? `; its servers are ${names.map((n) => `"${n}"`).join(', ')}` : ''}.`,
    );
  }
  if (!('url' in server))
    throw new TypeError(
      `MCP server "${name}" is a stdio server (a local process): sign-in is for remote servers ("type": "http" or "sse").`,
    );
  const store = options.store ?? fileTokenStore(defaultTokenFile(options.homeDir));
  const key = credentialsKey(name, server.url);
  const stored = await store.load(key);
  if (stored) {
    delete stored.tokens;
    await store.save(key, stored);
  }

  const timeoutMs = options.timeoutMs ?? 300_000;
  let arrived: (url: URL) => void = () => {};
  const callback = new Promise<URL>((resolve) => (arrived = resolve));
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.\n');
      return;
    }
    const failed = url.searchParams.get('error');
    res
      .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      .end(
        failed
          ? `Sign-in to ${name} failed (${failed}). You can close this tab.\n`
          : `Signed in to ${name}. You can close this tab and go back to the terminal.\n`,
      );
    arrived(new URL(req.url ?? '/', `http://127.0.0.1:${(http.address() as AddressInfo).port}`));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', (e) =>
      reject(
        new Error(
          `The sign-in redirect could not listen on 127.0.0.1:${server.oauth?.callbackPort ?? 0} (${(e as Error).message}); free the port or change "oauth.callbackPort" of server "${name}".`,
        ),
      ),
    );
    http.listen(server.oauth?.callbackPort ?? 0, '127.0.0.1', () => resolve());
  });
  const redirectUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/callback`;
  let timer: NodeJS.Timeout | undefined;
  let signedIn = false;
  const connection = new McpConnection(name, server, {
    cwd: options.cwd ?? process.cwd(),
    // The handshake around the sign-in gets its own margin, so the sign-in timeout is the one reported.
    startTimeoutMs: timeoutMs + 30_000,
    toolTimeoutMs: 60_000,
    reconnectDelayMs: 1_000,
    maxReconnectDelayMs: 30_000,
    clientInfo: { name: 'toolshed', version },
    onToolsChanged: () => {},
    oauth: {
      store,
      redirectUrl,
      authorize: async ({ authorizationUrl }) => {
        signedIn = true;
        options.onAuthorizationUrl(authorizationUrl);
        return await Promise.race([
          callback,
          new Promise<never>(
            (_, reject) =>
              (timer = setTimeout(
                () =>
                  reject(new Error(`nobody came back from the sign-in page within ${Math.round(timeoutMs / 1000)} s`)),
                timeoutMs,
              )),
          ),
        ]);
      },
    },
  });
  try {
    await connection.connect();
    if (connection.state !== 'connected')
      throw new Error(`Signing in to MCP server "${name}" failed: ${connection.error ?? 'unknown reason'}.`);
    return { server: name, tools: connection.tools.length, signedIn };
  } finally {
    clearTimeout(timer);
    await connection.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}
