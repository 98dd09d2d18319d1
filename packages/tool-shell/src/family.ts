import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode shellTools}; none yet. */
export type ShellToolsOptions = Record<string, unknown>;

/**
 * The `shell` family: Bash, TaskOutput and TaskStop. Not yet implemented — the family is empty.
 *
 * @param options Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [shellTools()] });
 * ```
 */
export function shellTools(_options: ShellToolsOptions = {}): Family {
  return defineFamily({ name: 'shell', version, tools: [] });
}
