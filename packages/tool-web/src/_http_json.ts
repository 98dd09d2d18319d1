import { request } from 'undici';
import { ToolshedError } from '@toolshed/core';
import { readBody } from './_read_body.ts';
import { startDeadline } from './_deadline.ts';

/** What {@linkcode getJson} needs. */
export interface GetJsonOptions {
  /** The service's name for messages: `Brave Search`. */
  service: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  timeoutMs: number;
  /** A message for a non-2xx status, given the status and the start of the body; undefined for the generic one. */
  explainStatus?: (status: number, body: string) => string | undefined;
}

/**
 * GETs a search service's JSON API under a timeout, reading at most 5 MB (decompressed).
 *
 * @param url The API URL with its query.
 * @param options Headers, signal, timeout and how to explain errors.
 * @returns The parsed JSON.
 * @throws {ToolshedError} `web_search_failed` with a message for the model.
 *
 * @example
 * ```ts
 * import { getJson } from './_http_json.ts';
 * declare const signal: AbortSignal;
 *
 * const body = await getJson(new URL('http://localhost:8888/search?q=x&format=json'), { service: 'SearXNG', headers: {}, signal, timeoutMs: 30_000 });
 * ```
 */
export async function getJson(url: URL, options: GetJsonOptions): Promise<unknown> {
  const deadline = startDeadline(options.signal, options.timeoutMs);
  const where = `${url.origin}${url.pathname}`;
  try {
    const response = await request(url, {
      method: 'GET',
      signal: deadline.signal,
      headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br', ...options.headers },
    });
    const encoding = response.headers['content-encoding'];
    const { data } = await readBody(response.body, Array.isArray(encoding) ? encoding[0] : encoding, {
      maxBytes: 5 * 1024 * 1024,
      progress: { received: 0 },
      url: where,
    });
    const text = data.toString('utf8');
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const explained = options.explainStatus?.(response.statusCode, text.slice(0, 2000));
      throw new ToolshedError(
        'web_search_failed',
        explained ??
          `${options.service} answered HTTP ${response.statusCode} at ${where}: ${oneLine(text, 200) || 'no details'}.`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ToolshedError(
        'web_search_failed',
        `${options.service} at ${where} did not answer with JSON (it began ${JSON.stringify(oneLine(text, 80))}); check the configured URL.`,
      );
    }
  } catch (e) {
    if (ToolshedError.isInstance(e)) throw e;
    if (deadline.timedOut)
      throw new ToolshedError(
        'web_search_failed',
        `${options.service} did not answer within ${options.timeoutMs / 1000} s (${where}); try again later.`,
        { cause: e },
      );
    if (options.signal.aborted) throw e;
    const code = (e as { code?: unknown }).code;
    throw new ToolshedError(
      'web_search_failed',
      `Could not reach ${options.service} at ${where}${typeof code === 'string' ? ` (${code})` : ''}: ${(e as Error).message}`,
      { cause: e },
    );
  } finally {
    deadline.dispose();
  }
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
