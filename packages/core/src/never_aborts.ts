/** The signals {@linkcode neverAbortingSignal} made: nobody holds their controller. */
const made = new WeakSet<AbortSignal>();

/**
 * A signal nobody can abort (its controller is dropped at once): what a session's turns follow
 * when no signal is given. {@linkcode cannotAbort} recognises it, so that per-call work that only
 * serves cancellation (an abort listener, a request's own signal) can be skipped.
 *
 * @returns The signal.
 *
 * @example
 * ```ts
 * import { cannotAbort, neverAbortingSignal } from '@toolshed/core/internal';
 *
 * const signal = neverAbortingSignal();
 * cannotAbort(signal); // true
 * ```
 */
export function neverAbortingSignal(): AbortSignal {
  const signal = new AbortController().signal;
  made.add(signal);
  return signal;
}

/**
 * Whether a signal can never abort (it was made by {@linkcode neverAbortingSignal}): a tool then
 * needs no abort listener on it. False for any other signal, even one that never does abort.
 *
 * @param signal The signal a call was given.
 * @returns Whether nothing can abort it.
 *
 * @example
 * ```ts
 * import { cannotAbort } from '@toolshed/core/internal';
 * declare const signal: AbortSignal;
 *
 * if (!cannotAbort(signal)) signal.addEventListener('abort', () => console.log('stopped'));
 * ```
 */
export function cannotAbort(signal: AbortSignal): boolean {
  return made.has(signal);
}
