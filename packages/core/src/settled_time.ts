/** How close to now a timestamp is still too recent to vouch for the file or folder it stamps. */
const RACY_MARGIN_MS = 50;
/**
 * The longest tick of a file system that keeps times in whole seconds: FAT's mtime counts in
 * two seconds; HFS+, ext3 and some NFS servers in one.
 */
const COARSE_TICK_MS = 2000;

/**
 * Whether a change after `now` would certainly give a file or folder a timestamp other than
 * `timeMs`: the stamp is older than a small margin, and older than one tick of a file system
 * that keeps whole seconds when it is a whole second (there, every change in the rest of that
 * second, or two on FAT, gets the same stamp). A cache that trusts an unchanged timestamp
 * (a folder's, to skip its entries; a file's, to skip hashing it) may trust only a settled one.
 * A whole-second time on a file system with finer times (one in a thousand, or one set by
 * `touch -d`) only waits the two seconds too.
 *
 * @param timeMs The timestamp (`mtimeMs` or `ctimeMs`), in milliseconds.
 * @param nowMs When it is looked at (`Date.now()`).
 * @returns True when the timestamp can be trusted to move with any later change.
 *
 * @example
 * ```ts
 * import { isSettledTime } from '@toolshed/core/internal';
 *
 * isSettledTime(Date.now() - 1000.25, Date.now()); // true: ms precision, a second old
 * isSettledTime(Math.floor(Date.now() / 1000) * 1000 - 1000, Date.now()); // false: whole seconds, under two old
 * ```
 */
export function isSettledTime(timeMs: number, nowMs: number): boolean {
  const coarse = timeMs % 1000 === 0;
  return timeMs + (coarse ? COARSE_TICK_MS : 0) < nowMs - RACY_MARGIN_MS;
}
