import { hookLabel } from './_hook_label.ts';
import { DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS, hookTimeout } from './_hook_timeout.ts';
import { validateHookOutput } from './hook_output.ts';
import type { FunctionHook, HookFunction, HookInput, HookRunResult } from './types.ts';

/** Options of {@linkcode runFunctionHook}. */
export interface RunFunctionHookOptions {
  /** Aborting stops waiting for the hook; the hook sees it through its own `signal`. */
  signal: AbortSignal;
}

/**
 * Runs an in-process hook. The function gets the input and a signal that fires on the caller's
 * abort or at the hook's timeout (seconds, default 60); Toolshed stops waiting at either. A
 * returned object must fit {@linkcode HookOutput}; returning nothing means "go on". A throw is
 * reported as exit code 1 with the message in `stderr`. Never rejects.
 *
 * @param hook A {@linkcode FunctionHook}, or a bare {@linkcode HookFunction}.
 * @param input The hook input.
 * @param options The abort signal.
 * @returns The result, shaped like a command hook's.
 *
 * @example
 * ```ts
 * import { runFunctionHook } from './function_hook.ts';
 * import type { HookInput } from '@toolshed/core';
 * declare const input: HookInput;
 *
 * const result = await runFunctionHook(
 *   function noSecrets(input) {
 *     if (JSON.stringify(input.tool_input).includes('.env')) return { decision: 'block', reason: 'No .env files.' };
 *   },
 *   input,
 *   { signal: new AbortController().signal },
 * );
 * ```
 */
export async function runFunctionHook(
  hook: FunctionHook | HookFunction,
  input: HookInput,
  options: RunFunctionHookOptions,
): Promise<HookRunResult> {
  const label = hookLabel(hook);
  const base: HookRunResult = { hook: label, exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false };
  const fn = typeof hook === 'function' ? hook : hook.fn;
  if (typeof fn !== 'function') return { ...base, startError: `fn must be a function, got ${typeof fn}` };
  const timeout = hookTimeout(typeof hook === 'function' ? undefined : hook.timeout, {
    defaultSeconds: DEFAULT_FUNCTION_HOOK_TIMEOUT_SECONDS,
  });
  if ('error' in timeout) return { ...base, startError: timeout.error };
  const { signal } = options;
  if (signal.aborted) return { ...base, aborted: true };

  // The hook's own signal: fires on the caller's abort and at the timeout, so a well-behaved
  // hook can stop its work instead of running on unseen.
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`Hook "${label}" timed out after ${timeout.seconds} s`));
      resolve('timeout');
    }, timeout.ms);
    onAbort = () => {
      controller.abort(signal.reason);
      resolve('abort');
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

  try {
    const outcome = await Promise.race([
      (async () => ({ value: await fn(input, { signal: controller.signal }) }))(),
      stopped,
    ]);
    if (outcome === 'timeout') return { ...base, timedOut: true, timeoutSeconds: timeout.seconds };
    if (outcome === 'abort') return { ...base, aborted: true };
    const result: HookRunResult = { ...base, exitCode: 0 };
    if (outcome.value === undefined || outcome.value === null) return result;
    const checked = validateHookOutput(outcome.value);
    if ('output' in checked) result.output = checked.output;
    else result.outputError = checked.error;
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, exitCode: 1, stderr: message };
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
