/** Claude Code's default hook timeout, in seconds. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

// setTimeout fires at once for delays past 2^31-1 ms, which would turn a long timeout into none.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Turns a hook's `timeout` (seconds) into milliseconds for a timer.
 *
 * @param timeout The hook's `timeout`, possibly missing or wrong (it may come from settings).
 * @returns `{ ms, seconds }`, or `{ error }` when the value is not a positive number.
 *
 * @example
 * ```ts
 * import { hookTimeout } from './_hook_timeout.ts';
 *
 * hookTimeout(undefined); // { ms: 60000, seconds: 60 }
 * ```
 */
export function hookTimeout(timeout: unknown): { ms: number; seconds: number } | { error: string } {
  const seconds = timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
  if (typeof seconds !== 'number' || !(seconds > 0)) {
    return { error: `timeout must be a positive number of seconds, got ${JSON.stringify(seconds) ?? String(seconds)}` };
  }
  return { ms: Math.min(Math.ceil(seconds * 1000), MAX_TIMER_MS), seconds };
}
