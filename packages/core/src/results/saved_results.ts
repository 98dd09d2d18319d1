import { lstatSync, type Stats } from 'node:fs';
import type { FileStateCache } from './file_state_cache.ts';

/** What a saved file was when the session saved it: a file replaced, linked or changed since is another. */
interface SavedIdentity {
  dev: number;
  ino: number;
  nlink: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

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
 * const saved = SavedResults.of(new FileStateCache());
 * saved.add('/tmp/state/s1/tool-results/toolu_1.txt');
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
   * Records a file the session saved (complete, under its final name), as it is now. A path that
   * is not a regular file now is kept for `close()` but never counts as the session's own.
   *
   * @param file The file's absolute path.
   * @returns This registry.
   */
  override add(file: string): this {
    const st = statOf(file);
    if (st?.isFile()) this.#identities.set(key(st), identity(st));
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
    const now = identity(st);
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

function key(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

function identity(st: Stats): SavedIdentity {
  return { dev: st.dev, ino: st.ino, nlink: st.nlink, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}
