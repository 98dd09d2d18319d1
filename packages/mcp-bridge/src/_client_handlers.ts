import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { askUserKey, modelClientKey, type Services } from '@toolshed/core';

/** Who may let a server use the user's model. */
export type McpSamplingPolicy = 'ask' | 'allow' | 'deny';

/** MCP's log levels, least severe first. */
export const MCP_LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
/** One of {@linkcode MCP_LOG_LEVELS}. */
export type McpLogLevel = (typeof MCP_LOG_LEVELS)[number];

/** What the handlers of one server's client read. */
export interface ClientHandlerContext {
  server: string;
  /** The session's services: `askUserKey` (elicitation, the sampling permission), `modelClientKey` (sampling). */
  services: Services | undefined;
  /** The session's working directories (absolute), offered as roots. */
  roots: () => readonly string[];
  sampling: McpSamplingPolicy;
  notice: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The least severe log message shown (the level asked of the server, which may not heed it). @default 'debug' */
  logLevel?: McpLogLevel;
}

/**
 * Notices one server may cause (its log messages, questions nobody could answer): past them the
 * rest are dropped, so a server that never stops logging cannot fill the session's memory.
 *
 * @example
 * ```ts
 * import { MAX_SERVER_NOTICES } from './_client_handlers.ts';
 *
 * MAX_SERVER_NOTICES; // 1000
 * ```
 */
export const MAX_SERVER_NOTICES = 1000;

/**
 * A notice function that passes on at most `max` notices of one server, then says once that the
 * rest are not shown. Made once per server, so that reconnecting does not start it over.
 *
 * @param notice Where the notices go.
 * @param options The server's name and the most notices passed on.
 * @returns The bounded notice function.
 *
 * @example
 * ```ts
 * import { boundedNotice } from './_client_handlers.ts';
 *
 * const notice = boundedNotice((level, message) => console.error(level, message), { server: 'github', max: 1000 });
 * ```
 */
export function boundedNotice(
  notice: ClientHandlerContext['notice'],
  { server, max }: { server: string; max: number },
): ClientHandlerContext['notice'] {
  let passed = 0;
  return (level, message) => {
    if (passed < max) {
      passed++;
      notice(level, message);
    } else if (passed === max) {
      passed++;
      notice(
        'warn',
        `MCP server "${server}" sent more than ${max} log messages and notices; the rest of them are not shown in this session.`,
      );
    }
  };
}

/**
 * The capabilities the bridge's client declares: form elicitation with the schema's defaults
 * applied to what the user left out, URL elicitation (2025-11-25), sampling, and roots with
 * `list_changed`.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { clientCapabilities } from './_client_handlers.ts';
 *
 * new Client({ name: 'toolshed', version: '1.0.0' }, { capabilities: clientCapabilities() });
 * ```
 */
export function clientCapabilities(): ClientCapabilities {
  return { elicitation: { form: { applyDefaults: true }, url: {} }, sampling: {}, roots: { listChanged: true } };
}

/**
 * Answers what a server asks of the client: elicitation through the session's `askUser`
 * service (declined when there is none), sampling through its model client after the user
 * allowed it (once per server and session, unless the policy says `allow` or `deny`), roots
 * from the working directories, and log messages as session notices.
 *
 * @param client The server's client, before `connect`.
 * @param ctx The server's name, the session's services and roots.
 * @returns Nothing; the handlers are registered on the client.
 *
 * @example
 * ```ts
 * import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import type { ToolContext } from '@toolshed/core';
 * import { installClientHandlers } from './_client_handlers.ts';
 * declare const client: Client;
 * declare const ctx: ToolContext;
 *
 * const notice = (level: 'info' | 'warn' | 'error', message: string) => console.error(level, message);
 * installClientHandlers(client, { server: 'everything', services: ctx.services, roots: () => [ctx.cwd], sampling: 'ask', notice });
 * ```
 */
