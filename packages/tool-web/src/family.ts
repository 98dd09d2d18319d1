import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode webTools}; none yet. */
export type WebToolsOptions = Record<string, unknown>;

/**
 * The `web` family: WebFetch and WebSearch. Not yet implemented — the family is empty.
 *
 * @param options Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [webTools()] });
 * ```
 */
export function webTools(_options: WebToolsOptions = {}): Family {
  return defineFamily({ name: 'web', version, tools: [] });
}
