import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch, MAX_MCP_MESSAGE_BYTES, messageLimitPassed } from './_message_limit.ts';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Services } from '@toolshed/core';
import { cannotAbort } from '@toolshed/core/internal';
import type { McpRemoteServerConfig, McpServerConfig } from './config.ts';
import {
  askToOpen,
  boundedNotice,
  clientCapabilities,
  installClientHandlers,
  MAX_SERVER_NOTICES,
  type McpLogLevel,
} from './_client_handlers.ts';
import { createAuthProvider, type BridgeAuthProvider, type McpOAuthOptions } from './oauth_provider.ts';
import type { McpTokenStore } from './oauth_store.ts';
import type { McpCallResult } from './map_call_result.ts';
import type { McpConnectionState } from './server_status.ts';
import { listAllTools, type McpToolInfo } from './_tool_list.ts';
import { AbortWatch } from './_request_signal.ts';

/** A resource as a server lists it. */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A prompt as a server lists it. */
export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** What a connection needs besides its config. */
export interface McpConnectionOptions {
  /** Where a stdio server starts when its config has no `cwd`. */
  cwd: string;
  startTimeoutMs: number;
  toolTimeoutMs: number;
  /** The first wait before reconnecting after a failed attempt; doubles per failure. */
  reconnectDelayMs: number;
  maxReconnectDelayMs: number;
  clientInfo: { name: string; version: string };
  /** The server's tool list changed (a notification, or a reconnection found other tools). */
  onToolsChanged: () => void;
  /** The session's services (askUser, the model client), for what servers ask of the client. */
  services?: Services | undefined;
  /** The session's working directories, offered as roots. @default [cwd] */
  roots?: () => readonly string[];
  /** Reports server log messages and questions nobody could answer. @default ignored */
  notice?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** OAuth sign-in for remote servers; the store is required (the family picks the default). */
  oauth?: McpOAuthOptions & { store: McpTokenStore };
  /** The least severe server log message reported as a notice. @default 'warning' */
  logLevel?: McpLogLevel;
  /** The hard maximum of a call that keeps reporting progress. @default 1800000 (30 minutes) */
  maxToolTimeoutMs?: number;
  /** Tells requests that their call's signal aborted; shared by a set's servers. @default one of its own */
  aborts?: AbortWatch;
  /** Stdio servers start with this process's whole environment, not the SDK's safe default. @default false */
  inheritEnv?: boolean;
}

const STDERR_LINES = 20;
/** Characters of one stderr line kept: the error messages show at most 300 of the last one. */
const STDERR_LINE_CHARS = 1000;

