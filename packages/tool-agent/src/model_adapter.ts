import type { ContentBlock, ProviderFormat, TextBlock, ToolResultBlock, ToolUseBlock } from '@toolshed/core';

/** A block of a message: text, image, document, `tool_use` (assistant) or `tool_result` (user). */
export type MessageBlock = ContentBlock | ToolUseBlock | ToolResultBlock;

/** One message of a conversation, in core's Anthropic-shaped blocks (what every adapter takes). */
export interface AgentMessage {
  role: 'user' | 'assistant';
  content: string | MessageBlock[];
}

/** Why the model stopped writing. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'pause_turn'
  | (string & {});

/** Tokens of one model turn. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One model turn's request, provider-neutral. */
export interface ModelTurnRequest {
  system?: string | undefined;
  messages: readonly AgentMessage[];
  /** The tools in the adapter's format: `session.toolsFor(adapter.format)`. */
  tools: readonly unknown[];
  /** @default the adapter's own (4096 unless set) */
  maxTokens?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** What one model turn produced. */
export interface ModelTurn {
  /** The assistant's blocks, in order: text and `tool_use`. */
  content: (TextBlock | ToolUseBlock)[];
  stopReason: StopReason;
  usage: ModelUsage;
}

/** An event of {@linkcode ModelAdapter.stream}. */
export type ModelStreamEvent =
  /** A piece of the assistant's text, as it comes. */
  | { type: 'text'; text: string }
  /** A `tool_use` block the model has finished writing; the call can start now. */
  | { type: 'tool_use'; block: ToolUseBlock }
  /** The end of the turn: the whole turn. */
  | { type: 'done'; turn: ModelTurn };

/**
 * One model behind one interface: a request (system, messages, tools, max tokens, signal) →
 * the assistant's blocks, the stop reason and the usage. `stream` yields each `tool_use` as soon
 * as the model has finished it, so the loop can start the call while the model still writes.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { anthropicModel, type ModelAdapter } from '@toolshed/tool-agent';
 * import Anthropic from '@anthropic-ai/sdk';
 * declare const session: Session;
 *
 * const model: ModelAdapter = anthropicModel({ client: new Anthropic(), model: 'claude-sonnet-5-5' });
 * const turn = await model.turn({ messages: [{ role: 'user', content: 'hi' }], tools: session.toolsFor(model.format) });
 * ```
 */
export interface ModelAdapter {
  /** The tool format the adapter sends: pass `session.toolsFor(format)`. */
  readonly format: ProviderFormat;
  /** The model id, e.g. `claude-sonnet-5-5`. */
  readonly model: string;
  /** The provider, for messages and metrics: `anthropic`, `openai-chat`, `openai-responses`. */
  readonly provider: string;
  /** One turn, whole. */
  turn(request: ModelTurnRequest): Promise<ModelTurn>;
  /** One turn, streamed; ends with a `done` event. */
  stream(request: ModelTurnRequest): AsyncIterable<ModelStreamEvent>;
  /** The same adapter (client, settings) for another model id. */
  withModel(model: string): ModelAdapter;
}

/**
 * A model call that failed: the provider's HTTP status (when there was one) and its message.
 * The SDK's own retries (429, 5xx, per its `maxRetries`) have already been spent.
 *
 * @example
 * ```ts
 * import { ModelError, type ModelAdapter, type ModelTurnRequest } from '@toolshed/tool-agent';
 * declare const model: ModelAdapter;
 * declare const request: ModelTurnRequest;
 *
 * try { await model.turn(request); } catch (e) { if (e instanceof ModelError) console.error(e.status, e.message); }
 * ```
 */
export class ModelError extends Error {
  /** The HTTP status, when the provider answered. */
  readonly status: number | undefined;

  /**
   * @param message What failed, in words.
   * @param options The status and the cause.
   */
  constructor(message: string, options: { status?: number | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ModelError';
    this.status = options.status;
  }
}

/**
 * Turns what an SDK threw into a {@linkcode ModelError} naming the provider, model and status.
 *
 * @param e What was thrown.
 * @param request The provider's name, the model id, and the request's signal (when it is
 *   aborted, the error stays as thrown).
 * @returns The error (an abort stays an abort).
 *
 * @example
 * ```ts
 * import { modelErrorOf } from '@toolshed/tool-agent';
 * declare function send(): Promise<unknown>;
 *
 * try {
 *   await send();
 * } catch (e) {
 *   throw modelErrorOf(e, { provider: 'anthropic', model: 'claude-sonnet-5-5' });
 * }
 * ```
 */
export function modelErrorOf(
  e: unknown,
  request: { provider: string; model: string; signal?: AbortSignal | undefined },
): Error {
  const { provider, model, signal } = request;
  if (e instanceof ModelError) return e;
  if (signal?.aborted && e instanceof Error) return e;
  if (
    e instanceof Error &&
    (e.name === 'AbortError' || e.name === 'APIUserAbortError' || e.constructor.name === 'APIUserAbortError')
  )
    return e;
  const status = typeof (e as { status?: unknown })?.status === 'number' ? (e as { status: number }).status : undefined;
  const text = printableBounded(e instanceof Error ? e.message : String(e));
  const hint =
    status === 401 || status === 403
      ? ' Check the API key.'
      : status === 404
        ? ` Check the model id "${model}" and the base URL.`
        : status === 429
          ? ' The rate limit was hit and the retries ran out; wait and try again.'
          : e instanceof SyntaxError
            ? ` The answer was not JSON, so not what the ${provider} API replies: check the base URL (a proxy or another API may be answering).`
            : '';
  return new ModelError(
    `The ${provider} model "${model}" failed${status ? ` with HTTP ${status}` : ''}: ${text}${hint}`,
    { status, cause: e },
  );
}

/** Past this many characters a provider's error text is cut: a proxy may answer with a whole HTML page. */
const MAX_ERROR_TEXT = 1000;

// A provider's error text reaches a terminal and a model's context: its control characters
// (an escape code an endpoint chose) are written out as `\uXXXX`, and its length is bounded.
function printableBounded(text: string): string {
  const cut =
    text.length > MAX_ERROR_TEXT
      ? `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters)`
      : text;
  return cut.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Parses a tool call's JSON arguments as the model wrote them. What does not parse is kept as
 * the raw string, so the pipeline answers with an input error the model can act on.
 *
 * @param text The arguments.
 * @returns The object, or the raw string.
 *
 * @example
 * ```ts
 * import { parseToolArguments } from '@toolshed/tool-agent';
 *
 * parseToolArguments('{"a":1}'); // { a: 1 }
 * parseToolArguments('{"a":');   // '{"a":'
 * ```
 */
export function parseToolArguments(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The text of an assistant turn's blocks, joined.
 *
 * @param content Blocks.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { textOf, type ModelTurn } from '@toolshed/tool-agent';
 * declare const turn: ModelTurn;
 *
 * textOf(turn.content);
 * ```
 */
export function textOf(content: string | readonly MessageBlock[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
