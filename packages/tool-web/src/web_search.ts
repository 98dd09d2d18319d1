import { z } from 'zod';
import { buildTool, ToolshedError, type Tool, type ValidationResult } from '@toolshed/core';
import { braveSearchBackend } from './brave_search.ts';
import { searxngSearchBackend } from './searxng_search.ts';
import { hostPatternMatches, parseHostPattern, type HostPattern } from './host_pattern.ts';
import type { SearchBackend, SearchResult } from './search_backend.ts';
import { neutralizePageText } from './_page_text.ts';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** WebSearch has no search provider configured. */
    web_search_disabled: true;
    /** The search provider failed or answered with something unusable. */
    web_search_failed: true;
  }
}

/** Input of {@linkcode webSearchTool}: Claude Code's fields. */
export const webSearchInput = z.strictObject({
  query: z.string().min(2).describe('The search query to use'),
  allowed_domains: z.array(z.string()).optional().describe('Only include search results from these domains'),
  blocked_domains: z.array(z.string()).optional().describe('Never include search results from these domains'),
});

/** What a WebSearch call returns; the model sees `result`. */
export interface WebSearchOutput {
  query: string;
  /** The backend's name: `Brave Search`, `SearXNG`. */
  backend: string;
  /** The results after domain filtering. */
  results: SearchResult[];
  durationMs: number;
  /** What the model reads: a Markdown list. */
  result: string;
}

/** Options of {@linkcode createWebSearchTool}. */
export interface WebSearchOptions {
  /**
   * The search service, or false to turn WebSearch off. When left out, it is configured from
   * the environment: `BRAVE_API_KEY` (or `BRAVE_SEARCH_API_KEY`) for Brave Search, else
   * `SEARXNG_URL` for a SearXNG instance; with neither, WebSearch is disabled.
   * @default from the environment
   */
  search?: SearchBackend | false;
  /** Where to read the variables above. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Results returned at most. @default 10 */
  maxResults?: number;
  /** Deferred: only its name is sent until ToolSearch loads it. @default true */
  deferSearch?: boolean;
}

/**
 * What the user is told when WebSearch is disabled for want of a backend.
 * @example
 * ```ts
 * import { WEB_SEARCH_SETUP_HINT } from '@toolshed/tool-web';
 *
 * console.log(WEB_SEARCH_SETUP_HINT);
 * ```
 */
export const WEB_SEARCH_SETUP_HINT =
  'WebSearch is disabled: no search backend is configured. Set BRAVE_API_KEY (a Brave Search API key) or SEARXNG_URL ' +
  '(a SearXNG instance with JSON output enabled), or pass webTools({ search: braveSearchBackend({ apiKey }) }) or ' +
  'webTools({ search: searxngSearchBackend({ url }) }).';

const DESCRIPTION = `Searches the web and returns the results as a Markdown list of titles, links and snippets.
- Use it for information beyond your knowledge: recent events, current versions and releases, documentation you do not know, error messages to look up.
- allowed_domains limits results to those domains (and their subdomains); blocked_domains leaves those out. Give one or the other, not both.
- Results are search snippets only: read a page with WebFetch when you need its content.
- After answering from the results, cite the sources you used as Markdown links.`;

/**
 * The search backend the environment configures: `BRAVE_API_KEY` or `BRAVE_SEARCH_API_KEY`
 * for Brave Search, else `SEARXNG_URL` for SearXNG.
 *
 * @param env The environment.
 * @returns The backend, or undefined when neither is set.
 * @throws {TypeError} If `SEARXNG_URL` is not an http(s) URL (the message names the variable).
 *
 * @example
 * ```ts
 * import { searchBackendFromEnv } from '@toolshed/tool-web';
 *
 * searchBackendFromEnv({ SEARXNG_URL: 'http://localhost:8888' })?.name; // 'SearXNG'
 * ```
 */