/**
 * One MCP server, as the bridge holds it: connects (under a start timeout), lists tools,
 * calls them with a timeout, progress and cancellation, notices when the server goes away, and
 * reconnects on the next call, waiting longer after each failed attempt.
 *
 * @example
 * ```ts
 * import { McpConnection, type McpConnectionOptions } from './_server_connection.ts';
 * declare const options: McpConnectionOptions;
 * declare const signal: AbortSignal;
 *
 * const onProgress = (p: { progress: number; total?: number | undefined }) => console.log(p.progress, p.total);
 * const c = new McpConnection('fs', { command: 'mcp-server-filesystem', args: ['.'] }, options);
 * await c.connect();
 * if (c.state === 'connected') await c.callTool('list_directory', { path: '.' }, { signal, onProgress, toolName: 'mcp__fs__list_directory' });
 * ```
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  #options: McpConnectionOptions;
  /** The notices the server causes (its logs, questions nobody answered), bounded for the connection's life. */
  #serverNotice: (level: 'info' | 'warn' | 'error', message: string) => void;
  #client: Client | undefined;
  #state: McpConnectionState = 'pending';
  #error: string | undefined;
  #tools: McpToolInfo[] = [];
  #toolProblems: string[] = [];
  #hasResources = false;
  #connecting: Promise<void> | undefined;
  #failures = 0;
  #retryAt = 0;
  #stderr: string[] = [];
  #auth: BridgeAuthProvider | undefined;
  #probing = false;
  /** Why a remote server's connection was given up, for the calls it fails. */
  #lost: string | undefined;
  /** The message limit a server's message passed on the current connection, if one did. */
  #tooLarge: number | undefined;
  #instructions: string | undefined;
  /** Resources read and subscribed to: `true` once an update was reported and not read since. */
  #watched = new Map<string, boolean>();
  #capabilities: Record<string, unknown> = {};
  /** The prompt list as last fetched, until `prompts/list_changed` or a new connection. */
  #prompts: Promise<McpPromptInfo[]> | undefined;
  #transportInUse: Transport | undefined;
  #aborts: AbortWatch;

  constructor(name: string, config: McpServerConfig, options: McpConnectionOptions) {
    this.name = name;
    this.config = config;
    this.#options = options;
    this.#aborts = options.aborts ?? new AbortWatch();
    this.#serverNotice = boundedNotice(options.notice ?? (() => {}), { server: name, max: MAX_SERVER_NOTICES });
  }

  get state(): McpConnectionState {
    return this.#state;
  }

  /** Why the server is not connected, when it is not. */
  get error(): string | undefined {
    return this.#error;
  }

  get tools(): readonly McpToolInfo[] {
    return this.#tools;
  }

  /** What was wrong with the last tool list: tools left out or repaired, one sentence each. */
  get toolProblems(): readonly string[] {
    return this.#toolProblems;
  }

  /** Whether the server said it offers resources. */
  get hasResources(): boolean {
    return this.#hasResources;
  }

  /** `stdio`, `http` or `sse`. */
  get transportType(): 'stdio' | 'http' | 'sse' {
    return 'url' in this.config ? this.config.type : 'stdio';
  }

  /** The per-call timeout in milliseconds. */
  get timeoutMs(): number {
    return this.config.timeout ?? this.#options.toolTimeoutMs;
  }

  /** The longest a call may run while it reports progress, in milliseconds. */
  get maxTimeoutMs(): number {
    return Math.max(this.timeoutMs, this.#options.maxToolTimeoutMs ?? 1_800_000);
  }

  /** Connects; never throws — a failure is kept in `state` and `error`. */
  connect(): Promise<void> {
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  #newClient(): Client {
    const client = new Client(this.#options.clientInfo, { capabilities: clientCapabilities() });
    installClientHandlers(client, {
      server: this.name,
      services: this.#options.services,
      roots: this.#options.roots ?? (() => [this.#options.cwd]),
      sampling: this.config.sampling ?? 'ask',
      notice: this.#serverNotice,
      logLevel: this.#options.logLevel ?? 'warning',
    });
    return client;
  }

  async #connect(): Promise<void> {
    const before = JSON.stringify(this.#tools);
    const startMs = this.config.startTimeout ?? this.#options.startTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartTimeout(`it did not finish starting within ${startMs} ms`)), startMs);
    });
    timeout.catch(() => {});
    let client = this.#newClient();
    let transport: Transport;
    try {
      transport = this.#transport();
    } catch (e) {
      clearTimeout(timer);
      this.#fail(`its transport could not be created: ${(e as Error).message}`);
      return;
    }
    // A stdio server that logs to stdout breaks the protocol; the SDK skips such lines and
    // reports them here, which is what explains a handshake that never completes.
    let notMcp: string | undefined;
    const watch = (c: Client) => {
      c.onerror = (e) => {
        if (e instanceof SyntaxError) notMcp ??= e.message.length > 200 ? `${e.message.slice(0, 197)}...` : e.message;
        else if (e.name === 'ZodError') notMcp ??= 'JSON that is not a JSON-RPC message';
      };
    };
    watch(client);
    try {
      // A server that wants a sign-in refuses the handshake; once the user signed in (the
      // provider holds the code), the code is exchanged and the handshake made again.
      for (let attempt = 0; ; attempt++) {
        try {
          await Promise.race([client.connect(transport), timeout]);
          break;
        } catch (e) {
          const code = e instanceof UnauthorizedError ? this.#auth?.takeAuthorizationCode() : undefined;
          if (code === undefined || attempt >= 2) throw e;
          await Promise.race([
            (transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code),
            timeout,
          ]);
          await client.close().catch(() => {});
          client = this.#newClient();
          watch(client);
          transport = this.#transport(this.#auth);
        }
      }
      this.#transportInUse = transport;
      const listing = client;
      const list = await this.#signedIn(transport, () => Promise.race([listAllTools(listing), timeout]));
      if (this.#state === 'closed') {
        await client.close().catch(() => {});
        return;
      }
      this.#tools = list.tools;
      this.#toolProblems = list.problems;
      this.#hasResources = client.getServerCapabilities()?.resources !== undefined;
      this.#serverInfo(client);
    } catch (e) {
      // A server that failed to start gets no graceful shutdown: the SDK's close waits two
      // seconds for a stdio server to exit on its own before it sends SIGTERM.
      terminate(transport);
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      let reason = e instanceof StartTimeout ? e.message : describe(e);
      if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
        reason =
          this.transportType === 'stdio'
            ? 'its process exited before it finished the MCP handshake'
            : 'it closed the connection before it finished the MCP handshake';
      }
      const status = (e as { code?: unknown }).code;
      if (this.transportType !== 'stdio' && (status === 401 || status === 403)) {
        reason = this.#auth
          ? `it refused the connection with HTTP ${status} (${reason}) after the OAuth sign-in: the token it issued is not accepted; sign in again with \`toolshed mcp login ${this.name}\``
          : `it refused the connection with HTTP ${status} (${reason}): it needs authorization. Give a token in "headers" (for example "Authorization": "Bearer \${TOKEN}")`;
      }
      if (e instanceof OAuthError || e instanceof UnauthorizedError) {
        const what = e.message
          ? `${e.name}: ${e.message}`
          : e instanceof OAuthError
            ? `${e.errorCode} from its authorization server`
            : e.name;
        reason = `it asks for a sign-in (HTTP 401), and the OAuth sign-in failed (${what}). If it takes an API key instead, give it in "headers" (for example "Authorization": "Bearer \${TOKEN}")`;
      } else if (e instanceof Error && /needs you to sign in/.test(e.message)) {
        reason = e.message.replace(/^MCP server "[^"]*" /, 'it ');
      }
      if (notMcp)
        reason += `; it wrote lines to stdout that are not MCP messages (${notMcp}): a stdio server must write only JSON-RPC to stdout and its logs to stderr`;
      this.#fail(reason);
      return;
    } finally {
      clearTimeout(timer);
    }
    client.onerror = (e) => this.#transportError(client, e);
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      if (this.#state === 'closed') return;
      this.#state = 'disconnected';
      this.#error = `the connection closed${this.#stderrTail()}`;
    };
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      const { uri } = notification.params;
      if (this.#watched.get(uri) !== false) return;
      // Once until the resource is read again, however often it changes.
      this.#watched.set(uri, true);
      this.#options.notice?.(
        'info',
        `MCP server "${this.name}": resource ${uri} changed since it was read; ReadMcpResource with {"server": "${this.name}", "uri": "${uri}"} reads it again.`,
      );
    });
    // A new connection (a restarted server) has none of the old one's subscriptions.
    for (const uri of this.#watched.keys())
      void client.subscribeResource({ uri }, { timeout: this.timeoutMs }).catch(() => {});
    this.#prompts = undefined;
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      this.#prompts = undefined;
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        const list = await listAllTools(client, this.timeoutMs);
        this.#tools = list.tools;
        this.#toolProblems = list.problems;
        this.#options.onToolsChanged();
      } catch {
        // A list that cannot be fetched now is fetched again at the next reconnection.
      }
    });
    this.#client = client;
    this.#lost = undefined;
    this.#tooLarge = undefined;
    this.#state = 'connected';
    this.#error = undefined;
    this.#failures = 0;
    if (JSON.stringify(this.#tools) !== before && before !== '[]') this.#options.onToolsChanged();
  }

  /**
   * Runs a request; when the server refuses it for want of a sign-in (a 401 after the
   * handshake, a 403 asking for a wider scope) and the user signed in, the code is exchanged
   * and the request sent again, up to twice.
   */
  async #signedIn<T>(transport: Transport, run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (e) {
        const code = e instanceof UnauthorizedError && attempt < 2 ? this.#auth?.takeAuthorizationCode() : undefined;
        if (code === undefined) throw e;
        await (transport as unknown as { finishAuth(code: string): Promise<void> }).finishAuth(code);
      }
    }
  }

  /** Keeps what the server said of itself, and asks it for the log messages worth a notice. */
  #serverInfo(client: Client): void {
    this.#instructions = client.getInstructions();
    this.#capabilities = client.getServerCapabilities() ?? {};
    if (this.#capabilities.logging) {
      void client.setLoggingLevel(this.#options.logLevel ?? 'warning', { timeout: this.timeoutMs }).catch(() => {});
    }
  }

  /** Tells the server its roots changed (`notifications/roots/list_changed`), when it is connected. */
  rootsChanged(): void {
    void this.#client?.sendRootsListChanged().catch(() => {});
  }

  /** The server's `instructions` from its `initialize` answer: how to use its tools. */
  get instructions(): string | undefined {
    return this.#instructions;
  }

  /** What the server said it offers (tools, resources, prompts, logging, completions, tasks). */
  get capabilities(): Readonly<Record<string, unknown>> {
    return this.#capabilities;
  }

  /**
   * A remote server's stream broke (its process died, the network went away): the SDK retries
   * a resumable stream and then gives up, but a call whose answer was on that stream would wait
   * for its full timeout. When the server no longer answers a ping, the connection is dropped
   * at once, and the calls in flight fail with the reason the transport gave.
   */
  #transportError(client: Client, e: Error): void {
    const limit = messageLimitPassed(e);
    // The SDK's stdio transport closes itself after such a message; what waited on it fails then.
    if (limit !== undefined && this.#client === client) this.#tooLarge = limit;
    if (this.transportType === 'stdio' || this.#client !== client) return;
    if (
      !/SSE stream disconnected|Maximum reconnection attempts|Failed to reconnect|fetch failed|ECONNREFUSED|terminated/i.test(
        e.message,
      )
    )
      return;
    if (this.#probing) return;
    this.#probing = true;
    void client.ping({ timeout: 3_000 }).then(
      () => {
        this.#probing = false;
      },
      (ping: unknown) => {
        this.#probing = false;
        if (this.#client !== client) return;
        this.#lost = `${e.message.split('\n')[0]}; it no longer answers (${describe(ping)})`;
        this.#drop(client, `its HTTP connection was lost: ${this.#lost}`);
      },
    );
  }

  #fail(reason: string): void {
    this.#state = this.#state === 'closed' ? 'closed' : 'failed';
    this.#error = `${reason}${this.#stderrTail()}`;
    this.#failures++;
    const delay = Math.min(
      this.#options.maxReconnectDelayMs,
      this.#options.reconnectDelayMs * 2 ** (this.#failures - 1),
    );
    this.#retryAt = Date.now() + delay;
  }

  #transport(auth?: BridgeAuthProvider): Transport {
    const config = this.config;
    if ('url' in config) {
      const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
      const url = new URL(config.url);
      const authProvider = auth ?? (this.#auth = this.#authProvider(config));
      const fetch = boundedFetch((e) => this.#messageTooLarge(e.maxBytes));
      const options = { requestInit, fetch, ...(authProvider ? { authProvider } : {}) };
      return config.type === 'sse'
        ? new SSEClientTransport(url, options)
        : new StreamableHTTPClientTransport(url, options);
    }
    this.#stderr = [];
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...(this.#options.inheritEnv ? definedEnvironment() : getDefaultEnvironment()), ...config.env },
      cwd: config.cwd ?? this.#options.cwd,
      stderr: 'pipe',
      maxBufferSize: MAX_MCP_MESSAGE_BYTES,
    });
    // Kept for error messages: a server that dies usually says why on stderr. Read, so a chatty
    // server never blocks on a full pipe.
    const stderr = transport.stderr as Readable | null;
    stderr?.setEncoding('utf8');
    let partial = '';
    stderr?.on('data', (chunk: string) => {
      // Only the start of a line is kept: a server that writes gigabytes without a newline must
      // cost a line's worth of memory, not the gigabytes (nor a copy of them per chunk).
      const lines = (partial + chunk).split('\n');
      partial = (lines.pop() ?? '').slice(0, STDERR_LINE_CHARS);
      for (const line of lines) {
        const kept = line.slice(0, STDERR_LINE_CHARS).trim();
        if (kept) this.#stderr.push(kept);
      }
      if (this.#stderr.length > STDERR_LINES) this.#stderr.splice(0, this.#stderr.length - STDERR_LINES);
    });
    return transport;
  }

  /**
   * The OAuth client of a remote server: for any server without its own `Authorization`
   * header (one with an API key in `headers` keeps it), so a server that asks for a sign-in
   * (401 with `WWW-Authenticate`) gets the SDK's OAuth flow.
   */
  #authProvider(config: McpRemoteServerConfig): BridgeAuthProvider | undefined {
    const oauth = this.#options.oauth;
    if (!oauth) return undefined;
    if (!config.oauth && Object.keys(config.headers ?? {}).some((h) => h.toLowerCase() === 'authorization'))
      return undefined;
    return createAuthProvider(this.name, config, oauth);
  }

  #stderrTail(): string {
    const last = this.#stderr.at(-1);
    return last ? ` (its last words on stderr: "${last.length > 300 ? `${last.slice(0, 297)}...` : last}")` : '';
  }

  /** The client, reconnecting first when the server went away; throws a message naming the server. */
  async client(): Promise<Client> {
    if (this.#client) return this.#client;
    if (this.#state === 'closed') throw new Error(`MCP server "${this.name}" is closed: the session has ended.`);
    if (this.#connecting !== undefined) await this.#connecting;
    else if (this.#state === 'pending') await this.connect();
    else {
      const wait = this.#retryAt - Date.now();
      if (wait > 0) {
        throw new Error(
          `MCP server "${this.name}" is not connected (${this.#error ?? 'unknown reason'}); the next reconnection attempt is in ${Math.ceil(wait / 1000)} s. Try again then.`,
        );
      }
      await this.connect();
    }
    if (!this.#client)
      throw new Error(`MCP server "${this.name}" could not be reconnected: ${this.#error ?? 'unknown reason'}.`);
    return this.#client;
  }

  /**
   * Calls a tool: the per-call timeout, progress and cancellation go to the SDK. A connection
   * that closes mid-call fails the call with a message naming the server.
   */
  callTool(
    tool: string,
    args: unknown,
    options: {
      signal: AbortSignal;
      onProgress: (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void;
      toolName: string;
      task?: boolean;
    },
  ): Promise<McpCallResult> {
    // Not async itself: #request is, and this runs per call.
    if (options.task)
      return this.#request(
        options.toolName,
        options.signal,
        async (client) => await this.#callAsTask(client, tool, args, options),
      );
    return this.#request(options.toolName, options.signal, (client) => {
      const params = { name: tool, arguments: args as Record<string, unknown> };
      const sdkOptions = {
        timeout: this.timeoutMs,
        // A call that reports progress is alive: each notification restarts its timeout, up to a hard maximum.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.maxTimeoutMs,
        onprogress: options.onProgress,
      };
      // A call nothing can abort needs no cancellation (this runs per call).
      if (cannotAbort(options.signal))
        return client.callTool(params, CallToolResultSchema, sdkOptions) as Promise<McpCallResult>;
      // The SDK keeps its abort listener on the signal it is given: it gets one of the request's own.
      const request = this.#aborts.request(options.signal);
      const done = () => this.#aborts.done(request);
      return client.callTool(params, CallToolResultSchema, { ...sdkOptions, signal: request.signal }).then(
        (result) => {
          done();
          return result as McpCallResult;
        },
        (e: unknown) => {
          done();
          throw e;
        },
      );
    });
  }

  /**
   * Calls a task-augmented tool (MCP 2025-11-25): the server answers with a task at once, the
   * SDK polls it to the end, each status is a progress event, and an abort cancels the task.
   */
  async #callAsTask(
    client: Client,
    tool: string,
    args: unknown,
    options: { signal: AbortSignal; onProgress: (p: { progress: number; message?: string }) => void; toolName: string },
  ): Promise<McpCallResult> {
    let taskId: string | undefined;
    let step = 0;
    const onAbort = () => {
      if (taskId) void client.experimental.tasks.cancelTask(taskId).catch(() => {});
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const stream = client.experimental.tasks.callToolStream(
        { name: tool, arguments: args as Record<string, unknown> },
        CallToolResultSchema,
        {
          signal: options.signal,
          timeout: this.timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: this.maxTimeoutMs,
          task: {},
        },
      );
      for await (const message of stream) {
        if (message.type === 'taskCreated') {
          taskId = message.task.taskId;
          options.onProgress({ progress: step++, message: `task ${taskId} started` });
        } else if (message.type === 'taskStatus') {
          options.onProgress({
            progress: step++,
            message: `task ${message.task.taskId}: ${message.task.status}${message.task.statusMessage ? ` (${message.task.statusMessage})` : ''}`,
          });
        } else if (message.type === 'result') {
          return message.result as McpCallResult;
        } else if (message.type === 'error') {
          throw message.error;
        }
      }
      throw new Error(`the task of ${options.toolName} ended without a result`);
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Lists the server's resources (every page). */
  async listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
    return await this.#request('ListMcpResources', signal, async (client) => {
      const out: McpResourceInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : {}, { signal, timeout: this.timeoutMs });
        out.push(...(page.resources as McpResourceInfo[]));
        cursor = page.nextCursor;
      } while (cursor);
      // Resource templates (`file:///{path}`): listed with the resources, for the model to fill in.
      try {
        do {
          const page = await client.listResourceTemplates(cursor ? { cursor } : {}, {
            signal,
            timeout: this.timeoutMs,
          });
          for (const t of page.resourceTemplates)
            out.push({
              uriTemplate: t.uriTemplate,
              name: t.name,
              ...(t.title ? { title: t.title } : {}),
              ...(t.description ? { description: t.description } : {}),
              ...(t.mimeType ? { mimeType: t.mimeType } : {}),
            } as unknown as McpResourceInfo);
          cursor = page.nextCursor;
        } while (cursor);
      } catch (e) {
        if (!(e instanceof McpError && e.code === ErrorCode.MethodNotFound)) throw e;
      }
      return out;
    });
  }

  /** Whether the server said it offers prompts. */
  get hasPrompts(): boolean {
    return this.#capabilities.prompts !== undefined;
  }

  /** Lists the server's prompts (every page). */
  async listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
    return await this.#request('ListMcpPrompts', signal, async (client) => {
      const out: McpPromptInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listPrompts(cursor ? { cursor } : {}, { signal, timeout: this.timeoutMs });
        out.push(...(page.prompts as McpPromptInfo[]));
        cursor = page.nextCursor;
      } while (cursor);
      return out;
    });
  }

  /**
   * The server's prompts as last listed: fetched once, and again after the server says they
   * changed (`notifications/prompts/list_changed`) or after a reconnection. A failed listing is
   * not kept.
   */
  async cachedPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
    const listing = (this.#prompts ??= this.listPrompts(signal));
    try {
      return await listing;
    } catch (e) {
      if (this.#prompts === listing) this.#prompts = undefined;
      throw e;
    }
  }

  /** Gets one prompt, filled with its arguments. */
  async getPrompt(
    name: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ description?: string | undefined; messages: { role: string; content: unknown }[] }> {
    return await this.#request(
      'GetMcpPrompt',
      signal,
      async (client) => await client.getPrompt({ name, arguments: args }, { signal, timeout: this.timeoutMs }),
    );
  }

  /** Whether the server said it offers argument completion (`completion/complete`). */
  get hasCompletions(): boolean {
    return this.#capabilities['completions'] !== undefined;
  }

  /**
   * Completes one argument of a prompt or a resource template (`completion/complete`): the values
   * the server suggests for what was typed so far, with the other arguments as context.
   */
  async complete(
    request: {
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
      argument: { name: string; value: string };
      context?: { arguments: Record<string, string> };
    },
    signal: AbortSignal,
  ): Promise<{ values: string[]; total?: number | undefined; hasMore?: boolean | undefined }> {
    return await this.#request('CompleteMcpArgument', signal, async (client) => {
      const answer = await client.complete(request, { signal, timeout: this.timeoutMs });
      return answer.completion;
    });
  }

  /** Reads one resource. */
  async readResource(
    uri: string,
    signal: AbortSignal,
  ): Promise<{ contents: { uri: string; mimeType?: string | undefined; text?: string; blob?: string }[] }> {
    return await this.#request(
      'ReadMcpResource',
      signal,
      async (client) => await client.readResource({ uri }, { signal, timeout: this.timeoutMs }),
    );
  }

  /**
   * Subscribes to a resource that was read, when the server offers subscriptions: a change is
   * then reported once as a session notice, until it is read again. A failure is ignored (the
   * read itself succeeded).
   *
   * @returns Whether the resource is subscribed to.
   */
  async watchResource(uri: string, signal: AbortSignal): Promise<boolean> {
    if ((this.#capabilities['resources'] as { subscribe?: boolean } | undefined)?.subscribe !== true) return false;
    if (this.#watched.has(uri)) {
      this.#watched.set(uri, false);
      return true;
    }
    try {
      await this.#request('ReadMcpResource', signal, async (client) => {
        await client.subscribeResource({ uri }, { signal, timeout: this.timeoutMs });
      });
      this.#watched.set(uri, false);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Runs one request on the client, reconnecting first when needed. A Streamable HTTP server
   * that has forgotten our session (it restarted) refuses the request before running it, so
   * the request is sent once more on a new session instead of failing.
   */
  #request<T>(what: string, signal: AbortSignal, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#client;
    // Connected, with no sign-in that could need renewing (most calls): the request as it is,
    // with no async step of its own (this runs per call). `run` rejects, never throws.
    if (client && !(this.#transportInUse && this.#auth))
      return run(client).catch((e: unknown) => this.#retryOrFail(e, client, { what, signal, run }));
    return this.#requestConnecting(what, signal, run);
  }

  /** {@linkcode #request} of a server to reconnect first, or one the user signed in to. */
  async #requestConnecting<T>(what: string, signal: AbortSignal, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#client ?? (await this.client());
    const transport = this.#transportInUse;
    try {
      // Only a server the user signed in to can ask for the sign-in again.
      return transport && this.#auth ? await this.#signedIn(transport, () => run(client)) : await run(client);
    } catch (e) {
      return await this.#retryOrFail(e, client, { what, signal, run });
    }
  }

  /**
   * A request that failed: a page the user must open first, an error naming the server, or, when
   * the HTTP server forgot our session, the request once more on a new one.
   */
  async #retryOrFail<T>(
    e: unknown,
    client: Client,
    { what, signal, run }: { what: string; signal: AbortSignal; run: (client: Client) => Promise<T> },
  ): Promise<T> {
    if (!signal.aborted && e instanceof McpError && e.code === ErrorCode.UrlElicitationRequired)
      throw await this.#pageNeeded(e, what, signal);
    if (signal.aborted || !sessionGone(e)) throw this.#callError(e, client, what, signal);
    this.#drop(client, describe(e));
    const next = await this.client();
    try {
      return await run(next);
    } catch (again) {
      throw this.#callError(again, next, what, signal);
    }
  }

  /**
   * A call the server refused until the user finishes an interaction in the browser (error
   * -32042, URL elicitation required): each page is shown to the user, who decides whether to
   * open it; the call fails with what the user answered, for the model to call again later.
   */
  async #pageNeeded(e: McpError, what: string, signal: AbortSignal): Promise<Error> {
    const pages = ((e.data as { elicitations?: unknown } | undefined)?.elicitations ?? []) as {
      mode?: string;
      url?: string;
      message?: string;
    }[];
    const asked = pages.filter((p) => p.mode === 'url' && typeof p.url === 'string');
    const answers: string[] = [];
    for (const page of asked) {
      const action = await askToOpen(
        { server: this.name, services: this.#options.services, notice: this.#serverNotice },
        {
          message: page.message ?? `MCP server "${this.name}" needs you to open a page before ${what} can run.`,
          url: page.url!,
          signal,
        },
      );
      answers.push(
        `${page.url} (the user ${action === 'accept' ? 'accepted to open it' : action === 'decline' ? 'declined' : 'did not answer'})`,
      );
    }
    const accepted = answers.length > 0 && answers.every((a) => a.includes('accepted'));
    return new Error(
      `MCP server "${this.name}" needs the user to finish an interaction in the browser before ${what} can run: ${answers.join('; ') || describe(e)}. ${accepted ? `Call ${what} again once the user says they are done.` : `So ${what} did not run.`}`,
    );
  }

  /** A message over the limit was cut short: the client is dropped, failing what waited on it. */
  #messageTooLarge(maxBytes: number): void {
    this.#tooLarge = maxBytes;
    if (this.#client) this.#drop(this.#client, `it sent a message of more than ${maxBytes / 2 ** 20} MB`);
  }

  #drop(client: Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#state = 'disconnected';
    this.#error = reason;
    void client.close().catch(() => {});
  }

  #callError(e: unknown, client: Client, toolName: string, signal: AbortSignal): Error {
    if (signal.aborted) return e instanceof Error ? e : new Error(String(e));
    const limit = messageLimitPassed(e) ?? this.#tooLarge;
    if (limit !== undefined) {
      this.#drop(client, `it sent a message of more than ${limit / 2 ** 20} MB`);
      return new Error(
        `MCP server "${this.name}" sent a message of more than ${limit / 2 ** 20} MB (the most the bridge reads as one message) while ${toolName} was running, most likely its result; the bridge stopped reading it and closed the connection, so the outcome is unknown. Call it again and ask the tool for less (a narrower query, fewer items, one page), or have the server return large content as a resource link or a file. The server is ${this.transportType === 'stdio' ? 'restarted' : 'reconnected'} on the next call.`,
      );
    }
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout && /Maximum total timeout/.test(e.message)) {
      return new Error(
        `MCP server "${this.name}" kept reporting progress on ${toolName} but did not finish within the hard limit of ${this.maxTimeoutMs} ms, so the call was cancelled. If the tool needs longer, raise "maxToolTimeoutMs" of mcpServers().`,
      );
    }
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
      return new Error(
        `MCP server "${this.name}" did not answer ${toolName} within ${this.timeoutMs} ms, so the call was cancelled. If the tool needs longer, raise "timeout" (milliseconds) for server "${this.name}" in .mcp.json.`,
      );
    }
    if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
      if (this.#lost && this.transportType !== 'stdio') {
        return new Error(
          `MCP server "${this.name}" went away while ${toolName} was running (${this.#lost}), so the outcome is unknown. It is reconnected on the next call.`,
        );
      }
      return new Error(
        `MCP server "${this.name}" closed the connection while ${toolName} was running${this.#stderrTail()}, so the outcome is unknown. The server is restarted on the next call.`,
      );
    }
    if (!(e instanceof McpError) && this.transportType !== 'stdio') {
      // A remote server that cannot be reached: drop the client so the next call reconnects.
      this.#drop(client, describe(e));
      return new Error(
        `MCP server "${this.name}" could not be reached while running ${toolName}: ${describe(e)}. It is reconnected on the next call.`,
      );
    }
    return new Error(`MCP server "${this.name}" answered ${toolName} with an error: ${describe(e)}`);
  }

  /** Closes the connection (and ends a stdio server's process). */
  async close(): Promise<void> {
    this.#state = 'closed';
    const client = this.#client;
    this.#client = undefined;
    if (this.#connecting !== undefined) await this.#connecting.catch(() => {});
    await client?.close().catch(() => {});
    // A connection that finished while we waited closes its own client (it sees the closed state).
  }
}

class StartTimeout extends Error {}

/** The HTTP server no longer knows the session (404 per the spec; some servers answer 400). */
function sessionGone(e: unknown): boolean {
  return e instanceof StreamableHTTPError && (e.code === 404 || (e.code === 400 && /session/i.test(e.message)));
}

function terminate(transport: Transport): void {
  const pid = transport instanceof StdioClientTransport ? transport.pid : null;
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // It has exited already.
  }
}

function describe(e: unknown): string {
  const issues = (e as { issues?: { path?: PropertyKey[]; message?: string }[] } | null)?.issues;
  if (e instanceof Error && Array.isArray(issues) && issues[0]) {
    // A zod error's message is its issues as JSON, of which the first line says nothing.
    const where = issues[0].path?.map(String).join('.') || 'the answer';
    return `its answer does not follow the MCP schema (${where}: ${issues[0].message ?? 'invalid'})`;
  }
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    const causeText =
      cause instanceof Error && cause.message && !e.message.includes(cause.message) ? ` (${cause.message})` : '';
    return `${e.message.split('\n')[0]}${causeText}`;
  }
  return String(e);
}

/** This process's environment without unset entries (the transport takes strings only). */
function definedEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