export function installClientHandlers(client: Client, ctx: ClientHandlerContext): void {
  const who = `MCP server "${ctx.server}"`;
  const pages = new Map<string, string>();
  client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const params = request.params as {
      mode?: string;
      message: string;
      requestedSchema?: Record<string, unknown>;
      url?: string;
      elicitationId?: string;
    };
    if (params.mode === 'url') {
      const action = await askToOpen(ctx, { message: params.message, url: params.url ?? '', signal: extra.signal });
      if (action === 'accept' && params.elicitationId) pages.set(params.elicitationId, params.url ?? '');
      return { action };
    }
    const askUser = ctx.services?.get(askUserKey);
    if (!askUser) {
      ctx.notice(
        'warn',
        `${who} asked the user a question ("${truncate(params.message, 120)}"), but this session has no askUser service, so it was declined. Provide one with services: [[askUserKey, …]].`,
      );
      return { action: 'decline' };
    }
    const answer = await askUser.ask({
      source: who,
      message: params.message,
      ...(params.requestedSchema ? { schema: params.requestedSchema } : {}),
      signal: extra.signal,
    });
    if (answer.action !== 'accept') return { action: answer.action };
    // The SDK fills what the user left out from the schema's defaults (applyDefaults).
    return { action: 'accept', content: (answer.content ?? {}) as ElicitResult['content'] };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    const url = pages.get(notification.params.elicitationId);
    if (url === undefined) return;
    pages.delete(notification.params.elicitationId);
    ctx.notice('info', `${who}: the interaction at ${url} is complete.`);
  });

  let samplingAllowed: Promise<boolean> | undefined;
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra): Promise<CreateMessageResult> => {
    const params = request.params;
    const model = ctx.services?.get(modelClientKey);
    if (!model)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${who} asked for a model completion (sampling), but this Toolshed session has no model client: none is offered to MCP servers.`,
      );
    if (ctx.sampling === 'deny')
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${who} may not use the user's model: sampling is set to "deny" for it.`,
      );
    if (ctx.sampling === 'ask') {
      samplingAllowed ??= askPermission(ctx, who, params.systemPrompt, params.messages.length, extra.signal);
      const allowed = await samplingAllowed;
      if (!allowed) {
        samplingAllowed = undefined;
        throw new McpError(ErrorCode.InvalidRequest, `The user did not allow ${who} to use their model (sampling).`);
      }
    }
    const messages = params.messages.map((m) => ({ role: m.role, content: messageText(m.content) }));
    const last = [...messages].reverse().find((m) => m.role === 'user');
    const text = await model.complete({
      ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
      prompt: last?.content ?? '',
      ...(messages.length > 1 ? { messages } : {}),
      maxTokens: params.maxTokens,
      signal: extra.signal,
    });
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model: 'toolshed-session-model',
      stopReason: 'endTurn',
    };
  });

  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: ctx.roots().map((dir) => ({ uri: pathToFileURL(dir).href, name: dir })),
  }));

  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    const severity = MCP_LOG_LEVELS.indexOf(level);
    // The server was asked for this level and up; one that sends less severe lines anyway is not heard.
    if (severity < MCP_LOG_LEVELS.indexOf(ctx.logLevel ?? 'debug')) return;
    ctx.notice(
      severity >= 4 ? 'error' : severity === 3 ? 'warn' : 'info',
      `${who}${logger ? ` (${logger})` : ''} logged ${level}: ${truncate(text, 2000)}`,
    );
  });
}

