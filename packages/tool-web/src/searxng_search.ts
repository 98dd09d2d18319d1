import { getJson } from './_http_json.ts';
import { plainSnippet, withSiteOperators, type SearchBackend, type SearchResult } from './search_backend.ts';

/** Options of {@linkcode searxngSearchBackend}. */
export interface SearxngSearchOptions {
  /** The instance's base URL, such as `http://localhost:8888` or `https://example.org/searxng/`. */
  url: string;
  /** Comma-separated categories (`general`, `it`, `science`, …). @default the instance's own */
  categories?: string;
  /** Comma-separated engines. @default the instance's own */
  engines?: string;
  /** Language code (`en`, `de`, `all`). @default the instance's own */
  language?: string;
  /** 0 off, 1 moderate, 2 strict. @default the instance's own */
  safesearch?: 0 | 1 | 2;
  /** Extra headers, for an instance behind authentication. @default {} */
  headers?: Record<string, string>;
  /** @default 30000 */
  timeoutMs?: number;
}

/**
 * A {@linkcode SearchBackend} for a SearXNG instance (self-hosted metasearch, no key):
 * `GET <url>/search?q=…&format=json`, results from `results` (`title`, `url`, `content`). The
 * instance must allow the JSON format (`search.formats` in its `settings.yml`). Domain filters
 * go into the query as `site:` / `-site:` operators, which SearXNG passes to its engines.
 *
 * @param options The instance URL and optional categories, engines, language and safe search.
 * @returns The backend.
 * @throws {TypeError} If `url` is not an http(s) URL.
 *
 * @example
 * ```ts
 * import { searxngSearchBackend, webTools } from '@toolshed/tool-web';
 *
 * const family = webTools({ search: searxngSearchBackend({ url: 'http://localhost:8888' }) });
 * ```
 */
export function searxngSearchBackend(options: SearxngSearchOptions): SearchBackend {
  let base: URL;
  try {
    base = new URL(options?.url);
  } catch {
    throw new TypeError(
      `searxngSearchBackend needs the instance's URL, such as "http://localhost:8888"; got ${JSON.stringify(options?.url)}`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`searxngSearchBackend needs an http or https URL, got "${options.url}"`);
  }
  if (!base.pathname.endsWith('/')) base.pathname = `${base.pathname}/`;
  const endpoint = new URL('search', base);
  return {
    name: 'SearXNG',
    async search(request) {
      const url = new URL(endpoint.href);
      url.searchParams.set('q', withSiteOperators(request));
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', '1');
      if (options.categories) url.searchParams.set('categories', options.categories);
      if (options.engines) url.searchParams.set('engines', options.engines);
      if (options.language) url.searchParams.set('language', options.language);
      if (options.safesearch !== undefined) url.searchParams.set('safesearch', String(options.safesearch));
      const body = await getJson(url, {
        service: 'SearXNG',
        headers: options.headers ?? {},
        signal: request.signal,
        timeoutMs: options.timeoutMs ?? 30_000,
        explainStatus: (status) =>
          status === 403
            ? `The SearXNG instance at ${base.href} refuses JSON output (HTTP 403): its administrator must add "json" to search.formats in settings.yml.`
            : status === 429
              ? `The SearXNG instance at ${base.href} is rate-limiting requests (HTTP 429); try again later or disable its limiter for this client.`
              : undefined,
      });
      const results = (body as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) return [];
      const out: SearchResult[] = [];
      for (const item of results as Record<string, unknown>[]) {
        if (typeof item?.url !== 'string') continue;
        out.push({ title: plainSnippet(item.title) || item.url, url: item.url, snippet: plainSnippet(item.content) });
      }
      return out;
    },
  };
}
