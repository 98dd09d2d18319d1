/**
 * `@toolshed/tool-web`: WebFetch and WebSearch for Toolshed. WebFetch turns a page into
 * Markdown behind a network guard (no loopback, private or link-local address unless the user
 * opens the host); WebSearch runs on Brave Search, SearXNG or a backend of your own.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { braveSearchBackend, webTools } from '@toolshed/tool-web';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [webTools({ search: braveSearchBackend({ apiKey: process.env.BRAVE_API_KEY! }) })],
 *   permissions: { allow: ['WebFetch(domain:docs.python.org)'] },
 * });
 * const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'WebFetch', input: { url: 'https://docs.python.org/3/', prompt: 'What is new?' } }]);
 * ```
 *
 * @module
 */
export { webTools, type WebToolsOptions } from './family.ts';
export {
  createWebFetchTool,
  DEFAULT_PREAPPROVED_HOSTS,
  webFetchInput,
  webFetchTool,
  type WebFetchOptions,
  type WebFetchOutput,
} from './web_fetch.ts';
export {
  createWebSearchTool,
  searchBackendFromEnv,
  WEB_SEARCH_SETUP_HINT,
  webSearchInput,
  webSearchTool,
  type WebSearchOptions,
  type WebSearchOutput,
} from './web_search.ts';
export { type SearchBackend, type SearchRequest, type SearchResult } from './search_backend.ts';
export { BRAVE_SEARCH_ENDPOINT, braveSearchBackend, type BraveSearchOptions } from './brave_search.ts';
export { searxngSearchBackend, type SearxngSearchOptions } from './searxng_search.ts';
export { type LookupFunction } from './network_guard.ts';
export { directConnect, type ConnectFunction, type ConnectTarget } from './connect.ts';
export { matchDomainSpecifier } from './host_pattern.ts';
export { FetchCache, type FetchCacheOptions } from './fetch_cache.ts';
export { htmlToMarkdown, type HtmlToMarkdownOptions, type HtmlToMarkdownResult } from './html_to_markdown.ts';
