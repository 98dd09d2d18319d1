import { homedir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../tool.ts';
import { foldPath } from './_fold_path.ts';
import { isPathInside } from './is_path_inside.ts';
import { caseInsensitivePaths, type GuardedPath, PATH_RULE_COVERAGE } from './path_guard.ts';
import { SavedResults } from '../results/saved_results.ts';
import { cachedRealPath } from './real_path_cache.ts';
import type { PermissionDecision } from './types.ts';

/**
 * The folder of a session's saved results: `<stateDir>/tool-results`.
 *
 * @param stateDir The session's state folder.
 * @returns The folder's path.
 *
 * @example
 * ```ts
 * import { sessionResultsDir } from '@toolshed/core/internal';
 *
 * sessionResultsDir('/home/me/.toolshed/state/s1'); // '/home/me/.toolshed/state/s1/tool-results'
 * ```
 */
export function sessionResultsDir(stateDir: string): string {
  return path.join(path.resolve(stateDir), 'tool-results');
}

/** Options of {@linkcode ownResultsRead}. */
export interface OwnResultsReadOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context (its `stateDir`, and its `fileState`, which finds what the session saved). */
  ctx: Pick<ToolContext, 'cwd' | 'stateDir' | 'permissions' | 'fileState'>;
}

/**
 * The allowance for a session's own saved results: a `Read`, `Grep` or `Glob` call whose every
 * declared path is a read of a file that is really (through symlinks) inside the session's
 * `<stateDir>/tool-results` and is a file this very session saved, unchanged since (the same
 * inode, size and times: {@linkcode SavedResults}), is allowed without a rule and never asks.
 * What is there is what the session's own calls returned, over their size limit: the model was
 * allowed to see it, and the preview tells it to read the file. Anything else in that folder (a
 * file another session sharing the state folder saved, a hard link someone planted, a result
 * replaced since, the folder itself) goes through the rules as any path does; so do writes there
 * and other tools' reads (a `cat` through Bash). The permission layer applies it before deny path
 * rules that also cover the state folder beside the results (they guard the user's files; this is
 * the session's own output, and an output quoting a denied file is never saved: see
 * {@linkcode deniedQuoteGuard}); a deny rule about the results alone, one about the call itself,
 * and a hook's deny still win. Where the session's folder or its
 * `tool-results` is a symlink (swapped for a link to the project, or to `/`), nothing is allowed
 * this way.
 *
 * @param paths The call's guarded paths.
 * @param options The tool called and the call's context (its `stateDir`).
 * @returns The allow decision, or undefined when the call is not only such a read.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { ownResultsRead, resolveResources } from '@toolshed/core/internal';
 * declare const ctx: ToolContext;
 *
 * ownResultsRead(resolveResources([{ path: `${ctx.stateDir}/tool-results/t1.txt`, access: 'read' }], ctx), { toolName: 'Read', ctx })?.behavior; // 'allow' when this session saved t1.txt
 * ```
 */
export function ownResultsRead(
  paths: readonly GuardedPath[],
  { toolName, ctx }: OwnResultsReadOptions,
): PermissionDecision | undefined {
  if (
    !PATH_RULE_COVERAGE.Read.includes(toolName) ||
    paths.length === 0 ||
    typeof ctx.stateDir !== 'string' ||
    ctx.stateDir === ''
  )
    return undefined;
  if (paths.some((p) => p.access !== 'read' || p.device)) return undefined;
  // Only files this session (or its parent or child) saved: found through its file-state cache.
  const saved = SavedResults.find(ctx.fileState);
  if (!saved) return undefined;
  const nocase = caseInsensitivePaths(ctx.permissions);
  const homeDir = ctx.permissions.homeDir ?? homedir();
  const own = sessionResultsDir(ctx.stateDir);
  const dirs = [own, ...saved.folders.filter((f) => f !== own)]
    .map((folder) => realResultsFolder(folder, homeDir, nocase))
    .filter((d): d is string => d !== undefined);
  const folderOf = (real: string) => dirs.find((d) => isPathInside(foldPath(real, nocase), foldPath(d, nocase)));
  const inside = (real: string) => folderOf(real) !== undefined;
  const isSaved = (p: GuardedPath) =>
    p.kind === undefined && p.real.length > 0 && p.real.every((real) => inside(real) && saved.isOwn(real));
  if (!paths.every(isSaved)) return undefined;
  const dir = folderOf(paths[0]!.real[0]!);
  return {
    behavior: 'allow',
    reason: `Allowed because this ${toolName} call only reads results this session saved (in ${dir})`,
    source: 'session',
  };
}

/**
 * The physical path of a results folder, when neither it nor its session's folder is a symlink: one
 * swapped for a link to the project (or to /) would make the allowance cover what it leads to, past
 * the ask rules and the working-directory check. Links above them (macOS's /tmp) are fine. Through
 * the root cache, as rule roots and working directories are: resolved again once a folder on its
 * way changed, so a results folder swapped for a link is followed at the next check.
 */
function realResultsFolder(results: string, homeDir: string, nocase: boolean): string | undefined {
  try {
    const dir = cachedRealPath(results, homeDir);
    const state = path.dirname(results);
    const expected = path.join(cachedRealPath(path.dirname(state), homeDir), path.basename(state), 'tool-results');
    return foldPath(expected, nocase) === foldPath(dir, nocase) ? dir : undefined;
  } catch {
    return undefined;
  }
}
