import type { Session } from '@toolshed/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  type LoggingLevel,
  McpError,
  type LoggingMessageNotification,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServePromptSource } from './serve_prompts.ts';
import { sessionResults, type ServeResourceSource } from './serve_resources.ts';

/** What a served session offers besides tools; see `ServeSessionCommonOptions`. */
export interface ServeFeatureOptions {
  /** The resource sources of a client's session. @default (s) => [sessionResults(s)] */
  resources?: (session: Session) => readonly ServeResourceSource[];
  /** The prompt source of a client's session. @default none: prompts/list is empty */
  prompts?: (session: Session) => ServePromptSource | undefined;
}

/** The capabilities {@linkcode registerServeFeatures} answers for. */
export const SERVE_FEATURE_CAPABILITIES = {
  logging: {},
  completions: {},
  resources: { subscribe: true },
  prompts: {},
} as const;

const NOTICE_LEVELS: Record<'info' | 'warn' | 'error', LoggingLevel> = {
  info: 'info',
  warn: 'warning',
  error: 'error',
};
const MAX_COMPLETIONS = 100;
const SEVERITY: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Sends one notification, on the stream of the request it belongs to when there is one. */
export type SendNotification = (notification: LoggingMessageNotification) => Promise<void>;

/** The per-client state of the features: subscriptions to stop and notices to forward. */
export interface ServeFeatures {
  /**
   * Sends the session's notices not yet sent as log notifications (filtered by the client's
   * level), through `send` (a request's own `sendNotification`) when given.
   */
  flushNotices(session: Session, sessionId: string | undefined, send?: SendNotification): Promise<void>;
  /** Stops every subscription (the client went away). */
  close(): void;
}

/**
 * Registers logging (`logging/setLevel`, and session notices as `notifications/message` at or
 * above that level), resources, prompts and completion on one client's server.
 */
export function registerServeFeatures(
  server: Server,
  getSession: () => Promise<Session>,
  options: ServeFeatureOptions,
): ServeFeatures {
  const resourcesOf = options.resources ?? ((s: Session) => [sessionResults(s)]);
  const subscriptions = new Map<string, () => void>();
  const sources = async () => resourcesOf(await getSession());
  const prompts = async () => options.prompts?.(await getSession());
  const flushNotices = registerLogging(server);
  registerResources(server, { getSession, resourcesOf, sources, subscriptions, flushNotices });
  registerPrompts(server, prompts);
  registerCompletion(server, { sources, prompts });
  return {
    flushNotices,
    close() {
      for (const stop of subscriptions.values()) stop();
      subscriptions.clear();
    },
  };
}

/**
 * `logging/setLevel`, per MCP session (over HTTP one server has one session; the id keys it
 * anyway); returns what sends the session's notices at or above that level.
 */
function registerLogging(server: Server): ServeFeatures['flushNotices'] {
  let sentNotices = 0;
  const levels = new Map<string | undefined, LoggingLevel>();
  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    levels.set(extra.sessionId, request.params.level);
    return {};
  });
  const wanted = (level: LoggingLevel, sessionId: string | undefined) => {
    const floor = levels.get(sessionId);
    return floor === undefined || SEVERITY.indexOf(level) >= SEVERITY.indexOf(floor);
  };

  const flushNotices: ServeFeatures['flushNotices'] = async (session, sessionId, send) => {
    const all = session.notices();
    for (; sentNotices < all.length; sentNotices++) {
      const notice = all[sentNotices]!;
      const level = NOTICE_LEVELS[notice.level];
      if (!wanted(level, sessionId)) continue;
      const notification: LoggingMessageNotification = {
        method: 'notifications/message',
        params: { level, logger: 'toolshed', data: notice.message },
      };
      await (send ? send(notification) : server.notification(notification)).catch(() => {});
    }
  };

  return flushNotices;
}

/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
function registerResources(
  server: Server,
  {
    getSession,
    resourcesOf,
    sources,
    subscriptions,
    flushNotices,
  }: {
    getSession: () => Promise<Session>;
    resourcesOf: (session: Session) => readonly ServeResourceSource[];
    sources: () => Promise<readonly ServeResourceSource[]>;
    subscriptions: Map<string, () => void>;
    flushNotices: ServeFeatures['flushNotices'];
  },
): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const session = await getSession();
    const lists = await Promise.all(resourcesOf(session).map((s) => s.list()));
    await flushNotices(session, extra.sessionId);
    return { resources: lists.flat() };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    const lists = await Promise.all((await sources()).map((s) => s.templates?.() ?? []));
    return { resourceTemplates: lists.flat() };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    for (const source of await sources()) {
      let contents: Awaited<ReturnType<ServeResourceSource['read']>>;
      try {
        contents = await source.read(uri);
      } catch (e) {
        throw new McpError(ErrorCode.InvalidParams, (e as Error).message, { uri });
      }
      if (contents !== undefined) return { contents };
    }
    throw new McpError(
      -32002,
      `Resource ${uri} not found: resources/list and resources/templates/list show what this server has`,
      { uri },
    );
  });

  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (subscriptions.has(uri)) return {};
    for (const source of await sources()) {
      let stop: (() => void) | undefined;
      try {
        stop = await source.watch?.(uri, () => {
          void server.sendResourceUpdated({ uri }).catch(() => {});
        });
      } catch (e) {
        throw new McpError(ErrorCode.InvalidParams, (e as Error).message, { uri });
      }
      if (stop) {
        subscriptions.set(uri, stop);
        return {};
      }
    }
    throw new McpError(
      -32002,
      `Resource ${uri} cannot be subscribed to: no resource of this server with that URI changes`,
      { uri },
    );
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.get(request.params.uri)?.();
    subscriptions.delete(request.params.uri);
    return {};
  });
}

/** `prompts/list` and `prompts/get`. */
function registerPrompts(server: Server, prompts: () => Promise<ServePromptSource | undefined>): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: (await (await prompts())?.list()) ?? [],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    const source = await prompts();
    let result: Awaited<ReturnType<ServePromptSource['get']>>;
    try {
      result = await source?.get(name, args);
    } catch (e) {
      throw new McpError(ErrorCode.InvalidParams, (e as Error).message, { name });
    }
    if (result === undefined) {
      const known = ((await source?.list()) ?? []).map((p) => p.name);
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${name}": ${known.length ? `this server has ${known.join(', ')}` : 'this server has no prompts'}`,
        { name },
      );
    }
    return result;
  });
}

/** `completion/complete`, for prompt arguments and resource-template variables. */
function registerCompletion(
  server: Server,
  {
    sources,
    prompts,
  }: { sources: () => Promise<readonly ServeResourceSource[]>; prompts: () => Promise<ServePromptSource | undefined> },
): void {
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument, context } = request.params;
    let values: string[] = [];
    if (ref.type === 'ref/prompt') {
      values =
        (await (await prompts())?.complete?.(ref.name, argument.name, argument.value, context?.arguments ?? {})) ?? [];
    } else {
      for (const source of await sources()) {
        const found = await source.complete?.(ref.uri, argument.name, argument.value);
        if (found !== undefined) {
          values = found;
          break;
        }
      }
    }
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  });
}
