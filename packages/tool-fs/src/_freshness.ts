import type { Stats } from 'node:fs';
import type { FileState, FileStateCache } from '@toolshed/core';
import { hashContent } from '@toolshed/core/internal';

/** What {@linkcode checkReadFirst} says: go on (with the read remembered), or why not. */
export type ReadFirstVerdict =
  | { ok: true; partial: boolean; entry: Readonly<FileState> }
  | { ok: false; message: string };

/** Options of {@linkcode checkReadFirst}. */
export interface CheckReadFirstOptions {
  /** The file's bytes now. */
  bytes: Uint8Array;
  /** The file's stat now. */
  st: Stats;
  /** The bytes' hash, when the caller has it already. @default hashContent(bytes) */
  contentHash?: string | undefined;
}

/**
 * The read-first and staleness rule of Edit, Write and NotebookEdit: the file must have been
 * read in this session, and its content must still hash the same (an mtime change alone, from a
 * formatter or `touch`, is fine).
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param options The file's `bytes` and `st` (its stat) now, and the bytes' `contentHash` when
 *   the caller has it already.
 * @returns Ok with whether the read covered only part of the file, or a message for the model.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { readFile, stat } from 'node:fs/promises';
 * import { checkReadFirst } from './_freshness.ts';
 * declare const ctx: ToolContext;
 * const key = '/repo/a.ts';
 *
 * const verdict = checkReadFirst(ctx.fileState, key, { bytes: await readFile(key), st: await stat(key) });
 * if (!verdict.ok) console.log({ result: false, message: verdict.message });
 * ```
 */
export function checkReadFirst(
  cache: FileStateCache,
  key: string,
  { bytes, st, contentHash = hashContent(bytes) }: CheckReadFirstOptions,
): ReadFirstVerdict {
  const check = cache.checkFresh(key, { contentHash, mtimeMs: st.mtimeMs });
  if (check.status === 'not_read') {
    return {
      ok: false,
      message: `File has not been read yet: ${key}. Read it first with the Read tool, then make the change.`,
    };
  }
  if (check.status === 'stale') return { ok: false, message: check.reason };
  const entry = cache.get(key)!;
  return { ok: true, partial: check.status === 'partial', entry };
}

/** The lines of a file the model has seen, 1-based and inclusive. */
export interface LineRange {
  from: number;
  to: number;
}

/** Options of {@linkcode recordWrite}. */
export interface RecordWriteOptions {
  /** What was written; needed only without `contentHash`. */
  bytes?: Uint8Array | undefined;
  /** The text that was written. */
  text: string;
  /** The file's stat after the write. */
  st: Stats;
  /** The lines the model has seen of the new text, when not all of them. @default all of them */
  seen?: LineRange | undefined;
  /**
   * The bytes' hash, when the caller has it already, or a function giving it on first use (see
   * `hashInBackground`). @default hashContent(bytes)
   */
  contentHash?: string | (() => string) | undefined;
}

/**
 * Records in the cache what a write left on disk, so a following Edit needs no new Read. The
 * entry has no Read behind it, so Read's "unchanged" stub never answers from it. When the
 * model had seen only `seen` lines of the file before the write, the entry stays partial over
 * those lines: an edit inside a partial read must not unlock the lines never read.
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param options What was written (`bytes` and `text`), the file's stat after the write
 *   (`st`), the lines the model has `seen`, and the bytes' `contentHash` (then `bytes` may be left out).
 * @throws {TypeError} With neither `bytes` nor `contentHash`.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { stat } from 'node:fs/promises';
 * import { recordWrite } from './_freshness.ts';
 * declare const ctx: ToolContext;
 * const key = '/repo/a.ts';
 * const text = 'export const a = 1;\n';
 * const bytes = Buffer.from(text);
 *
 * recordWrite(ctx.fileState, key, { bytes, text, st: await stat(key) });
 * ```
 */
export function recordWrite(
  cache: FileStateCache,
  key: string,
  { bytes, text, st, seen, contentHash }: RecordWriteOptions,
): void {
  if (contentHash === undefined && bytes === undefined)
    throw new TypeError('recordWrite needs the bytes written or their contentHash.');
  const base = {
    contentHash: contentHash ?? hashContent(bytes!),
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    size: st.size,
  };
  if (seen === undefined) {
    cache.record(key, { ...base, partial: false, content: text });
    return;
  }
  cache.record(key, { ...base, partial: true, offset: seen.from, limit: Math.max(0, seen.to - seen.from + 1) });
}

/** What one Read showed of a text file (or of a notebook, counted in cells). */
export interface ReadShown {
  contentHash: string;
  mtimeMs: number;
  /** The file's change time, which `touch -r` cannot put back (see `FileState.ctimeMs`). */
  ctimeMs?: number;
  size: number;
  /** The first line shown (1-based). */
  start: number;
  /** How many lines were shown. */
  shown: number;
  /** Lines in the whole file. */
  total: number;
  /** The whole text, when it was read whole (kept for diffs). */
  text?: string | undefined;
}

