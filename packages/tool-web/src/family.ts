import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';
import { createWebFetchTool, type WebFetchOptions } from './web_fetch.ts';
import { createWebSearchTool, webSearchDisabledNotice, type WebSearchOptions } from './web_search.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode webTools}: WebFetch's and WebSearch's. */
export interface WebToolsOptions extends WebFetchOptions, WebSearchOptions {}

/**
 * The `web` family: WebFetch (a URL to Markdown, behind a network guard that refuses private
 * addresses unless the user opens them) and WebSearch (over Brave Search, SearXNG or your own
 * backend; disabled when none is configured, with a notice that says how to enable it).
 *
 * @param options Limits, private hosts opened, the search backend; see {@linkcode WebToolsOptions}.
 * @returns The family, for `createSession({ families })`.
 * @throws {RangeError} If an option is out of range (see {@linkcode createWebFetchTool}).
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { braveSearchBackend, webTools } from '@toolshed/tool-web';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [webTools({ search: braveSearchBackend({ apiKey: process.env.BRAVE_API_KEY! }) })],
 *   permissions: { allow: ['WebFetch(domain:docs.python.org)'] },
 * });
 * ```
 */
export function webTools(options: WebToolsOptions = {}): Family {
  const fetchTool = createWebFetchTool(options);
  const searchTool = createWebSearchTool(options);
  return defineFamily({
    name: 'web',
    version,
    tools: [fetchTool, searchTool],
    setup(api) {
      if (!searchTool.isEnabled()) api.emit({ type: 'notice', ...webSearchDisabledNotice(options) });
    },
  });
}
