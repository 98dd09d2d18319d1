import { ModelError } from './model_adapter.ts';

/** The idle timeout of a streamed turn unless an adapter is given another: 5 minutes. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

/** What {@linkcode guardedStream} needs to know of the request. */
export interface StreamGuardOptions<T> {
  provider: string;
  model: string;
  /** The caller's signal: its abort ends the stream as an abort. */
  signal?: AbortSignal | undefined;
  /** Milliseconds without an event after which the stream is closed; 0 never. @default 300000 */
  idleTimeoutMs?: number | undefined;
  /**
   * The turn's max tokens, and the characters of text and tool arguments an event carries: an
   * endpoint that writes on past what `maxTokens` allows is cut off, so its output cannot grow
   * the process's memory without end.
   */
  output?: { maxTokens: number; charsOf: (event: T) => number } | undefined;
}

/**
 * Characters a turn may write per max token. Tokens average about 4 characters; the longest (runs
 * of spaces or dashes) reach a few dozen, so a real model stays far below this over a whole turn.
 */
export const CHARS_PER_TOKEN_LIMIT = 32;

/**
 * Opens a streamed model request and yields its events, guarding against an endpoint that
 * stops talking: when no event comes for `idleTimeoutMs` the request is aborted (the connection
 * is closed) and a {@linkcode ModelError} says so. The SDKs end an aborted stream quietly, as if
 * it were complete, so the caller's abort is rethrown here as an abort, never a finished turn.
 *
 * @param open Starts the request with the signal to pass to the SDK.
 * @param options The provider and model (for messages), the caller's signal and the timeout.
 * @returns The events.
 * @throws {ModelError} When the stream went silent for longer than the timeout.
 *
 * @example
 * ```ts
 * import { guardedStream } from './_stream_guard.ts';
 * declare function open(signal: AbortSignal): Promise<AsyncIterable<{ type: string }>>;
 *
 * for await (const event of guardedStream(open, { provider: 'anthropic', model: 'claude-test', idleTimeoutMs: 60_000 }))
 *   console.log(event.type);
 * ```
 */
export async function* guardedStream<T>(
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<T>>,
  options: StreamGuardOptions<T>,
): AsyncGenerator<T> {
  const { signal, provider, model } = options;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!(idleMs >= 0)) throw new RangeError(`idleTimeoutMs must be 0 or more milliseconds, got ${idleMs}`);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  let idled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    if (idleMs > 0)
      timer = setTimeout(() => {
        idled = true;
        controller.abort(new Error('idle timeout'));
      }, idleMs);
  };
  const silent = () =>
    new ModelError(
      `The ${provider} model "${model}" sent nothing for ${idleMs / 1000} s in the middle of its answer, so the request was closed. The endpoint may be overloaded or stuck; try again, or raise the adapter's idleTimeoutMs for a model that thinks long without streaming.`,
    );
  try {
    const events = await open(controller.signal);
    arm();
    const limit = options.output ? options.output.maxTokens * CHARS_PER_TOKEN_LIMIT : Number.POSITIVE_INFINITY;
    let written = 0;
    try {
      for await (const event of events) {
        if (idled) break;
        // Only the wait for the endpoint counts: a consumer slow to ask for the next event is not idle.
        if (timer) clearTimeout(timer);
        written += options.output?.charsOf(event) ?? 0;
        if (written > limit) {
          controller.abort(new Error('output limit'));
          throw new ModelError(
            `The ${provider} model "${model}" wrote more than ${limit} characters in one turn, past what max tokens ${options.output?.maxTokens} allows, so the request was closed. The endpoint is not honouring max_tokens; check the server.`,
          );
        }
        yield event;
        arm();
      }
    } catch (e) {
      if (idled) throw silent();
      throw e;
    }
    if (idled) throw silent();
    if (signal?.aborted) throw abortError(signal);
  } finally {
    if (timer) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The message of a stream that ended without the event that finishes a turn: the connection
 * was cut (a proxy, a crashed server), so what came is not the whole answer.
 *
 * @param who The provider and the model id.
 * @param last The event that was missing.
 * @returns The message.
 *
 * @example
 * ```ts
 * import { incompleteStream } from './_stream_guard.ts';
 *
 * incompleteStream({ provider: 'anthropic', model: 'claude-test' }, 'message_stop');
 * ```
 */
export function incompleteStream(who: { provider: string; model: string }, last: string): string {
  return `The ${who.provider} model "${who.model}"'s stream ended before the turn was complete (no ${last}): the connection was cut, so the partial answer is not used. Try again.`;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const error = new Error('The model request was aborted', { cause: reason });
  error.name = 'AbortError';
  return error;
}
