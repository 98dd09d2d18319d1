import { statSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** Stats done between two yields to the event loop. */
const STATS_PER_SLICE = 2000;

/**
 * Keeps the newest `limit` of the files it is given (by mtime; ties by path, files that vanished
 * last) and counts them all, for Glob: what it holds is the names it will return, not every file
 * a walk of a large tree passes.
 *
 * Stats are synchronous: on 16 000 files they take about a fifth of the time the thread-pool
 * `fs.promises.stat` takes (measured in bench/src/fs_glob_bench.ts); the walk that hands the files
 * in awaits each folder, which keeps the event loop free for parallel calls.
 *
 * @example
 * ```ts
 * import { NewestFiles } from './_mtimes.ts';
 *
 * const newest = new NewestFiles('/repo', 100);
 * for (const f of ['a.ts', 'b.ts']) newest.add(f);
 * newest.files(); // newest first
 * newest.count; // 2
 * ```
 */
export class NewestFiles {
  #top: { f: string; t: number }[] = [];
  #count = 0;

  /**
   * @param base The folder the paths are relative to.
   * @param limit How many to keep.
   */
  constructor(
    readonly base: string,
    readonly limit: number,
  ) {}

  /** Files given so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Takes one file: stats it and keeps it if it is among the newest so far.
   *
   * @param f The path, relative to `base`.
   */
  add(f: string): void {
    this.#count++;
    const entry = { f, t: statSync(path.join(this.base, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    const top = this.#top;
    if (top.length >= this.limit && !newer(entry, top[top.length - 1]!)) return;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newer(top[mid]!, entry)) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, entry);
    if (top.length > this.limit) top.pop();
  }

  /** @returns The files kept, newest first. */
  files(): string[] {
    return this.#top.map((s) => s.f);
  }
}

/** Newer first; the same time, by path. */
function newer(a: { f: string; t: number }, b: { f: string; t: number }): boolean {
  return a.t > b.t || (a.t === b.t && a.f < b.f);
}

/**
 * Feeds files to a {@linkcode NewestFiles} in slices, yielding to the event loop between them
 * (for a list that is already whole: ripgrep's).
 *
 * @param newest Where the files go.
 * @param rels The paths.
 * @param options `signal` stops the work between slices.
 * @returns When all are in.
 *
 * @example
 * ```ts
 * import { addInSlices, NewestFiles } from './_mtimes.ts';
 *
 * await addInSlices(new NewestFiles('/repo', 100), ['a.ts', 'b.ts']);
 * ```
 */
export async function addInSlices(
  newest: { add(f: string): void },
  rels: readonly string[],
  { signal }: { signal?: AbortSignal | undefined } = {},
): Promise<void> {
  for (let i = 0; i < rels.length; i++) {
    if (i > 0 && i % STATS_PER_SLICE === 0) {
      await yieldToLoop();
      signal?.throwIfAborted();
    }
    newest.add(rels[i]!);
  }
}
