import type { Stats } from 'node:fs';
import { hashContent, type FileState, type FileStateCache } from '@toolshed/core';

/** What {@linkcode checkReadFirst} says: go on (with the read remembered), or why not. */
export type ReadFirstVerdict =
  | { ok: true; partial: boolean; entry: Readonly<FileState> }
  | { ok: false; message: string };

/**
 * The read-first and staleness rule of Edit, Write and NotebookEdit: the file must have been
 * read in this session, and its content must still hash the same (an mtime change alone, from a
 * formatter or `touch`, is fine).
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param bytes The file's bytes now.
 * @param st The file's stat now.
 * @returns Ok with whether the read covered only part of the file, or a message for the model.
 *
 * @example
 * ```ts
 * const verdict = checkReadFirst(ctx.fileState, key, bytes, st);
 * if (!verdict.ok) return { result: false, message: verdict.message };
 * ```
 */
export function checkReadFirst(cache: FileStateCache, key: string, bytes: Uint8Array, st: Stats): ReadFirstVerdict {
  const check = cache.checkFresh(key, { contentHash: hashContent(bytes), mtimeMs: st.mtimeMs });
  if (check.status === 'not_read') {
    return { ok: false, message: `File has not been read yet: ${key}. Read it first with the Read tool, then make the change.` };
  }
  if (check.status === 'stale') return { ok: false, message: check.reason };
  const entry = cache.get(key)!;
  return { ok: true, partial: check.status === 'partial', entry };
}

/**
 * Records in the cache what a write left on disk, so a following Edit needs no new Read. The
 * entry has no range: Read's "unchanged" stub answers only repeats of a Read, and the model
 * has not seen the whole new file.
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param bytes What was written.
 * @param text The text that was written.
 * @param st The file's stat after the write.
 *
 * @example
 * ```ts
 * recordWrite(ctx.fileState, key, bytes, text, await stat(key));
 * ```
 */
export function recordWrite(cache: FileStateCache, key: string, bytes: Uint8Array, text: string, st: Stats): void {
  cache.record(key, { contentHash: hashContent(bytes), mtimeMs: st.mtimeMs, size: st.size, partial: false, content: text });
}
