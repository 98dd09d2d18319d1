import { lstatSync, type Stats } from 'node:fs';
import type { FileStateCache } from './file_state_cache.ts';

/**
 * What a saved file was when it was written, taken from the handle that wrote it (`fstat` before
 * it was closed, after it got its final name): a file replaced, linked or changed since is another.
 * Plain numbers, so a tool built against another copy of core can hand it over.
 *
 * @example
 * ```ts
 * import { fstatSync } from 'node:fs';
 * import { savedFileStats, type SavedFileStats } from '@toolshed/core';
 * declare const fd: number;
 *
 * const stats: SavedFileStats = savedFileStats(fstatSync(fd));
 * ```
 */
export interface SavedFileStats {
  dev: number;
  ino: number;
  nlink: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * The {@linkcode SavedFileStats} of a file from its `Stats` (of the writing handle: `fstat`).
 *
 * @param st The stats.
 * @returns The numbers that identify the file as written.
 *
 * @example
 * ```ts
 * import { open } from 'node:fs/promises';
 * import { savedFileStats } from '@toolshed/core';
 *
 * const handle = await open('/tmp/state/tool-results/t1.txt', 'r');
 * savedFileStats(await handle.stat()).ino;
 * ```
 */
export function savedFileStats(
  st: Pick<Stats, 'dev' | 'ino' | 'nlink' | 'size' | 'mtimeMs' | 'ctimeMs'>,
): SavedFileStats {
  return { dev: st.dev, ino: st.ino, nlink: st.nlink, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

type SavedIdentity = SavedFileStats;

// One registry per session, found through its file-state cache (each session makes its own, and a
// call's context carries it unchanged): what decides a permission sees only what its session saved.
const registries = new WeakMap<FileStateCache, SavedResults>();

/**
 * The files a session saved its results to, each with what it was when saved (device, inode,
 * link count, size, times). It is the session's list for `close()` (a `Set` of paths) and the proof the
 * own-results allowance asks for ({@linkcode ownResultsRead}): a file in the results folder that
 * another session sharing the state folder saved, that someone planted there (a hard link to a
 * secret), or that was replaced or changed since, is not this session's result.
 *
 * @example
 * ```ts
 * import { FileStateCache } from '@toolshed/core';
 * import { SavedResults } from '@toolshed/core/internal';
 *
 * declare const stats: import('@toolshed/core').SavedFileStats; // from the writing handle
 * const saved = SavedResults.of(new FileStateCache());
 * saved.record('/tmp/state/s1/tool-results/toolu_1.txt', stats);
 * saved.isOwn('/tmp/state/s1/tool-results/toolu_1.txt'); // true while the file is the one saved
 * ```
 */
export class SavedResults extends Set<string> {
  readonly #identities = new Map<string, SavedIdentity>();
  readonly #folders = new Set<string>();

  /**
   * The registry of the session whose calls carry `fileState`, made on first use.
   *
   * @param fileState The session's file-state cache (`ctx.fileState`).
   * @returns Its registry.
   */
  static of(fileState: FileStateCache): SavedResults {
    let found = registries.get(fileState);
    if (!found) {
      found = new SavedResults();
      registries.set(fileState, found);
    }
    return found;
  }

  /**
   * Makes `fileState`'s session use `registry` (its parent's): a child session and its parent read
   * what the other saved.
   *
   * @param fileState The child session's file-state cache.
   * @param registry The parent's registry.
   * @returns `registry`.
   * @throws {Error} When `fileState` already has a registry of its own.
   */
  static share(fileState: FileStateCache, registry: SavedResults): SavedResults {
    const found = registries.get(fileState);
    if (found !== undefined && found !== registry)
      throw new Error('SavedResults.share: this file-state cache already has a registry of its own.');
    registries.set(fileState, registry);
    return registry;
  }

  /**
   * The registry of the session whose calls carry `fileState`, if it saved anything.
   *
   * @param fileState The session's file-state cache (`ctx.fileState`).
   * @returns Its registry, or undefined.
   */
  static find(fileState: FileStateCache | undefined): SavedResults | undefined {
    return fileState === undefined ? undefined : registries.get(fileState);
  }

  /** The results folders (`<stateDir>/tool-results`, as written) of the sessions sharing this registry. */
  get folders(): readonly string[] {
    return [...this.#folders];
  }

  /**
   * Adds the results folder of a session that shares this registry: its own-results allowance
   * looks for saved files there too.
   *
   * @param folder The session's `<stateDir>/tool-results`, absolute.
   */
  addFolder(folder: string): void {
    this.#folders.add(folder);
  }

  /**
   * Records a file the session saved (complete, under its final name) with what it was when the
   * writer finished, from the handle that wrote it. Without `stats` (a tool that did not say) the
   * path is kept for `close()` but never counts as the session's own: a stat of the path now
   * could find a file someone renamed over it after the write.
   *
   * @param file The file's absolute path.
   * @param stats The file as written ({@linkcode SavedFileStats}, from `fstat` of the writing handle).
   * @returns This registry.
   */
  record(file: string, stats: SavedFileStats | undefined): this {
    if (stats !== undefined) this.#identities.set(key(stats), savedFileStats(stats));
    return super.add(file);
  }

  /**
   * Whether `realPath` is, right now, a regular file this session saved and nobody changed since:
   * the same device and inode, link count, size and times as when it was saved.
   *
   * @param realPath A physical path (symlinks resolved).
   * @returns True only for such a file.
   */
  isOwn(realPath: string): boolean {
    const st = statOf(realPath);
    if (!st?.isFile()) return false;
    const saved = this.#identities.get(key(st));
    if (!saved) return false;
    const now = savedFileStats(st);
    return (
      now.size === saved.size &&
      now.nlink === saved.nlink &&
      now.mtimeMs === saved.mtimeMs &&
      now.ctimeMs === saved.ctimeMs &&
      now.dev === saved.dev &&
      now.ino === saved.ino
    );
  }
}

function statOf(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function key(st: Pick<SavedFileStats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}
