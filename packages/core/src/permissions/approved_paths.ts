import type { ToolContext } from '../tool.ts';
import { foldPath } from './_fold_path.ts';
import { caseInsensitivePaths, type GuardedPath } from './path_guard.ts';

/** Per call context: the paths its last permission decision resolved. */
const decided = new WeakMap<object, readonly GuardedPath[]>();

/**
 * Records the paths a permission decision resolved for a call, for {@linkcode approvedRealPaths}.
 * The permission layer calls it at every decision; the last decision of a call is the one its
 * tool runs under.
 *
 * @param ctx The call's context (its object identity is the key).
 * @param paths The guarded paths the decision resolved.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { resolveResources } from './path_guard.ts';
 * import { recordDecidedPaths } from './approved_paths.ts';
 * declare const ctx: ToolContext;
 *
 * recordDecidedPaths(ctx, resolveResources([{ path: 'a.txt', access: 'read' }], ctx));
 * ```
 */
export function recordDecidedPaths(ctx: object, paths: readonly GuardedPath[]): void {
  decided.set(ctx, paths);
}

/** Options of {@linkcode approvedRealPaths}. */
export interface ApprovedRealPathsOptions {
  /** The path as the tool declared it in `resources()` (the same text). */
  path: string;
  /** The access it declared. */
  access: 'read' | 'write';
}

/**
 * Where the permission check of this call found a declared path to lead: the physical paths it
 * judged (and a person approved, when it asked). The check and the tool's open are two moments:
 * a link re-pointed in between (by a background process, or while a person read the prompt)
 * would make the tool open another file than the one allowed. A tool that opens the path
 * compares the file it opened with these (`/proc/self/fd/N` on Linux) and refuses any other.
 *
 * @param ctx The call's context, as the tool's `call` got it.
 * @param options The declared path and access.
 * @returns The physical paths, or undefined when this context had no decision about that path
 *   (a tool called directly, not through a session): then there is nothing to compare with.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { approvedRealPaths } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * approvedRealPaths(ctx, { path: '/p/d/id_rsa', access: 'read' }); // ['/p/notes/id_rsa'] while d -> notes
 * ```
 */
export function approvedRealPaths(
  ctx: Pick<ToolContext, 'permissions'>,
  options: ApprovedRealPathsOptions,
): readonly string[] | undefined {
  const paths = decided.get(ctx);
  const nocase = caseInsensitivePaths(ctx.permissions);
  const wanted = foldPath(options.path, nocase);
  const found = paths?.find(
    (p) => p.access === options.access && p.kind === undefined && foldPath(p.declared, nocase) === wanted,
  );
  return found?.real;
}