export function searchBackendFromEnv(env: Readonly<Record<string, string | undefined>>): SearchBackend | undefined {
  const braveKey = env['BRAVE_API_KEY']?.trim() || env['BRAVE_SEARCH_API_KEY']?.trim();
  if (braveKey) return braveSearchBackend({ apiKey: braveKey });
  const searxng = env['SEARXNG_URL']?.trim();
  if (!searxng) return undefined;
  try {
    return searxngSearchBackend({ url: searxng });
  } catch {
    throw new TypeError(
      `SEARXNG_URL ${JSON.stringify(searxng)} is not an http or https URL: set it to the SearXNG instance's address, such as "http://localhost:8888"`,
    );
  }
}

/**
 * What the user is told when WebSearch is off for want of a working backend: how to configure
 * one, or what is wrong with the configuration in the environment (a `SEARXNG_URL` that is no URL).
 *
 * @param options The options WebSearch was built with.
 * @returns The notice: a `warn` naming the bad variable, or an `info` with
 *   {@linkcode WEB_SEARCH_SETUP_HINT} when nothing is configured.
 *
 * @example
 * ```ts
 * import { webSearchDisabledNotice } from './web_search.ts';
 *
 * webSearchDisabledNotice({ env: { SEARXNG_URL: 'localhost:8888' } });
 * // { level: 'warn', message: 'WebSearch is disabled: SEARXNG_URL "localhost:8888" is not an http or https URL: …' }
 * ```
 */
export function webSearchDisabledNotice(options: WebSearchOptions = {}): { level: 'info' | 'warn'; message: string } {
  const { problem } = configuredBackend(options);
  if (problem) return { level: 'warn', message: `WebSearch is disabled: ${problem}.` };
  return { level: 'info', message: WEB_SEARCH_SETUP_HINT };
}

function configuredBackend(options: WebSearchOptions): {
  backend: SearchBackend | undefined;
  problem: string | undefined;
} {
  if (options.search === false) return { backend: undefined, problem: undefined };
  if (options.search) return { backend: options.search, problem: undefined };
  try {
    return { backend: searchBackendFromEnv(options.env ?? process.env), problem: undefined };
  } catch (e) {
    // A bad variable turns WebSearch off with a notice; it must not break the session.
    return { backend: undefined, problem: (e as Error).message };
  }
}

/**
 * Builds a WebSearch tool over a search backend. Without one (none given and none in the
 * environment, or a malformed `SEARXNG_URL`) the tool is disabled: `isEnabled()` is false and
 * the session leaves it out.
 *
 * @param options The backend, the result count, deferral.
 * @returns The tool.
 * @throws {RangeError} If `maxResults` is not a whole number from 1 to 50.
 *
 * @example
 * ```ts
 * import { createWebSearchTool, searxngSearchBackend } from '@toolshed/tool-web';
 *
 * const search = createWebSearchTool({ search: searxngSearchBackend({ url: 'http://localhost:8888' }) });
 * ```
 */
export function createWebSearchTool(options: WebSearchOptions = {}): Tool<typeof webSearchInput, WebSearchOutput> {
  const maxResults = options.maxResults ?? 10;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
    throw new RangeError(
      `WebSearch option maxResults must be a whole number from 1 to 50, got ${String(options.maxResults)}`,
    );
  }
  // Resolved on first use, so importing the package does not read the environment.
  let resolved: SearchBackend | undefined | null = null;
  const backend = (): SearchBackend | undefined => {
    if (resolved === null) resolved = configuredBackend(options).backend;
    return resolved;
  };
  return buildTool({
    name: 'WebSearch',
    searchHint: 'search the web for current information, documentation, news',
    description: DESCRIPTION,
    inputSchema: webSearchInput,
    inputExamples: [{ query: 'node 20 AbortSignal.any support', allowed_domains: ['nodejs.org'] }],
    isEnabled: () => backend() !== undefined,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    shouldDefer: options.deferSearch ?? true,
    interruptBehavior: 'cancel',
    getToolUseSummary: ({ query }) => query,
    renderResult: (output) =>
      `${output.results.length} result${output.results.length === 1 ? '' : 's'} from ${output.backend}`,
    mapResult: (output) => output.result,
    validateInput: (input) => validateSearch(input),
    async call({ query, allowed_domains, blocked_domains }, _ctx, { signal, onProgress }) {
      const service = backend();
      if (!service) throw new ToolshedError('web_search_disabled', WEB_SEARCH_SETUP_HINT);
      const started = performance.now();
      const allowed = (allowed_domains ?? []).map(domainOf);
      const blocked = (blocked_domains ?? []).map(domainOf);
      onProgress({ message: `Searching ${service.name} for "${query}"` });
      const raw = await service.search({
        query,
        allowedDomains: allowed.map((p) => p.host),
        blockedDomains: blocked.map((p) => p.host),
        maxResults,
        signal,
      });
      const seen = new Set<string>();
      const results = raw
        .flatMap((r) => {
          const url = tryHttpUrl(r.url);
          if (!url || seen.has(url.href)) return [];
          seen.add(url.href);
          if (allowed.length > 0 && !allowed.some((p) => hostPatternMatches(p, url))) return [];
          if (blocked.some((p) => hostPatternMatches(p, url))) return [];
          // The URL as the parser wrote it: a backend's string may hold line breaks the parser drops.
          // Titles and snippets are what pages say: no controls, no framing tags, one line each.
          return [{ ...r, url: url.href, title: oneLine(r.title), snippet: oneLine(r.snippet) }];
        })
        .slice(0, maxResults);
      return {
        data: {
          query,
          backend: service.name,
          results,
          durationMs: Math.round(performance.now() - started),
          result: formatResults(
            query,
            service.name,
            results,
            allowed.map((p) => p.host),
            blocked.map((p) => p.host),
          ),
        },
      };
    },
  });
}

