import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import type { CatalogEntry, ContentBlock, Session, SessionEvent, ToolResultBlock } from '@toolshed/core';
import { quotedRules, toolInputJsonSchema } from '@toolshed/core/internal';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { checkHttpRequest, generateToken, LOOPBACK_HOSTS } from './_http_guard.ts';
import { registerServeFeatures, SERVE_FEATURE_CAPABILITIES, type ServeFeatureOptions } from './_serve_features.ts';
import type { McpPermissionAsker, McpPermissionPrompt } from './mcp_permission_prompt.ts';
import { servedClientChannels, type ServedClientChannels } from './serve_client_channels.ts';

/**
 * Makes the Toolshed session of one MCP client session: over HTTP each client gets its own
 * (cwd, file-state cache, tasks, metrics), closed when its MCP session ends. The client's
 * `askUser` (elicitation) and `modelClient` (sampling) may be put in its services, so that its
 * tools ask the client's user and model:
 *
 * @example
 * ```ts
 * import { askUserKey, createSession, modelClientKey, type Family } from '@toolshed/core';
 * import type { ServeSessionFactory } from '@toolshed/mcp-bridge';
 * declare const cwd: string;
 * declare const families: Family[];
 *
 * const factory: ServeSessionFactory = (client) =>
 *   createSession({ cwd, families, services: [[askUserKey, client.askUser], [modelClientKey, client.modelClient]] });
 * ```
 */
export type ServeSessionFactory = (
  client: { mcpSessionId: string | undefined } & ServedClientChannels,
) => Promise<Session>;

/**
 * Who answers a permission ask of a call that came in over MCP: `deny` — nobody, the call is
 * denied with the rule that would allow it; `elicit` — the client's user decides (an
 * elicitation request to the client that made the call); a function — the serving user
 * decides (the CLI's `--approve tty` asks at its terminal).
 */
export type ServeApprove = 'deny' | 'elicit' | McpPermissionAsker;

/**
 * Options shared by both transports of {@linkcode serveSession}. Besides tools, a client gets
 * logging (the session's notices as log notifications, filtered by `logging/setLevel`),
 * `resources` (by default the session's saved results; add `workingFiles(session)` for files),
 * `prompts` and completion of prompt arguments and resource-template variables.
 */
export interface ServeSessionCommonOptions extends ServeFeatureOptions {
  /** Routes permission asks of each call to {@linkcode ServeSessionCommonOptions.approve}; see `createMcpPermissionPrompt`. */
  permissionPrompt?: McpPermissionPrompt;
  /**
   * Who may approve an ask (with `permissionPrompt`). A client must not approve its own calls
   * unless the serving user chose so: `elicit` means "the client's user decides".
   * @default 'deny'
   */
  approve?: ServeApprove;
  /** Which tools to serve. @default every tool of the session */
  filter?: (entry: CatalogEntry) => boolean;
  /** The server's name in the MCP handshake. @default 'toolshed' */
  name?: string;
  /** The server's version in the MCP handshake. @default '0.0.0' */
  version?: string;
  /** How to use the served tools, sent as `instructions` in the `initialize` answer. */
  instructions?: string;
}

/** Serve over the process's stdin and stdout (or the streams given). */
export interface ServeSessionStdioOptions extends ServeSessionCommonOptions {
  transport: 'stdio';
  /** @default process.stdin */
  stdin?: Readable;
  /** @default process.stdout */
  stdout?: Writable;
}

/** Serve over Streamable HTTP. */
export interface ServeSessionHttpOptions extends ServeSessionCommonOptions {
  http: {
    /** 0 picks a free port. */
    port: number;
    /** @default '127.0.0.1' */
    host?: string;
    /**
     * The bearer token every request must carry (`Authorization: Bearer <token>`); at least 16
     * characters. When neither this nor `noAuth` is given, one is generated
     * ({@linkcode ServedSession.token}).
     */
    token?: string;
    /**
     * Serve without a token, for clients that cannot send a header. Loopback hosts only; Host and
     * Origin are still checked.
     * @default false
     */
    noAuth?: boolean;
    /** Browser origins allowed besides the loopback ones (`http://localhost:6274` is loopback already). @default [] */
    allowedOrigins?: string[];
    /** @default '/mcp' */
    path?: string;
    /**
     * How long a client session may go without a request before it is closed, in milliseconds.
     * The SDK client does not end its session when it goes away, so without this each client
     * that disconnected would keep its MCP server object in memory for as long as the process
     * runs. A request still in progress (a call, an open notification stream) keeps its session;
     * a client that comes back with an expired session id gets 404 "Session not found" and
     * initializes again. `Infinity` keeps sessions until the client ends them with DELETE.
     * @default 600000 (10 minutes)
     */
    idleTimeoutMs?: number;
  };
}

