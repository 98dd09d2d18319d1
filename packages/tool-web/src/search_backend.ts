/** One search as a backend receives it. */
export interface SearchRequest {
  /** The model's query, as given. */
  query: string;
  /** Only results from these domains (and their subdomains) are wanted; empty for any. */
  allowedDomains: readonly string[];
  /** Results from these domains (and their subdomains) are not wanted. */
  blockedDomains: readonly string[];
  /** How many results to return at most. */
  maxResults: number;
  signal: AbortSignal;
}

/** One search result. */
export interface SearchResult {
  title: string;
  url: string;
  /** A short excerpt of the page, plain text. */
  snippet: string;
}

/**
 * A web search service WebSearch can use: Brave Search ({@linkcode braveSearchBackend}),
 * SearXNG ({@linkcode searxngSearchBackend}), or your own. WebSearch applies the domain filters
 * to what `search` returns in any case; a backend may also pass them to its service so that
 * the results it returns are the wanted ones.
 *
 * @example
 * ```ts
 * import type { SearchBackend } from '@toolshed/tool-web';
 *
 * const backend: SearchBackend = {
 *   name: 'Fixed',
 *   async search() { return [{ title: 'Example', url: 'https://example.com/', snippet: 'An example.' }]; },
 * };
 * ```
 */
export interface SearchBackend {
  /** The service's name, shown in results and errors: `Brave Search`. */
  readonly name: string;
  /** Runs one search; throws with a message for the model when the service fails. */
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/**
 * Search operators that ask a web search engine for the wanted domains: `site:` for allowed
 * domains (joined with OR), `-site:` for blocked ones. Brave and the engines behind SearXNG
 * understand them; WebSearch still filters the results itself.
 *
 * @param request The search.
 * @returns The query with the operators appended.
 *
 * @example
 * ```ts
 * import { withSiteOperators } from '@toolshed/tool-web/internal';
 *
 * withSiteOperators({ query: 'zod', allowedDomains: ['zod.dev'], blockedDomains: [] }); // 'zod site:zod.dev'
 * ```
 */
export function withSiteOperators(request: Pick<SearchRequest, 'query' | 'allowedDomains' | 'blockedDomains'>): string {
  const parts = [request.query.trim()];
  const allowed = request.allowedDomains.filter(Boolean);
  if (allowed.length === 1) parts.push(`site:${allowed[0]}`);
  else if (allowed.length > 1) parts.push(`(${allowed.map((d) => `site:${d}`).join(' OR ')})`);
  for (const domain of request.blockedDomains.filter(Boolean)) parts.push(`-site:${domain}`);
  return parts.join(' ');
}

/**
 * Plain text from a snippet that may carry HTML highlighting (`<strong>`) and entities.
 *
 * @param text The snippet.
 * @returns The text, tags removed, entities decoded, whitespace collapsed.
 *
 * @example
 * ```ts
 * import { plainSnippet } from '@toolshed/tool-web/internal';
 *
 * plainSnippet('The <strong>fast</strong> &amp; small'); // 'The fast & small'
 * ```
 */
export function plainSnippet(text: unknown): string {
  if (typeof text !== 'string') return '';
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp|#39);/gi, (_, e: string) => {
      const lower = e.toLowerCase();
      if (lower.startsWith('#x')) return codePoint(parseInt(lower.slice(2), 16));
      if (lower.startsWith('#')) return codePoint(Number(lower.slice(1)));
      return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' } as Record<string, string>)[lower] ?? '';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** A numeric character reference's character; one past Unicode, a NUL or a surrogate is U+FFFD, as HTML reads it. */
function codePoint(n: number): string {
  if (!Number.isInteger(n) || n <= 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(n);
}
