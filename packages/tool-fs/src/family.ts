import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode fileTools}; none yet. */
export type FileToolsOptions = Record<string, unknown>;

/**
 * The `fs` family: Read, Edit, Write, Glob, Grep and NotebookEdit. Not yet implemented — the family is empty.
 *
 * @param options Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools()] });
 * ```
 */
export function fileTools(_options: FileToolsOptions = {}): Family {
  return defineFamily({ name: 'fs', version, tools: [] });
}