/** What {@linkcode serveSession} takes. */
export type ServeSessionOptions = ServeSessionStdioOptions | ServeSessionHttpOptions;

/** A session being served. */
export interface ServedSession {
  /** The endpoint, for HTTP: `http://127.0.0.1:PORT/mcp`. */
  readonly url: string | undefined;
  /** The bearer token HTTP clients must send; undefined over stdio and with `noAuth`. */
  readonly token: string | undefined;
  /** Resolves when the server stops: stdin ended (stdio) or {@linkcode ServedSession.close} was called. */
  readonly closed: Promise<void>;
  /**
   * How many MCP client sessions are open now: over HTTP, those initialized (or being initialized)
   * and not yet ended by DELETE, the idle timeout or {@linkcode ServedSession.close}; over stdio,
   * 1 until it closes.
   */
  sessionCount(): number;
  /** Stops serving and closes every client session (the session itself stays open: its owner closes it). */
  close(): Promise<void>;
}

/**
 * Serves a session's tools to MCP clients, over stdio or Streamable HTTP. Tools are listed with
 * their JSON Schema and annotations from their flags (`readOnlyHint`, `destructiveHint`), and
 * every call runs through the session's pipeline — parsing, hooks, permissions, result budget —
 * as a model's call would. Progress events become progress notifications, and a client's
 * cancellation aborts the call.
 *
 * Who approves a permission ask is the serving user's choice (`approve`, with the session made
 * with a {@linkcode McpPermissionPrompt}'s `canUseTool`): by default nobody, and the call is
 * denied with the rule that would allow it; `elicit` sends the ask to the calling client as an
 * elicitation request (the client's user decides); a function decides itself.
 *
 * Over HTTP: the server binds 127.0.0.1 unless told otherwise; every request must carry the
 * bearer token (`http.token`, or the generated {@linkcode ServedSession.token}) unless
 * `http.noAuth` (loopback only); a `Host` that is not the loopback address and a browser
 * `Origin` that is not a loopback one are refused with 403, a missing or wrong token with 401.
 * Each client gets its own MCP session and — when `session` is a factory — its own Toolshed
 * session (cwd, file-state cache, tasks, metrics), closed when the MCP session ends (DELETE,
 * `http.idleTimeoutMs` of silence, or {@linkcode ServedSession.close}). A single `Session`
 * given instead is shared by every client and closed by its owner.
 *
 * @param session The session to serve, or a factory making one per client session.
 * @param options `{ transport: 'stdio' }` or `{ http: { port, host, token, noAuth, idleTimeoutMs } }`, the permission prompt and `approve`.
 * @returns The running server.
 * @throws {TypeError} When the options name neither transport, `http.idleTimeoutMs` is not a
 *   positive number, the token is shorter than 16 characters, or `noAuth` is asked for on a
 *   host that is not a loopback address.
 * @throws {Error} When the HTTP port cannot be listened on (the message names host and port).
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createMcpPermissionPrompt, serveSession } from '@toolshed/mcp-bridge';
 * import { fileTools } from '@toolshed/tool-fs';
 *
 * const prompt = createMcpPermissionPrompt();
 * const served = await serveSession(
 *   () => createSession({ cwd: process.cwd(), families: [fileTools()], canUseTool: prompt.canUseTool }),
 *   { http: { port: 8931 }, permissionPrompt: prompt, approve: 'deny' },
 * );
 * console.log(`MCP endpoint: ${served.url}, token: ${served.token}`);
 * ```
 */
export async function serveSession(
  session: Session | ServeSessionFactory,
  options: ServeSessionOptions,
): Promise<ServedSession> {
  if ('http' in options && options.http) return await serveHttp(sessionSource(session), options);
  if ((options as ServeSessionStdioOptions).transport === 'stdio')
    return await serveStdio(sessionSource(session), options as ServeSessionStdioOptions);
  throw new TypeError(
    `serveSession needs { transport: 'stdio' } or { http: { port } }, got ${JSON.stringify(options)}`,
  );
}

