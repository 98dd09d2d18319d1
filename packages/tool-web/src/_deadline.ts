/** A signal that aborts when the caller's does or when a time limit passes, and which of the two it was. */
export interface Deadline {
  /** Aborts on the caller's abort or at the deadline. */
  readonly signal: AbortSignal;
  /** True once the time limit, not the caller, aborted the signal. */
  readonly timedOut: boolean;
  /** Clears the timer and lets go of the caller's signal; call it when the work is done. */
  dispose(): void;
}

/**
 * Starts a deadline for one exchange: one timer for the whole of it (headers, redirects and
 * body, however slowly they trickle in), linked to the caller's signal.
 *
 * @param outer The caller's signal (the session's interrupt).
 * @param timeoutMs The time limit.
 * @returns The deadline; `dispose()` it in a `finally`.
 *
 * @example
 * ```ts
 * import { startDeadline } from './_deadline.ts';
 * declare const signal: AbortSignal;
 *
 * const deadline = startDeadline(signal, 60_000);
 * try { await fetch('https://example.com/', { signal: deadline.signal }); } finally { deadline.dispose(); }
 * ```
 */
export function startDeadline(outer: AbortSignal, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timed out'));
  }, timeoutMs);
  const onOuterAbort = () => controller.abort(outer.reason ?? new Error('aborted'));
  if (outer.aborted) onOuterAbort();
  else outer.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      outer.removeEventListener('abort', onOuterAbort);
    },
  };
}
