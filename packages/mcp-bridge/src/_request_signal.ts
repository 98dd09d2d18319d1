/**
 * The signal the MCP SDK is given for one request: what its `request` reads of a signal —
 * `aborted`, `reason`, `throwIfAborted()` and its `abort` listeners — in a plain object, aborted
 * by the {@linkcode AbortWatch} that made it when the call's own signal aborts.
 *
 * Why not the call's signal itself: the SDK's `request` adds an `abort` listener to the signal it
 * is given and never removes it, so the call's signal (the turn's, or one the caller keeps for a
 * whole session) would gain one listener per call, holding the request's closures for as long as
 * it lives; a composite signal (`AbortSignal.any`) with a listener is even kept from garbage
 * collection. Why not a fresh `AbortController` per call: making an `AbortSignal` costs several
 * microseconds in Node 20 (its prototype is set after construction), a large part of what the
 * bridge may add to a call. The cancellation tests (a cancelled call sends
 * `notifications/cancelled`) fail if a new SDK reads more of it.
 *
 * @example
 * ```ts
 * import { AbortWatch } from './_request_signal.ts';
 * declare const callSignal: AbortSignal;
 * declare const send: (signal: AbortSignal) => Promise<unknown>;
 *
 * const watch = new AbortWatch();
 * const request = watch.request(callSignal);
 * try {
 *   await send(request.signal);
 * } finally {
 *   watch.done(request);
 * }
 * ```
 */
export class RequestSignal {
  aborted = false;
  reason: unknown = undefined;
  /** The call's signal it follows. */
  readonly source: AbortSignal;
  #listeners: ((event: { type: 'abort' }) => void)[] = [];

  constructor(source: AbortSignal) {
    this.source = source;
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

  /** Aborts it and tells its listeners, once. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener({ type: 'abort' });
  }
}

/**
 * The requests in flight on each call signal, with one `abort` listener per signal for all of
 * them. The listener of the signal used last stays after its requests end, as calls follow one
 * another on the same turn or session signal: a call then adds and removes no listener of its
 * own (a listener costs a microsecond or two to add and remove in Node 20, and this runs per
 * call). It goes once a call comes on another signal, or at {@linkcode AbortWatch.clear}: at
 * most one listener is left on a signal nothing runs on.
 *
 * @example
 * ```ts
 * import { AbortWatch } from './_request_signal.ts';
 *
 * const watch = new AbortWatch();
 * const turn = new AbortController();
 * const request = watch.request(turn.signal);
 * turn.abort();
 * request.signal.aborted; // true
 * watch.done(request);
 * ```
 */
export class AbortWatch {
  readonly #watched = new Map<AbortSignal, { requests: Set<RequestSignal>; onAbort: () => void }>();
  #last: AbortSignal | undefined;

  /** A request's signal that aborts with `source` (at once when `source` has aborted). */
  request(source: AbortSignal): RequestSignal {
    const request = new RequestSignal(source);
    if (source.aborted) {
      request.abort(source.reason);
      return request;
    }
    let entry = this.#watched.get(source);
    if (entry === undefined) {
      const requests = new Set<RequestSignal>();
      const onAbort = () => {
        this.#unwatch(source);
        for (const r of requests) r.abort(source.reason);
      };
      entry = { requests, onAbort };
      this.#watched.set(source, entry);
      source.addEventListener('abort', onAbort);
    }
    entry.requests.add(request);
    if (this.#last !== source) {
      const previous = this.#last;
      this.#last = source;
      if (previous !== undefined) this.#release(previous);
    }
    return request;
  }

  /** The request is over (answered, failed or cancelled). */
  done(request: RequestSignal): void {
    const entry = this.#watched.get(request.source);
    if (entry === undefined) return;
    entry.requests.delete(request);
    if (request.source !== this.#last) this.#release(request.source);
  }

  /** Removes every listener (the connection is closed). */
  clear(): void {
    for (const signal of [...this.#watched.keys()]) this.#unwatch(signal);
  }

  /** How many signals it listens to (for tests). */
  get listening(): number {
    return this.#watched.size;
  }

  #release(signal: AbortSignal): void {
    if (this.#watched.get(signal)?.requests.size === 0) this.#unwatch(signal);
  }

  #unwatch(signal: AbortSignal): void {
    const entry = this.#watched.get(signal);
    if (entry === undefined) return;
    signal.removeEventListener('abort', entry.onAbort);
    this.#watched.delete(signal);
    if (this.#last === signal) this.#last = undefined;
  }
}