/** Where the sessions come from: one given (shared, its owner closes it) or a factory (one per client, closed here). */
interface SessionSource {
  /** A lazily made session for one client, and how to let it go. */
  open(
    mcpSessionId: () => string | undefined,
    channels: ServedClientChannels,
  ): { get: () => Promise<Session>; release: () => Promise<void> };
}

function sessionSource(session: Session | ServeSessionFactory): SessionSource {
  if (typeof session !== 'function')
    return { open: () => ({ get: () => Promise.resolve(session), release: () => Promise.resolve() }) };
  return {
    open(mcpSessionId, channels) {
      let made: Promise<Session> | undefined;
      let released = false;
      return {
        get: () => {
          if (released) return Promise.reject(new Error('This MCP session has ended; initialize a new one.'));
          made ??= session({ mcpSessionId: mcpSessionId(), ...channels });
          return made;
        },
        release: async () => {
          released = true;
          const pending = made;
          made = undefined;
          if (pending)
            await pending.then(
              (s) => s.close(),
              () => {},
            );
        },
      };
    },
  };
}

async function serveStdio(source: SessionSource, options: ServeSessionStdioOptions): Promise<ServedSession> {
  let server!: Server;
  const client = source.open(
    () => undefined,
    servedClientChannels(() => server),
  );
  server = createMcpServer(client.get, options);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const stopFeatures = server.onclose;
  server.onclose = () => {
    stopFeatures?.();
    void client.release().finally(resolveClosed);
  };
  // The client going away ends stdin; the SDK's transport does not notice that by itself.
  stdin.once('end', () => void server.close());
  await server.connect(transport);
  let open = true;
  void closed.then(() => (open = false));
  return {
    url: undefined,
    token: undefined,
    closed,
    sessionCount: () => (open ? 1 : 0),
    async close() {
      await server.close();
      await closed;
    },
  };
}

/** One MCP client's session over HTTP. */
interface HttpClientSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Closes the client's Toolshed session (when it has one of its own). */
  release: () => Promise<void>;
  /** When its last request ended (or began, while none is in progress). */
  lastSeen: number;
  /** Requests of this session still being answered (an open SSE stream counts). */
  inFlight: number;
}

const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

