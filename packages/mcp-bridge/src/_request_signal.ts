/**
 * The signal the MCP SDK is given for one request, tied to the call's own signal only while the
 * request runs.
 *
 * Why not the call's signal itself: the SDK's `request` adds an `abort` listener to the signal it
 * is given and never removes it, so the call's signal (the turn's, or one the caller keeps for a
 * whole session) would gain one listener per call, holding the request's closures for as long as
 * it lives; a composite signal (`AbortSignal.any`) with a listener is even kept from garbage
 * collection. Why not a fresh `AbortController` per call: making an `AbortSignal` costs several
 * microseconds in Node 20 (its prototype is set after construction), a large part of what the
 * bridge may add to a call. So the SDK gets what its `request` reads of a signal — `aborted`,
 * `reason`, `throwIfAborted()` and its `abort` listeners — in a plain object. The cancellation
 * tests (a cancelled call sends `notifications/cancelled`) fail if a new SDK reads more of it.
 *
 * @example
 * ```ts
 * import { RequestSignal } from './_request_signal.ts';
 * declare const callSignal: AbortSignal;
 * declare const send: (signal: AbortSignal) => Promise<unknown>;
 *
 * const request = new RequestSignal(callSignal);
 * try {
 *   await send(request.signal);
 * } finally {
 *   request.dispose();
 * }
 * ```
 */
export class RequestSignal {
  aborted = false;
  reason: unknown = undefined;
  readonly #source: AbortSignal;
  #listeners: ((event: { type: 'abort' }) => void)[] = [];
  readonly #onAbort = (): void => this.#abort(this.#source.reason);

  constructor(source: AbortSignal) {
    this.#source = source;
    if (source.aborted) {
      this.aborted = true;
      this.reason = source.reason;
    } else {
      source.addEventListener('abort', this.#onAbort);
    }
  }

  /** This object, typed as the SDK's options take it. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: (event: { type: 'abort' }) => void): void {
    if (type === 'abort' && !this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(type: string, listener: (event: { type: 'abort' }) => void): void {
    if (type === 'abort') this.#listeners = this.#listeners.filter((l) => l !== listener);
  }

  /** Unties it from the call's signal: the request is over (answered, failed or cancelled). */
  dispose(): void {
    this.#source.removeEventListener('abort', this.#onAbort);
    this.#listeners = [];
  }

  #abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener({ type: 'abort' });
  }
}
