import type { Stats } from 'node:fs';
import { isSettledTime } from '@toolshed/core/internal';

/** What the file-state cache recorded of a file at a Read or a write, as far as trusting its hash goes. */
export interface RecordedStat {
  contentHash: string;
  mtimeMs: number;
  /** Absent when the reader did not record it: then the hash is not trusted. */
  ctimeMs?: number | undefined;
  size: number;
  /** When the record was made (`Date.now()`). */
  readAt: number;
}

/**
 * The content hash the cache already has for a file whose mtime, change time and size are still
 * those it recorded, when both times had settled when the record was made ({@linkcode isSettledTime}):
 * hashing 20 MB again would say the same. The change time is what `touch -r` cannot put back
 * after a change of the same size, and only a settled one says so: a change in the same tick as
 * the last one before the Read (the same second, on a file system that keeps whole seconds) gets
 * the same change time, and `touch -r` then restores the mtime. Otherwise the file is hashed.
 *
 * @param entry What the cache recorded, if anything.
 * @param st The file's stat now.
 * @returns The recorded hash, or undefined when the file must be hashed again.
 *
 * @example
 * ```ts
 * import { stat } from 'node:fs/promises';
 * import type { ToolContext } from '@toolshed/core';
 * import { trustedHash } from './_trusted_hash.ts';
 * declare const ctx: ToolContext;
 * const key = '/repo/a.ts';
 *
 * trustedHash(ctx.fileState.get(key), await stat(key)); // the Read's hash, or undefined
 * ```
 */
export function trustedHash(
  entry: RecordedStat | undefined,
  st: Pick<Stats, 'mtimeMs' | 'ctimeMs' | 'size'>,
): string | undefined {
  if (entry === undefined || entry.mtimeMs !== st.mtimeMs || entry.size !== st.size) return undefined;
  if (entry.ctimeMs === undefined || entry.ctimeMs !== st.ctimeMs) return undefined;
  const settled = isSettledTime(entry.mtimeMs, entry.readAt) && isSettledTime(entry.ctimeMs, entry.readAt);
  return settled ? entry.contentHash : undefined;
}