async function serveHttp(source: SessionSource, options: ServeSessionHttpOptions): Promise<ServedSession> {
  const { host, token, allowedOrigins, endpoint, idleTimeoutMs } = httpSettings(options);
  // One transport and one MCP server per client session, all over the one Toolshed session.
  const sessions = new Map<string, HttpClientSession>();
  // Servers made for an initialize request that has not produced a session (yet): counted so
  // that close() ends them too.
  const starting = new Set<Server>();
  let port = options.http.port;

  const endSession = (id: string, entry: HttpClientSession) => {
    if (sessions.get(id) === entry) sessions.delete(id);
    return entry.server
      .close()
      .catch(() => {})
      .then(entry.release);
  };

  const track = (entry: HttpClientSession, res: ServerResponse) => {
    entry.inFlight++;
    entry.lastSeen = Date.now();
    res.once('close', () => {
      entry.inFlight--;
      entry.lastSeen = Date.now();
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = checkHttpRequest(req, { host, port, token, allowedOrigins });
    if (refused) return jsonError(res, refused.status, -32000, refused.message, refused.headers);
    const url = new URL(req.url ?? '/', `http://${host.includes(':') ? `[${host}]` : host}`);
    if (url.pathname !== endpoint) return jsonError(res, 404, -32000, `Not found: the MCP endpoint is ${endpoint}`);
    const sessionId = req.headers['mcp-session-id'];
    const entry = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (entry) {
      track(entry, res);
      return await entry.transport.handleRequest(req, res);
    }
    if (typeof sessionId === 'string') {
      // The SDK's own answer for an unknown session (404, -32001), which tells a client to initialize again.
      return jsonError(
        res,
        404,
        -32001,
        `Session not found: MCP session "${sessionId}" has ended (it was idle, was deleted, or the server restarted); send initialize again without an Mcp-Session-Id header`,
      );
    }
    if (req.method !== 'POST')
      return jsonError(
        res,
        400,
        -32000,
        'No MCP session: send an initialize request first (POST without an Mcp-Session-Id header)',
      );
    await startClientSession(req, res, { source, options, host, port, sessions, starting, track });
  };

  const sweep = () => {
    const now = Date.now();
    for (const [id, entry] of sessions) {
      if (entry.inFlight === 0 && now - entry.lastSeen >= idleTimeoutMs) void endSession(id, entry);
    }
  };
  // Checked a few times per timeout, so a session is closed at most ~1.25 timeouts after its last request.
  const sweeper = Number.isFinite(idleTimeoutMs)
    ? setInterval(sweep, Math.max(10, Math.min(idleTimeoutMs / 4, 60_000)))
    : undefined;
  sweeper?.unref();

  const httpServer: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) jsonError(res, 500, -32603, `Internal error: ${(e as Error).message}`);
      else res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', (e) =>
        reject(new Error(`Could not serve MCP on ${host}:${options.http.port}: ${(e as Error).message}`, { cause: e })),
      );
      httpServer.listen(options.http.port, host, () => resolve());
    });
  } catch (e) {
    if (sweeper) clearInterval(sweeper);
    throw e;
  }
  port = (httpServer.address() as { port: number }).port;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${endpoint}`,
    token,
    closed,
    sessionCount: () => sessions.size + starting.size,
    close() {
      closing ??= (async () => {
        if (sweeper) clearInterval(sweeper);
        await Promise.all([
          ...[...sessions].map(([id, entry]) => endSession(id, entry)),
          ...[...starting].map((s) => s.close().catch(() => {})),
        ]);
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        resolveClosed();
      })();
      return closing;
    },
  };
}

const LOOPBACK = LOOPBACK_HOSTS;

/** The `http` options checked, with their defaults. */
function httpSettings(options: ServeSessionHttpOptions): {
  host: string;
  token: string | undefined;
  allowedOrigins: readonly string[];
  endpoint: string;
  idleTimeoutMs: number;
} {
  const host = options.http.host ?? '127.0.0.1';
  if (options.http.noAuth === true && options.http.token !== undefined) {
    throw new TypeError(
      'serveSession: http.noAuth and http.token exclude each other; give a token, or noAuth for clients that cannot send one',
    );
  }
  if (options.http.noAuth === true && !LOOPBACK_HOSTS.has(host)) {
    throw new TypeError(
      `serveSession: http.noAuth serves on loopback addresses only (127.0.0.1, localhost, ::1), got host ${JSON.stringify(host)}; give a token to serve on another address`,
    );
  }
  if (
    options.http.token !== undefined &&
    (typeof options.http.token !== 'string' || options.http.token.trim().length < 16)
  ) {
    throw new TypeError(
      'serveSession: http.token must be a string of at least 16 characters (a random one is generated when none is given)',
    );
  }
  const token = options.http.noAuth === true ? undefined : (options.http.token?.trim() ?? generateToken());
  const allowedOrigins = options.http.allowedOrigins ?? [];
  const endpoint = options.http.path ?? '/mcp';
  const idleTimeoutMs = options.http.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (typeof idleTimeoutMs !== 'number' || Number.isNaN(idleTimeoutMs) || idleTimeoutMs <= 0) {
    throw new TypeError(
      `serveSession: http.idleTimeoutMs must be a positive number of milliseconds (or Infinity to never close idle sessions), got ${JSON.stringify(idleTimeoutMs)}`,
    );
  }
  return { host, token, allowedOrigins, endpoint, idleTimeoutMs };
}

/**
 * A client's first request (an initialize, without an `Mcp-Session-Id`): a transport and an MCP
 * server of its own over a Toolshed session from `source`, kept in `sessions` once the SDK gives
 * it a session id, and ended at once when the request made none.
 */
async function startClientSession(
  req: IncomingMessage,
  res: ServerResponse,
  {
    source,
    options,
    host,
    port,
    sessions,
    starting,
    track,
  }: {
    source: SessionSource;
    options: ServeSessionHttpOptions;
    host: string;
    port: number;
    sessions: Map<string, HttpClientSession>;
    starting: Set<Server>;
    track: (entry: HttpClientSession, res: ServerResponse) => void;
  },
): Promise<void> {
  let created: StreamableHTTPServerTransport | undefined;
  let server!: Server;
  const client = source.open(
    () => created?.sessionId,
    servedClientChannels(() => server),
  );
  server = createMcpServer(client.get, options);
  created = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      const fresh: HttpClientSession = {
        transport: created!,
        server,
        release: client.release,
        lastSeen: Date.now(),
        inFlight: 0,
      };
      sessions.set(id, fresh);
      starting.delete(server);
      track(fresh, res);
    },
    // On a loopback address, a web page must not reach the tools through DNS rebinding.
    ...(LOOPBACK.has(host) ? { enableDnsRebindingProtection: true, allowedHosts: loopbackHosts(port) } : {}),
  });
  const transport = created;
  transport.onclose = () => {
    starting.delete(server);
    const id = transport.sessionId;
    const known = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && known?.transport === transport) sessions.delete(id);
    // A DELETE from the client, the idle sweep or close(): its Toolshed session ends with it.
    void client.release();
  };
  starting.add(server);
  await server.connect(transport);
  try {
    await transport.handleRequest(req, res);
  } finally {
    // A first request that was refused (not an initialize, a bad Host, bad JSON) made no
    // session: its server must not stay behind.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
      starting.delete(server);
      await server.close().catch(() => {});
      await client.release();
    }
  }
}

function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

function jsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The MCP server for one client: tools/list from the catalog, tools/call through the session. */
function createMcpServer(getSession: () => Promise<Session>, options: ServeSessionCommonOptions): Server {
  const server = new Server(
    { name: options.name ?? 'toolshed', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: true }, ...SERVE_FEATURE_CAPABILITIES },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );
  const features = registerServeFeatures(server, getSession, options);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    features.close();
    previousOnClose?.();
  };
  // The pool can change under a call (ToolSearch loads a tool, an MCP server of the session
  // changes its list): after each call the names are compared with what this client was sent.
  let listed: string | undefined;
  const signature = (session: Session) => JSON.stringify(listTools(session, options.filter).map((t) => t.name));
  const approve = options.approve ?? 'deny';

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const session = await getSession();
    const tools = listTools(session, options.filter);
    listed = JSON.stringify(tools.map((t) => t.name));
    await features.flushNotices(session, extra.sessionId);
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const session = await getSession();
    const { name, arguments: args } = request.params;
    if (options.filter) {
      const entry = session.catalog().find((e) => e.name === name);
      if (entry && !options.filter(entry))
        return { isError: true, content: [{ type: 'text', text: `No such tool available: ${name}` }] };
    }
    const id = `mcp_${randomUUID()}`;
    const asker: McpPermissionAsker = async (toolName, input, askOptions) => {
      // The suggestions are added together (each covers a part of the call); with none, no rule
      // would allow this call alone, and a bare tool name would allow far more than it.
      const rules = quotedRules(askOptions.suggestions);
      const howToAllow = rules
        ? `To allow such calls, add ${rules} to permissions.allow of the served session (toolshed mcp serve --allow RULE).`
        : 'No rule would allow this call alone: a person must approve it.';
      if (typeof approve === 'function') return approve(toolName, input, askOptions);
      if (approve !== 'elicit') {
        return {
          behavior: 'deny',
          message: `it needs approval (${askOptions.reason}), and this server lets no one approve calls (approve: deny, the default; an MCP client may not approve its own calls). ${howToAllow} Or start the server with --approve elicit to let the client's user decide, or --approve tty to decide at the server's terminal.`,
        };
      }
      if (!server.getClientCapabilities()?.elicitation) {
        return {
          behavior: 'deny',
          message: `it needs approval (${askOptions.reason}) and the MCP client cannot be asked (it does not support elicitation). ${howToAllow}`,
        };
      }
      try {
        const answer = await server.elicitInput(
          {
            message: `Allow ${toolName}? ${askOptions.reason}\nInput: ${truncate(JSON.stringify(input), 1000)}`,
            requestedSchema: {
              type: 'object',
              properties: {
                allow: { type: 'boolean', title: `Allow ${toolName}`, description: 'Run this call', default: false },
              },
              required: ['allow'],
            },
          },
          { relatedRequestId: extra.requestId, signal: askOptions.signal },
        );
        if (answer.action === 'accept' && answer.content?.allow === true) return { behavior: 'allow' };
        return {
          behavior: 'deny',
          message: `the MCP client's user ${answer.action === 'cancel' ? 'dismissed the prompt' : 'declined'}. ${howToAllow}`,
        };
      } catch (e) {
        return {
          behavior: 'deny',
          message: `the MCP client could not be asked (${(e as Error).message}). ${howToAllow}`,
        };
      }
    };
    const unregister = options.permissionPrompt?.register(id, asker);
    const progressToken = request.params._meta?.progressToken;
    let lastProgress = 0;
    let result: ToolResultBlock | undefined;
    try {
      const block = { type: 'tool_use' as const, id, name, input: args ?? {} };
      for await (const event of session.stream([block], { signal: extra.signal })) {
        if (event.type === 'progress' && progressToken !== undefined) {
          lastProgress = nextProgress(event, lastProgress);
          const total = event.progress.total;
          await extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress: lastProgress,
                ...(typeof total === 'number' ? { total } : {}),
                ...(event.progress.message ? { message: event.progress.message } : {}),
              },
            })
            .catch(() => {});
        } else if (event.type === 'result') {
          result = event.result;
        } else if (event.type === 'notice') {
          // On the call's own stream, so a client sees the call's log before its result.
          await features.flushNotices(session, extra.sessionId, (n) => extra.sendNotification(n));
        }
      }
    } finally {
      unregister?.();
    }
    await features.flushNotices(session, extra.sessionId);
    if (listed !== undefined && signature(session) !== listed) {
      listed = undefined; // one notification until the client lists again
      await server.sendToolListChanged().catch(() => {});
    }
    if (!result) return { isError: true, content: [{ type: 'text', text: `${name} produced no result.` }] };
    const out: CallToolResult = { content: toMcpContent(result.content) };
    if (result.is_error) out.isError = true;
    return out;
  });
  return server;
}

