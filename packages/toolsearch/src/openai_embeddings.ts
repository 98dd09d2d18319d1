import type { EmbedFunction } from './embedding_ranker.ts';

/** Options of {@linkcode openAiEmbeddings}. */
export interface OpenAiEmbeddingsOptions {
  /** The API's base URL, up to and including `/v1` (`https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` for a local server). */
  baseUrl: string;
  /** The embedding model's name, as the endpoint knows it. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; a local server may need none. @default no header */
  apiKey?: string;
  /** Extra request headers (an organisation, a proxy's token). @default none */
  headers?: Record<string, string>;
  /** Asks the endpoint for vectors of this length, where the model can shorten them. @default the model's */
  dimensions?: number;
  /** Milliseconds before a request is given up. @default 30 000 */
  timeoutMs?: number;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * An embedding function for any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Azure's
 * compatible route, vLLM, llama.cpp's server, Ollama, LM Studio, a gateway): `POST
 * <baseUrl>/embeddings` with `{ model, input }`, vectors read from `data[].embedding` in `index`
 * order. Pass it to {@linkcode embeddingRanker}, best inside a {@linkcode hybridRanker} with the
 * lexical ranker, which keeps exact names and rare words that embeddings blur.
 *
 * @param options Where the endpoint is, the model, the key.
 * @returns The embedding function.
 * @throws {TypeError} If `baseUrl` is not an http(s) URL or `model` is empty.
 *
 * @example
 * ```ts
 * import { createSession, type Family } from '@toolshed/core';
 * import { embeddingRanker, hybridRanker, lexicalRanker, openAiEmbeddings, toolSearch } from '@toolshed/toolsearch';
 * declare const cwd: string;
 * declare const families: Family[];
 *
 * const embed = openAiEmbeddings({ baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-small', apiKey: process.env.OPENAI_API_KEY ?? '' });
 * const ranker = hybridRanker([lexicalRanker(), embeddingRanker({ embed })]);
 * const session = await createSession({ cwd, families: [toolSearch({ ranker }), ...families] });
 * ```
 */
export function openAiEmbeddings(options: OpenAiEmbeddingsOptions): EmbedFunction {
  let base: URL;
  try {
    base = new URL(options?.baseUrl);
  } catch {
    throw new TypeError(
      `openAiEmbeddings needs baseUrl as an http(s) URL such as "https://api.openai.com/v1", got ${JSON.stringify(options?.baseUrl)}`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new TypeError(`openAiEmbeddings needs an http(s) baseUrl, got "${base.protocol}"`);
  if (typeof options.model !== 'string' || !options.model)
    throw new TypeError('openAiEmbeddings needs the name of an embedding model as "model"');
  const url = `${base.href.replace(/\/+$/, '')}/embeddings`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (texts) => {
    if (texts.length === 0) return [];
    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
    const body: Record<string, unknown> = { model: options.model, input: [...texts] };
    if (options.dimensions !== undefined) body['dimensions'] = options.dimensions;
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new Error(`The embeddings endpoint ${url} could not be reached: ${(e as Error).message}`, { cause: e });
    }
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `The embeddings endpoint ${url} answered ${response.status}: ${text.slice(0, 300)}${response.status === 401 ? ' (check apiKey)' : response.status === 404 ? ' (check baseUrl ends with /v1 and the model name)' : ''}`,
      );
    }
    let parsed: { data?: { index?: number; embedding?: unknown }[] };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new TypeError(
        `The embeddings endpoint ${url} answered with something that is not JSON: ${text.slice(0, 200)}`,
      );
    }
    const data = Array.isArray(parsed?.data) ? parsed.data : undefined;
    if (!data || data.length !== texts.length) {
      throw new TypeError(
        `The embeddings endpoint ${url} returned ${data ? data.length : 'no'} vectors for ${texts.length} texts; expected { data: [{ index, embedding }] } with one entry per text`,
      );
    }
    const out: number[][] = new Array(texts.length);
    data.forEach((d, i) => {
      const at = typeof d.index === 'number' ? d.index : i;
      if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number')) {
        throw new TypeError(
          `The embeddings endpoint ${url} returned entry ${at} without a numeric "embedding" (a base64 encoding_format is not supported)`,
        );
      }
      out[at] = d.embedding as number[];
    });
    return out;
  };
}
