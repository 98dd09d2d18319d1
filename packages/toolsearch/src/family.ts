import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode toolSearch}; none yet. */
export type ToolSearchOptions = Record<string, unknown>;

/**
 * The `search` family: deferred loading and the ToolSearch tool. Not yet implemented — the family is empty.
 *
 * @param options Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [toolSearch()] });
 * ```
 */
export function toolSearch(_options: ToolSearchOptions = {}): Family {
  return defineFamily({ name: 'search', version, tools: [] });
}
