import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type CutPiece, cutTree } from './_rg_cut.ts';

/** How long a cut is reused, in milliseconds, while the folder's own entries stay the same. */
export const CUT_REUSE_MS = 30_000;

/** Cuts kept at most (one per folder and set of shares searched lately). */
const MAX_CUTS = 16;

/** A cut made earlier, and what it was made of. */
interface KeptCut {
  /** When it was made (`now()`). */
  at: number;
  /** The folder's modification time then: an entry of its own added, removed or renamed changes it. */
  mtimeMs: number;
  pieces: CutPiece[] | undefined;
}

const kept = new Map<string, KeptCut>();

/** Options of {@linkcode cachedCutTree}. */
export interface CutCacheOptions {
  /** How long a cut is reused. @default CUT_REUSE_MS */
  reuseMs?: number | undefined;
  /** The clock, in milliseconds. @default performance.now */
  now?: (() => number) | undefined;
}

/**
 * {@linkcode cutTree}, reusing the cut of the same folder (by device and inode, whatever path
 * leads to it) made in the last {@linkcode CUT_REUSE_MS} while the folder's own entries have not
 * changed: searches of one project follow each other (pages, several patterns at once), and the
 * few `readdir`s of a cut come before ripgrep can start.
 *
 * A cut only says where the pieces fall, never what is found: a piece's lines are the lines of
 * its range of walk order, whatever was made or removed since the cut (see
 * {@linkcode CutPiece.from}). A stale cut only balances the pieces less well.
 *
 * @param root The folder ripgrep runs in (`/proc/self/fd/N` included).
 * @param shares Each piece's share of the tree, in order.
 * @param options The reuse window and the clock (for tests).
 * @returns What {@linkcode cutTree} returns (the same objects while reused: do not change them).
 *
 * @example
 * ```ts
 * import { cachedCutTree } from './_rg_cut_cache.ts';
 * import { PIECE_SHARES } from './_rg_cut.ts';
 *
 * const first = await cachedCutTree('/repo', PIECE_SHARES);
 * const again = await cachedCutTree('/repo', PIECE_SHARES); // the same pieces, no folder read
 * ```
 */
export async function cachedCutTree(
  root: string,
  shares: readonly number[],
  options: CutCacheOptions = {},
): Promise<CutPiece[] | undefined> {
  const now = options.now ?? (() => performance.now());
  let folder: BigIntStats;
  try {
    folder = await stat(root, { bigint: true });
  } catch {
    return cutTree(root, shares);
  }
  const key = `${folder.dev}:${folder.ino}:${shares.join(',')}`;
  const mtimeMs = Number(folder.mtimeNs / 1000n) / 1000;
  const reuse = kept.get(key);
  if (reuse !== undefined && reuse.mtimeMs === mtimeMs && now() - reuse.at < (options.reuseMs ?? CUT_REUSE_MS)) {
    return reuse.pieces;
  }
  const pieces = await cutTree(root, shares);
  kept.delete(key);
  kept.set(key, { at: now(), mtimeMs, pieces });
  // The oldest goes first (a Map keeps insertion order).
  if (kept.size > MAX_CUTS) kept.delete(kept.keys().next().value!);
  return pieces;
}