/**
 * A URL-mode elicitation (or a call that needs one, error -32042): the person is shown the
 * message, the full URL and its site, and decides whether to open it. Nothing is opened or
 * fetched here: the session's `askUser` gets the URL (`url`), and a UI opens it only after an
 * accept. A URL that is not http(s), one with a user name or password before its site
 * (`https://pay.example.com@evil.example/`), or a session without `askUser`, is declined; an
 * international site name is flagged, and the server's message is shown with its control and
 * bidi characters escaped, so it cannot hide or fake the lines that name the page.
 *
 * @param ctx The server's name, services and notices.
 * @param request The server's message and URL, and the request's signal.
 * @returns The person's answer.
 *
 * @example
 * ```ts
 * import type { ClientHandlerContext } from './_client_handlers.ts';
 * import { askToOpen } from './_client_handlers.ts';
 * declare const ctx: ClientHandlerContext;
 *
 * await askToOpen(ctx, { message: 'Sign in to pay', url: 'https://pay.example.com/s/1' });
 * ```
 */
export async function askToOpen(
  ctx: Pick<ClientHandlerContext, 'server' | 'services' | 'notice'>,
  { message, url, signal }: { message: string; url: string; signal?: AbortSignal },
): Promise<'accept' | 'decline' | 'cancel'> {
  const who = `MCP server "${ctx.server}"`;
  let page: URL | undefined;
  try {
    page = new URL(url);
  } catch {
    page = undefined;
  }
  if (!page || (page.protocol !== 'https:' && page.protocol !== 'http:')) {
    ctx.notice(
      'warn',
      `${who} asked the user to open ${JSON.stringify(truncate(url, 200))}, which is not an http(s) URL, so it was declined.`,
    );
    return 'decline';
  }
  if (page.username !== '' || page.password !== '') {
    // `https://pay.example.com@evil.example/` reads as one site and leads to another.
    ctx.notice(
      'warn',
      `${who} asked the user to open ${JSON.stringify(truncate(shownText(url), 200))}, which carries a user name or password before its site (it leads to ${page.host}, not to what is written before "@"), so it was declined.`,
    );
    return 'decline';
  }
  const askUser = ctx.services?.get(askUserKey);
  if (!askUser) {
    ctx.notice(
      'warn',
      `${who} asked the user to open ${page.href} ("${truncate(shownText(message), 120)}"), but this session has no askUser service, so it was declined. Provide one with services: [[askUserKey, …]].`,
    );
    return 'decline';
  }
  const answer = await askUser.ask({
    source: who,
    message: `${shownText(message)}\nIt asks you to open this page (site ${page.host}${international(page) ? ', an international name that can look like another' : ''}${page.protocol === 'http:' ? ', not encrypted' : ''}):\n  ${page.href}\nOpen it?`,
    url: page.href,
    ...(signal ? { signal } : {}),
  });
  return answer.action;
}

async function askPermission(
  ctx: ClientHandlerContext,
  who: string,
  system: string | undefined,
  turns: number,
  signal: AbortSignal,
): Promise<boolean> {
  const askUser = ctx.services?.get(askUserKey);
  if (!askUser) {
    ctx.notice(
      'warn',
      `${who} asked to use the user's model (sampling); without an askUser service nobody can allow it, so it was refused. Set sampling: "allow" for the server to allow it.`,
    );
    return false;
  }
  const answer = await askUser.ask({
    source: who,
    message: `${who} asks to use your model for a completion (${turns} message${turns === 1 ? '' : 's'}${system ? `, system prompt "${truncate(system, 200)}"` : ''}). Allow it for this session?`,
    signal,
  });
  return answer.action === 'accept';
}

function messageText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => {
      const block = b as { type?: string; text?: string; mimeType?: string };
      if (block.type === 'text') return block.text ?? '';
      return `[${block.type ?? 'unknown'} content${block.mimeType ? ` of type ${block.mimeType}` : ''}: not passed to the model]`;
    })
    .join('\n');
}

/** Characters that move the cursor, clear lines or reorder text on a terminal: shown escaped. */
const HIDING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A server's text as a person may safely be shown it: no escape sequence can hide or fake the page's lines. */
function shownText(text: string): string {
  return text.replace(HIDING, (c) => (c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Whether the site's name has a label written in another script (`xn--…`): it may look like another site. */
function international(page: URL): boolean {
  return page.hostname.split('.').some((label) => label.startsWith('xn--'));
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