interface ReadMark {
  seq: number;
  start: number;
  shown: number;
  contentHash: string;
}

// What each Read showed, per session cache: the "unchanged" stub answers only a repeat of a Read
// whose result the model already had when it asked again (not a sibling in the same parallel
// batch), and never from an entry that an Edit or Write recorded.
const marks = new WeakMap<FileStateCache, Map<string, ReadMark>>();
let sequence = 0;

/**
 * A ticket taken when a Read starts; a read recorded after it was not visible to the model when
 * it asked for this one.
 *
 * @returns A number that grows with every ticket and every recorded read.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { isRepeatRead, type ReadShown, readTicket } from './_freshness.ts';
 * declare const ctx: ToolContext;
 * declare const key: string, shown: ReadShown;
 *
 * const ticket = readTicket();
 * // … read the file …
 * if (isRepeatRead(ctx.fileState, key, { ...shown, ticket })) console.log('File unchanged since last read.');
 * ```
 */
export function readTicket(): number {
  return ++sequence;
}

/** Options of {@linkcode isRepeatRead}: what this Read would show, and when it started. */
export interface IsRepeatReadOptions extends Pick<ReadShown, 'contentHash' | 'start' | 'shown'> {
  /** From {@linkcode readTicket}, taken when this Read started. */
  ticket: number;
}

/**
 * Whether a Read would show exactly what an earlier, finished Read of this session showed: the
 * same lines of the same content, recorded before this Read started, and the cache still
 * holding that content (an integrator may clear it, after compacting the conversation say).
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param options What this Read would show (`contentHash`, `start`, `shown`), and the `ticket`
 *   from {@linkcode readTicket}, taken when this Read started.
 * @returns True when a short "unchanged" stub may answer instead.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { isRepeatRead } from './_freshness.ts';
 * declare const ctx: ToolContext;
 * declare const key: string, contentHash: string, ticket: number;
 *
 * if (isRepeatRead(ctx.fileState, key, { contentHash, start: 1, shown: 40, ticket })) console.log({ type: 'unchanged' });
 * ```
 */
export function isRepeatRead(cache: FileStateCache, key: string, options: IsRepeatReadOptions): boolean {
  const mark = marks.get(cache)?.get(key);
  if (!mark || mark.seq > options.ticket) return false;
  if (mark.start !== options.start || mark.shown !== options.shown || mark.contentHash !== options.contentHash)
    return false;
  return cache.get(key)?.contentHash === options.contentHash;
}

/**
 * Records a Read in the cache. Reads of one unchanged file add up: a range that overlaps or
 * touches the lines read before widens them (all lines read make a full read), and a full read
 * stays full when a part is read again; a range apart from the earlier one replaces it.
 *
 * @param cache The session's file-state cache.
 * @param key The canonical path.
 * @param options What was shown: the fields of {@linkcode ReadShown}.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { recordRead } from './_freshness.ts';
 * declare const ctx: ToolContext;
 * declare const key: string, contentHash: string, mtimeMs: number, size: number, text: string;
 *
 * recordRead(ctx.fileState, key, { contentHash, mtimeMs, size, start: 1, shown: 40, total: 40, text });
 * ```
 */
export function recordRead(cache: FileStateCache, key: string, options: ReadShown): void {
  const read = options;
  let from = read.start;
  let to = read.start + read.shown - 1;
  const before = cache.get(key);
  if (before !== undefined && before.contentHash === read.contentHash) {
    const was = before.partial
      ? { from: before.offset ?? 1, to: (before.offset ?? 1) + (before.limit ?? 0) - 1 }
      : { from: 1, to: read.total };
    if (was.from <= to + 1 && from <= was.to + 1) {
      from = Math.min(from, was.from);
      to = Math.max(to, was.to);
    }
  }
  const whole = from <= 1 && to >= read.total;
  const base = {
    contentHash: read.contentHash,
    mtimeMs: read.mtimeMs,
    size: read.size,
    ...(read.ctimeMs !== undefined ? { ctimeMs: read.ctimeMs } : {}),
  };
  if (whole) {
    cache.record(key, {
      ...base,
      partial: false,
      offset: 1,
      limit: read.total,
      ...(read.text !== undefined ? { content: read.text } : {}),
    });
  } else {
    cache.record(key, { ...base, partial: true, offset: from, limit: to - from + 1 });
  }
  let perCache = marks.get(cache);
  if (!perCache) marks.set(cache, (perCache = new Map()));
  perCache.set(key, { seq: ++sequence, start: read.start, shown: read.shown, contentHash: read.contentHash });
}
