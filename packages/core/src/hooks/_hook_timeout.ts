/** Claude Code's default timeout of a command (and http) hook, in seconds: ten minutes. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 600;

/** The default timeout of an in-process function hook, in seconds (the Agent SDK's for its callbacks). */
export const DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS = 60;

// setTimeout fires at once for delays past 2^31-1 ms, which would turn a long timeout into none.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Turns a hook's `timeout` (seconds) into milliseconds for a timer.
 *
 * @param timeout The hook's `timeout`, possibly missing or wrong (it may come from settings).
 * @param options `defaultSeconds` when `timeout` is missing: {@linkcode DEFAULT_HOOK_TIMEOUT_SECONDS}
 *   unless given (function hooks give {@linkcode DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS}).
 * @returns `{ ms, seconds }`, or `{ error }` when the value is not a positive number.
 *
 * @example
 * ```ts
 * import { hookTimeout } from './_hook_timeout.ts';
 *
 * hookTimeout(undefined); // { ms: 600000, seconds: 600 }
 * hookTimeout(30); // { ms: 30000, seconds: 30 }
 * ```
 */
export function hookTimeout(
  timeout: unknown,
  { defaultSeconds = DEFAULT_HOOK_TIMEOUT_SECONDS }: { defaultSeconds?: number } = {},
): { ms: number; seconds: number } | { error: string } {
  const seconds = timeout ?? defaultSeconds;
  if (typeof seconds !== 'number' || !(seconds > 0)) {
    return { error: `timeout must be a positive number of seconds, got ${JSON.stringify(seconds) ?? String(seconds)}` };
  }
  return { ms: Math.min(Math.ceil(seconds * 1000), MAX_TIMER_MS), seconds };
}
