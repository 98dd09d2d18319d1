import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** What a session keeps of its saved results when it closes. */
export type KeepResults = boolean | { readonly maxAgeMs: number };

/** Options of {@linkcode removeSessionResults}. */
export interface RemoveSessionResultsOptions {
  /** The session's state folder. */
  stateDir: string;
  /**
   * The folder is the session's own (the default `<root>/<session id>`): it is removed whole. A
   * folder the caller chose (`stateDir`) keeps everything but the files this session saved.
   */
  ownsStateDir: boolean;
  /** The files this session saved. */
  files: Iterable<string>;
}

/**
 * Removes what a session saved: its whole state folder when the session owns it, else each file
 * it saved, then `<stateDir>/tool-results` if that is left empty. Missing files are fine.
 *
 * @param options The folder, whether it is the session's own, and the files saved.
 * @returns Resolves when done; a file that cannot be removed rejects with the error of `rm`.
 *
 * @example
 * ```ts
 * import { type Session } from '@toolshed/core';
 * import { removeSessionResults } from '@toolshed/core/internal';
 * declare const session: Session;
 *
 * await removeSessionResults({ stateDir: session.stateDir, ownsStateDir: true, files: [] });
 * ```
 */
export async function removeSessionResults(options: RemoveSessionResultsOptions): Promise<void> {
  if (options.ownsStateDir) {
    await removeStateDirKeepingWorktrees(options.stateDir);
    return;
  }
  for (const file of options.files) await rm(file, { force: true });
  await rmdir(path.join(options.stateDir, 'tool-results')).catch(() => undefined);
}

/**
 * Removes saved results older than `maxAgeMs` (by modification time) from results folders, and
 * each folder this leaves empty: opencode's retention of its truncation files,
 * for sessions that keep their results for a while (`keepResults: { maxAgeMs }`).
 *
 * @param resultsDirs `tool-results` folders to sweep.
 * @param maxAgeMs The age past which a file goes.
 * @param options `now`, the time to measure from (default `Date.now()`), and
 *   `removeEmptyParents`: also remove each folder's parent (its session folder) once empty
 *   (default false: a parent the caller chose is left alone).
 * @returns How many files were removed.
 * @throws {TypeError} When `maxAgeMs` is not a non-negative number.
 *
 * @example
 * ```ts
 * import { sweepOldResults } from '@toolshed/core/internal';
 *
 * await sweepOldResults(['/home/me/.toolshed/state/s0/tool-results'], 7 * 24 * 3_600_000);
 * ```
 */
export async function sweepOldResults(
  resultsDirs: readonly string[],
  maxAgeMs: number,
  options: { now?: number; removeEmptyParents?: boolean } = {},
): Promise<number> {
  checkMaxAge(maxAgeMs);
  const now = options.now ?? Date.now();
  let removed = 0;
  for (const dir of resultsDirs) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const st = await stat(file);
        if (st.isFile() && now - st.mtimeMs > maxAgeMs) {
          await rm(file, { force: true });
          removed++;
        }
      } catch {
        // Gone already, or removed by another session sweeping at the same time.
      }
    }
    // The folder, and its session folder, go once empty; rmdir refuses a folder that is not.
    await rmdir(dir)
      .then(() => (options.removeEmptyParents ? rmdir(path.dirname(dir)) : undefined))
      .catch(() => undefined);
  }
  return removed;
}

/**
 * Checks a `keepResults` option.
 *
 * @param value The option's value.
 * @returns The value.
 * @throws {TypeError} When it is neither a boolean nor `{ maxAgeMs: number }`.
 *
 * @example
 * ```ts
 * import { checkKeepResults } from '@toolshed/core/internal';
 *
 * checkKeepResults({ maxAgeMs: 7 * 24 * 3_600_000 });
 * ```
 */
export function checkKeepResults(value: unknown): KeepResults {
  if (typeof value === 'boolean') return value;
  if (value !== null && typeof value === 'object' && 'maxAgeMs' in value) {
    checkMaxAge((value as { maxAgeMs: unknown }).maxAgeMs);
    return value as KeepResults;
  }
  throw new TypeError(
    `keepResults must be true, false or { maxAgeMs: number }, got ${JSON.stringify(value) ?? String(value)}`,
  );
}

function checkMaxAge(value: unknown): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new TypeError(
      `keepResults.maxAgeMs must be a non-negative number of milliseconds (7 days: 604800000), got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
}

/**
 * The folder of a session's state that holds work of the user's, not saved output: git worktrees
 * made by EnterWorktree (`<stateDir>/worktrees`, and a sub-agent's under `children/<id>/`). Closing
 * a session never deletes them; ExitWorktree removes one when asked.
 */
export const KEPT_STATE_FOLDER = 'worktrees';

async function removeStateDirKeepingWorktrees(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const entry = path.join(dir, name);
    if (
      name === KEPT_STATE_FOLDER &&
      (await readdir(entry).then(
        (n) => n.length > 0,
        () => false,
      ))
    )
      continue;
    if (
      name === 'children' &&
      (await stat(entry).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      for (const child of await readdir(entry).catch(() => [] as string[]))
        await removeStateDirKeepingWorktrees(path.join(entry, child));
      await rmdir(entry).catch(() => undefined);
      continue;
    }
    await rm(entry, { recursive: true, force: true });
  }
  // Gone once nothing is kept; rmdir refuses a folder that still holds a worktree.
  await rmdir(dir).catch(() => undefined);
}