/**
 * WebSearch with the default options (its backend from the environment); {@linkcode webTools}
 * builds its own with the family's options.
 *
 * @example
 * ```ts
 * import { webSearchTool } from '@toolshed/tool-web';
 *
 * webSearchTool.isEnabled(); // true when BRAVE_API_KEY or SEARXNG_URL is set
 * ```
 */
export const webSearchTool: Tool<typeof webSearchInput, WebSearchOutput> = createWebSearchTool();

function validateSearch(input: z.output<typeof webSearchInput>): ValidationResult {
  if (input.allowed_domains?.length && input.blocked_domains?.length) {
    return {
      result: false,
      message: 'Give allowed_domains or blocked_domains, not both in the same search.',
      errorCode: 'domains_conflict',
    };
  }
  for (const [field, list] of [
    ['allowed_domains', input.allowed_domains],
    ['blocked_domains', input.blocked_domains],
  ] as const) {
    for (const domain of list ?? []) {
      const pattern = parseHostPattern(stripUrl(domain));
      if (!pattern || pattern.scope === 'any') {
        return {
          result: false,
          message: `${field} entry ${JSON.stringify(domain)} is not a domain: give names such as "docs.python.org" or "example.com".`,
          errorCode: 'domain_invalid',
        };
      }
    }
  }
  return { result: true };
}

/** A domain as the model may write it (`https://docs.python.org/3/`) as a host pattern. */
function domainOf(domain: string): HostPattern {
  return parseHostPattern(stripUrl(domain))!;
}

function stripUrl(domain: string): string {
  return domain
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '');
}

function oneLine(text: string): string {
  return neutralizePageText(typeof text === 'string' ? text : '')
    .replace(/\s+/g, ' ')
    .trim();
}

function tryHttpUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function formatResults(
  query: string,
  backend: string,
  results: readonly SearchResult[],
  allowed: readonly string[],
  blocked: readonly string[],
): string {
  const scope = allowed.length
    ? ` within ${allowed.join(', ')}`
    : blocked.length
      ? ` excluding ${blocked.join(', ')}`
      : '';
  if (results.length === 0)
    return `No results for "${query}" from ${backend}${scope}. Try other words or fewer domain filters.`;
  const lines = [`Web search results for "${query}" from ${backend}${scope}:`, ''];
  results.forEach((r, i) => {
    const title = r.title.replace(/([[\]])/g, '\\$1');
    lines.push(`${i + 1}. [${title}](${r.url.replace(/\)/g, '%29')})`);
    if (r.snippet) lines.push(`   ${r.snippet}`);
  });
  lines.push('', 'Cite the sources you use from these results as Markdown links in your answer.');
  return lines.join('\n');
}