function listTools(session: Session, filter: ServeSessionCommonOptions['filter']): McpTool[] {
  const definitions = new Map(session.toolsFor('anthropic').map((d) => [d.name, d]));
  return session
    .catalog()
    .filter((e) => !filter || filter(e))
    .map((entry) => {
      const definition = definitions.get(entry.name);
      const tool = entry.tool;
      let inputSchema: McpTool['inputSchema'] = { type: 'object' };
      if (definition) inputSchema = definition.input_schema as McpTool['inputSchema'];
      else if (tool) {
        try {
          inputSchema = toolInputJsonSchema(tool) as McpTool['inputSchema'];
        } catch {
          // A schema that cannot be expressed is checked by the pipeline at call time anyway.
        }
      }
      const listed: McpTool = {
        name: entry.name,
        description: definition?.description ?? entry.description,
        inputSchema,
      };
      if (tool) {
        // Flags may depend on the input; with none given, each says what it says of an empty call.
        listed.annotations = {
          readOnlyHint: flag(() => tool.isReadOnly({})),
          destructiveHint: flag(() => tool.isDestructive({})),
        };
        const title = flagText(() => tool.userFacingName());
        if (title && title !== entry.name) listed.title = title;
      }
      return listed;
    });
}

function flag(read: () => unknown): boolean {
  try {
    return read() === true;
  } catch {
    return false;
  }
}

function flagText(read: () => string): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function nextProgress(event: Extract<SessionEvent, { type: 'progress' }>, last: number): number {
  const reported = event.progress.progress;
  // MCP requires progress to increase with every notification.
  return typeof reported === 'number' && reported > last ? reported : last + 1;
}

function toMcpContent(content: ToolResultBlock['content']): CallToolResult['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((block: ContentBlock, i) => {
    if (block.type === 'text') return { type: 'text' as const, text: block.text };
    if (block.type === 'image')
      return { type: 'image' as const, data: block.source.data, mimeType: block.source.media_type };
    // A document is a file beside the answer: an embedded resource, named by its title when it has one.
    const uri = `toolshed://document/${i}${block.title ? `/${encodeURIComponent(block.title)}` : ''}`;
    if (block.source.type === 'text')
      return { type: 'resource' as const, resource: { uri, mimeType: 'text/plain', text: block.source.data } };
    return {
      type: 'resource' as const,
      resource: { uri, mimeType: block.source.media_type, blob: block.source.data },
    };
  });
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
