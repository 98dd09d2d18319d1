import { hookLabel } from './_hook_label.ts';
import { hookTimeout } from './_hook_timeout.ts';
import { parseHookStdout } from './hook_output.ts';
import type { HookInput, HookRunResult, HttpHook } from './types.ts';

const MAX_BODY_CHARS = 1024 * 1024;

/**
 * Runs one `http` hook: POSTs the hook input as JSON (what a command hook gets on stdin) to the
 * hook's URL, under the hook's timeout. A 2xx response is exit 0 and its body is read as a
 * command hook's stdout (JSON output or plain text). A status other than 2xx, a network error, a
 * URL that is not `http:`/`https:` and a timeout are failures (`startError` says which), which
 * do not block the call unless the hook is `failClosed`. Never rejects.
 *
 * @param hook The http hook.
 * @param input The hook input, sent as the request body.
 * @param options `signal`: aborting stops waiting for the response.
 * @returns The run result, shaped like a command hook's.
 *
 * @example
 * ```ts
 * import { runHttpHook } from './http_hook.ts';
 * import type { HookInput } from '@toolshed/core';
 * declare const input: HookInput;
 * const signal = AbortSignal.timeout(30_000);
 *
 * const result = await runHttpHook({ type: 'http', url: 'http://127.0.0.1:8080/hook' }, input, { signal });
 * result.output?.decision; // 'block' when the server answered {"decision":"block","reason":"…"}
 * ```
 */
export async function runHttpHook(
  hook: HttpHook,
  input: HookInput,
  options: { signal: AbortSignal },
): Promise<HookRunResult> {
  const label = hookLabel(hook);
  const base: HookRunResult = { hook: label, exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false };
  const timeout = hookTimeout(hook.timeout);
  if ('error' in timeout) return { ...base, startError: timeout.error };
  let url: URL;
  try {
    url = new URL(hook.url);
  } catch {
    return {
      ...base,
      startError: `has the URL ${JSON.stringify(hook.url)}, which is not a URL: write for example "url": "http://127.0.0.1:8080/hook"`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ...base, startError: `has the URL "${hook.url}", which is not http: or https:` };
  }
  if (options.signal.aborted) return { ...base, aborted: true };
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), timeout.ms);
  const signal = AbortSignal.any([options.signal, timer.signal]);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...expandHeaders(hook) },
      body: JSON.stringify(input),
      signal,
      redirect: 'error',
    });
    const text = await response.text();
    const truncated = text.length > MAX_BODY_CHARS;
    const body = truncated ? text.slice(0, MAX_BODY_CHARS) : text;
    if (!response.ok) {
      const said = body.trim().split('\n', 1)[0]?.slice(0, 300) ?? '';
      return {
        ...base,
        stderr: body,
        startError: `answered HTTP ${response.status}${said ? `: ${said}` : ''} (an http hook must answer 2xx)`,
      };
    }
    const parsed = parseHookStdout(body, truncated);
    return {
      ...base,
      exitCode: 0,
      stdout: body,
      ...(parsed.output ? { output: parsed.output } : {}),
      ...(parsed.error ? { outputError: parsed.error } : {}),
      ...(truncated ? { outputTruncated: true } : {}),
    };
  } catch (e) {
    if (options.signal.aborted) return { ...base, aborted: true };
    if (timer.signal.aborted) return { ...base, timedOut: true, timeoutSeconds: timeout.seconds };
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return {
      ...base,
      startError: `could not be reached (${cause?.code ?? cause?.message ?? (e as Error).message}): check the URL and that the server runs`,
    };
  } finally {
    clearTimeout(handle);
  }
}

/** `$NAME` and `${NAME}` in header values, for the names the hook lists in `allowedEnvVars`; others become empty. */
function expandHeaders(hook: HttpHook): Record<string, string> {
  const allowed = new Set(hook.allowedEnvVars ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(hook.headers ?? {})) {
    out[name] = String(value).replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, a?: string, b?: string) => {
        const key = (a ?? b)!;
        return allowed.has(key) ? (process.env[key] ?? '') : '';
      },
    );
  }
  return out;
}
