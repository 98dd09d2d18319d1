const tails = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding a lock on `key` in this process, so two writes to one file (from two
 * sessions, say) do not interleave their check and their rename.
 *
 * @param key The canonical path.
 * @param fn The work.
 * @returns What `fn` returns.
 *
 * @example
 * ```ts
 * import { withPathLock } from './_path_lock.ts';
 *
 * await withPathLock('/repo/a.ts', async () => { /* … *\/ });
 * ```
 */
export async function withPathLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = before.then(() => mine);
  tails.set(key, tail);
  await before;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
