/**
 * Shared memory lent for a call and given back, so that the large contents Write encodes for the
 * hashing worker (see `hashOffThread`) do not take fresh memory every time.
 *
 * Why not a new `SharedArrayBuffer` per call: the first touch of fresh memory costs the page
 * faults, and in a virtual machine those are dear. On the 2-core CI machine, encoding 5 MB into a
 * new `SharedArrayBuffer` took 14 ms, into one written before 0.6 ms, while `writeFile` of the same
 * text (whose allocator reuses freed memory) took 4 ms. No library pools shared memory, and the
 * pool is a list of free buffers.
 */

/** Free buffers are kept up to this many bytes in all; a larger buffer is not kept at all. */
export const SCRATCH_POOL_MAX_BYTES = 64 * 1024 * 1024;

/** Free buffers are dropped (for the garbage collector to return) after this long without a lease. */
export const SCRATCH_IDLE_MS = 30_000;

const free: SharedArrayBuffer[] = [];
const lent = new WeakSet<SharedArrayBuffer>();
const counts = { made: 0, reused: 0 };
let idleTimer: ReturnType<typeof setTimeout> | undefined;

/** What the pool did; see {@linkcode scratchStats}. */
export interface ScratchStats {
  /** Buffers allocated. */
  made: number;
  /** Leases served by a buffer given back before. */
  reused: number;
  /** Bytes held in free buffers now. */
  freeBytes: number;
}

/**
 * Lends `size` bytes of shared memory, old content and all (not zeroed): write all of it before
 * reading. Give it back with {@linkcode giveBackScratch} once nothing reads it any more (the
 * write done, the hash answered); a lease never given back is simply collected.
 *
 * @param size Bytes wanted.
 * @returns A Buffer of exactly `size` bytes over a `SharedArrayBuffer` no one else holds.
 *
 * @example
 * ```ts
 * import { giveBackScratch, lendScratch } from './_shared_scratch.ts';
 *
 * const bytes = lendScratch(4);
 * bytes.write('abcd');
 * giveBackScratch(bytes);
 * ```
 */
export function lendScratch(size: number): Buffer {
  let best = -1;
  for (let i = 0; i < free.length; i++) {
    const length = free[i]!.byteLength;
    if (length >= size && (best === -1 || length < free[best]!.byteLength)) best = i;
  }
  let buffer: SharedArrayBuffer;
  if (best === -1) {
    // A power of two: a slightly larger file next time fits, and pages never written are not
    // memory the process has (only virtual address space).
    buffer = new SharedArrayBuffer(2 ** Math.ceil(Math.log2(Math.max(size, 1))));
    counts.made++;
  } else {
    buffer = free.splice(best, 1)[0]!;
    counts.reused++;
  }
  lent.add(buffer);
  return Buffer.from(buffer, 0, size);
}

/**
 * Gives back memory from {@linkcode lendScratch} (or a view of it) for the next lease; anything
 * else, or memory given back already, is ignored.
 *
 * @param bytes The lent Buffer.
 *
 * @example
 * ```ts
 * import { giveBackScratch, lendScratch } from './_shared_scratch.ts';
 *
 * giveBackScratch(lendScratch(1024));
 * ```
 */
export function giveBackScratch(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (!(buffer instanceof SharedArrayBuffer) || !lent.has(buffer)) return;
  lent.delete(buffer);
  if (buffer.byteLength > SCRATCH_POOL_MAX_BYTES) return;
  free.push(buffer);
  // The oldest go first when the pool is over its size.
  let held = free.reduce((sum, b) => sum + b.byteLength, 0);
  while (held > SCRATCH_POOL_MAX_BYTES) held -= free.shift()!.byteLength;
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = setTimeout(dropFreeScratch, SCRATCH_IDLE_MS);
  idleTimer.unref();
}

/**
 * Drops the free buffers now (the garbage collector returns their memory); leases out are not
 * touched. Runs by itself {@linkcode SCRATCH_IDLE_MS} after the last give-back.
 *
 * @example
 * ```ts
 * import { dropFreeScratch } from './_shared_scratch.ts';
 *
 * dropFreeScratch();
 * ```
 */
export function dropFreeScratch(): void {
  free.length = 0;
  if (idleTimer !== undefined) clearTimeout(idleTimer);
  idleTimer = undefined;
}

/**
 * Counters of the pool, for tests.
 *
 * @returns A snapshot.
 *
 * @example
 * ```ts
 * import { scratchStats } from './_shared_scratch.ts';
 *
 * scratchStats().freeBytes; // 0 before anything is given back
 * ```
 */
export function scratchStats(): ScratchStats {
  return { ...counts, freeBytes: free.reduce((sum, b) => sum + b.byteLength, 0) };
}
