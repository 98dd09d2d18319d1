import { getJson } from './_http_json.ts';
import { plainSnippet, withSiteOperators, type SearchBackend, type SearchResult } from './search_backend.ts';

/** Options of {@linkcode braveSearchBackend}. */
export interface BraveSearchOptions {
  /** A Brave Search API subscription token (https://brave.com/search/api/). */
  apiKey: string;
  /** The web search endpoint. @default 'https://api.search.brave.com/res/v1/web/search' */
  endpoint?: string;
  /** Two-letter country the results come from (`country`). @default the service's own */
  country?: string;
  /** Language of the results (`search_lang`). @default the service's own */
  searchLang?: string;
  /** @default the service's own ('moderate') */
  safesearch?: 'off' | 'moderate' | 'strict';
  /** @default 30000 */
  timeoutMs?: number;
}

/** The Brave Search API's web search endpoint. */
export const BRAVE_SEARCH_ENDPOINT = 'https://api.search.brave.com/res/v1/web/search';

// Brave caps `count` at 20 and the query at 400 characters.
const MAX_COUNT = 20;
const MAX_QUERY_CHARS = 400;

/**
 * A {@linkcode SearchBackend} for the Brave Search API (web search): `GET /res/v1/web/search`
 * with the key in `X-Subscription-Token`, results from `web.results` (`title`, `url`,
 * `description` with its `<strong>` highlighting removed). Domain filters go into the query
 * as `site:` / `-site:` operators.
 *
 * @param options The API key and optional endpoint, country, language and safe search.
 * @returns The backend.
 * @throws {TypeError} If `apiKey` is empty.
 *
 * @example
 * ```ts
 * import { braveSearchBackend, webTools } from '@toolshed/tool-web';
 *
 * const family = webTools({ search: braveSearchBackend({ apiKey: process.env.BRAVE_API_KEY! }) });
 * ```
 */
export function braveSearchBackend(options: BraveSearchOptions): SearchBackend {
  if (typeof options?.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError(
      'braveSearchBackend needs an apiKey: a Brave Search API subscription token from https://brave.com/search/api/',
    );
  }
  const endpoint = new URL(options.endpoint ?? BRAVE_SEARCH_ENDPOINT);
  return {
    name: 'Brave Search',
    async search(request) {
      const url = new URL(endpoint.href);
      url.searchParams.set('q', withSiteOperators(request).slice(0, MAX_QUERY_CHARS));
      // Ask for more than needed when filtering, since some results will be dropped.
      const filtering = request.allowedDomains.length + request.blockedDomains.length > 0;
      url.searchParams.set('count', String(Math.min(MAX_COUNT, filtering ? MAX_COUNT : request.maxResults)));
      if (options.country) url.searchParams.set('country', options.country);
      if (options.searchLang) url.searchParams.set('search_lang', options.searchLang);
      if (options.safesearch) url.searchParams.set('safesearch', options.safesearch);
      const body = await getJson(url, {
        service: 'Brave Search',
        headers: { 'x-subscription-token': options.apiKey },
        signal: request.signal,
        timeoutMs: options.timeoutMs ?? 30_000,
        explainStatus: explainBraveStatus,
      });
      const results = (body as { web?: { results?: unknown } } | null)?.web?.results;
      if (!Array.isArray(results)) return [];
      const out: SearchResult[] = [];
      for (const item of results as Record<string, unknown>[]) {
        if (typeof item?.url !== 'string') continue;
        const extra = Array.isArray(item.extra_snippets)
          ? item.extra_snippets.filter((s): s is string => typeof s === 'string')
          : [];
        const snippet = plainSnippet(item.description) || plainSnippet(extra[0]);
        out.push({ title: plainSnippet(item.title) || item.url, url: item.url, snippet });
      }
      return out;
    },
  };
}

function explainBraveStatus(status: number, body: string): string | undefined {
  let detail = '';
  try {
    const parsed = JSON.parse(body) as { error?: { detail?: unknown; code?: unknown } };
    const d = parsed?.error?.detail;
    const c = parsed?.error?.code;
    detail = [typeof c === 'string' ? c : '', typeof d === 'string' ? d : ''].filter(Boolean).join(': ');
  } catch {
    // Not Brave's error format; the status says enough.
  }
  const suffix = detail ? ` (${detail})` : '';
  if (status === 401 || status === 403 || (status === 422 && /token|subscription/i.test(detail))) {
    return `Brave Search rejected the API key, HTTP ${status}${suffix}: the user should check the key given to braveSearchBackend() or BRAVE_API_KEY.`;
  }
  if (status === 429)
    return `Brave Search refused the request: rate limit or monthly quota reached, HTTP 429${suffix}. Try again later.`;
  if (status === 422) return `Brave Search rejected the query, HTTP 422${suffix}: shorten or simplify it.`;
  return undefined;
}
