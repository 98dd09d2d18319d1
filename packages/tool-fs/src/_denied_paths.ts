import path from 'node:path';
import { deniedPathFilter, type ToolContext } from '@toolshed/core';

/**
 * Options of {@linkcode deniedPathTest}: what the test resolves `root` against and matches with.
 * Kept the fields of the call's context, so that a search passes its `ctx` as it is.
 */
export type DeniedPathTestOptions = Pick<ToolContext, 'cwd' | 'permissions'>;

/**
 * A test for the files a search found that a deny rule covers (`Read(./.env)`,
 * `Read(./secret/**)`, or one naming the tool), so that Glob and Grep leave them out: the
 * permission layer sees only the folder searched, and a search must not show what Read would
 * refuse. The verdict is core's {@linkcode deniedPathFilter}: the path guard's, for the file
 * as found and through the symlinks of its folders (a folder searched through a link is judged
 * by its target too).
 *
 * @param toolName The searching tool (`Glob`, `Grep`): `Read(...)` rules cover both.
 * @param root The folder searched (absolute); found paths are relative to it.
 * @param options The call's context (its `cwd` and `permissions`; a `ToolContext` will do).
 * @returns A test taking a path relative to `root` (with `/`), or undefined when no deny rule
 *   applies to the tool.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { deniedPathTest } from './_denied_paths.ts';
 * declare const ctx: ToolContext;
 * declare const files: string[];
 *
 * const denied = deniedPathTest('Grep', '/repo', ctx);
 * const shown = denied ? files.filter((f) => !denied(f)) : files;
 * ```
 */
export function deniedPathTest(
  toolName: string,
  root: string,
  options: DeniedPathTestOptions,
): ((rel: string) => boolean) | undefined {
  const ctx = options;
  const denied = deniedPathFilter(toolName, ctx);
  if (denied === undefined) return undefined;
  const resolved = path.resolve(ctx.cwd, root);
  const prefix = resolved.endsWith('/') ? resolved : `${resolved}/`;
  return (rel) => denied(`${prefix}${rel}`) !== undefined;
}
