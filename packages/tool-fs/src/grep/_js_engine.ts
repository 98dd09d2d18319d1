import { readFileSync, statSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path';
import ignore from 'ignore';
import { decodeText } from '../_text_file.ts';
import { walkFiles } from '../_walk.ts';
import { FILE_TYPES } from './_file_types.ts';
import { comparePaths } from './_page.ts';
import { type CompiledPattern, compilePattern } from './_pattern.ts';
import { CLIPPED_MARKER, GrepQueryError, MAX_GREP_COLUMNS, type GrepQuery, type GrepSink } from './_types.ts';

/** Options of {@linkcode jsSearch}. */
export interface JsSearchOptions {
  /** Stops the search when aborted. */
  signal?: AbortSignal | undefined;
  /**
   * Where the search reads: the folder `query.dir` (or, with `query.file`, that file) as the call
   * opened it (`/proc/self/fd/N`), so that a link re-pointed since the permission check cannot
   * lead it elsewhere. Paths given to the sink stay relative to `query.dir`. @default query.dir
   */
  readAt?: string | undefined;
  /**
   * Milliseconds of synchronous matching between two turns of the event loop (0: a turn at every
   * chunk of a file, for tests). @default 8
   */
  sliceMs?: number | undefined;
}

/** Files over this size are skipped by the JS engine (ripgrep has no such limit). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Milliseconds of synchronous reading between two yields to the event loop. */
const SLICE_MS = 8;
/**
 * Characters, or lines, matched between two points where the search may give the event loop a
 * turn and stop on its signal: a 64 MB file is not matched in one go.
 */
const CHUNK_CHARS = 1 << 20;
const CHUNK_LINES = 4096;

/**
 * Runs a query in JavaScript with ripgrep's semantics as far as feasible: the same file walk
 * (hidden files, ignore files, no symlinks), the same `glob` override and `type` rules, line-by-line
 * matching (or whole-file with `multiline`), files with a NUL byte skipped, long lines clipped.
 * Files are searched in path order (as `rg --sort path`), one at a time, and what is found goes
 * to `sink` as it is found; the search stops once the sink is full.
 * Patterns are matched in time linear in the text, as ripgrep matches them ({@linkcode compilePattern}).
 * Differences: RE2's syntax (ripgrep's is Rust's: close; `(?x)`, a `\b` it cannot write exactly
 * and repetitions past 1000 copies are refused), columns counted in characters rather than bytes,
 * files over 64 MB skipped.
 *
 * @param query The query.
 * @param sink Where the files, counts or lines go (paths relative to `query.dir`).
 * @param options A signal that stops the search.
 * @returns `stopped` when the sink filled up before every file was searched.
 * @throws {GrepQueryError} For a bad regex or an unknown type.
 *
 * @example
 * ```ts
 * import { jsSearch } from './_js_engine.ts';
 * import { GrepPage } from './_page.ts';
 * const page = new GrepPage({ mode: 'files_with_matches', offset: 0, limit: 10, numbers: false, withContext: false, mtimeOf: () => 0, show: (f) => f });
 *
 * await jsSearch({ pattern: 'TODO', dir: '/repo', mode: 'files_with_matches', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] }, page, {});
 * ```
 */
export async function jsSearch(
  query: GrepQuery,
  sink: GrepSink,
  options: JsSearchOptions = {},
): Promise<{ stopped: boolean }> {
  const { signal, readAt } = options;
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const re = await compilePattern(query);
  let typeFilter: ((rel: string) => boolean) | undefined;
  if (query.type !== undefined) {
    const globs = FILE_TYPES[query.type];
    if (!globs)
      throw new GrepQueryError(
        `unrecognized file type: ${query.type} (known here: ${Object.keys(FILE_TYPES).join(', ')})`,
      );
    const ig = ignore().add([...globs]);
    typeFilter = (rel) => ig.ignores(path.posix.basename(rel));
  }
  let files: string[];
  if (query.file !== undefined) {
    files = [query.file];
  } else {
    files = await walkFiles(readAt ?? query.dir, {
      globs: query.globs,
      parentsOf: query.dir,
      ...(signal ? { signal } : {}),
    });
    if (typeFilter) files = files.filter(typeFilter);
    files.sort(comparePaths);
  }
  let sliceStart = performance.now();
  for (let i = 0; i < files.length; i++) {
    if (sink.full) return { stopped: true };
    // Synchronous reads in slices of a few milliseconds: much faster than the thread pool for
    // many small files, and the event loop still gets a turn between slices.
    if (performance.now() - sliceStart > sliceMs) {
      await yieldToLoop();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    const at = readAt === undefined ? path.join(query.dir, files[i]!) : query.file ? readAt : `${readAt}/${files[i]!}`;
    // Each step is a chunk of the file: a big one gives the loop turns and stops when aborted.
    for (const _ of searchFile(at, files[i]!, re, query, sink)) {
      signal?.throwIfAborted();
      if (performance.now() - sliceStart > sliceMs) {
        await yieldToLoop();
        signal?.throwIfAborted();
        sliceStart = performance.now();
      }
    }
  }
  return { stopped: false };
}

/** Searches one file; each step it yields is a chunk done, where the caller may pause or stop it. */
function* searchFile(abs: string, rel: string, re: CompiledPattern, query: GrepQuery, sink: GrepSink): Generator<void> {
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > MAX_FILE_BYTES) return;
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return; // unreadable: skipped, as ripgrep skips it (with --no-messages)
  }
  if (bytes.indexOf(0) !== -1 && !(bytes[0] === 0xff && bytes[1] === 0xfe)) return;
  const { text } = decodeText(bytes);
  // Most files do not match: one pass over the whole text rules them out before splitting lines.
  // (With the m flag, ^ and $ work at line ends there too.)
  if (!query.multiline && re.wholeTextTest && !(yield* testInChunks(text, re))) return;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const clean = (i: number) => (lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!);
  let isMatch: (i: number) => boolean;
  let count = 0;
  if (query.multiline) {
    const matched = yield* multilineMatches(text, lines.length, re);
    count = matched.count;
    isMatch = (i) => matched.lines.has(i);
  } else {
    // The line as ripgrep matches it, CR included: without --crlf, `$` does not match before a CR.
    isMatch = (i) => re.test(lines[i]!);
  }
  const chunk = chunker(lines);
  if (query.mode !== 'content') {
    if (!query.multiline) {
      // A file with matches needs one of them; a count, all.
      for (let i = 0; i < lines.length && (count === 0 || query.mode === 'count'); i++) {
        if (isMatch(i)) count++;
        if (chunk(i)) yield;
      }
    }
    if (count === 0) return;
    if (query.mode === 'count') sink.count(rel, count);
    else sink.file(rel, st.mtimeMs);
    return;
  }
  // Line by line, context included, stopping as soon as the page is full.
  let shownUpTo = -1;
  let afterLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    if (isMatch(i)) {
      for (let c = Math.max(shownUpTo + 1, i - query.before); c < i; c++)
        sink.line(rel, c + 1, false, clipColumns(clean(c)));
      sink.line(rel, i + 1, true, clipColumns(clean(i)));
      shownUpTo = i;
      afterLeft = query.after;
    } else if (afterLeft > 0) {
      sink.line(rel, i + 1, false, clipColumns(clean(i)));
      shownUpTo = i;
      afterLeft--;
    }
    if (sink.full) return;
    if (chunk(i)) yield;
  }
}

/** Whether a chunk of lines ends at line `i`: every {@linkcode CHUNK_LINES} lines or {@linkcode CHUNK_CHARS} characters. */
function chunker(lines: string[]): (i: number) => boolean {
  let chars = 0;
  let count = 0;
  return (i) => {
    chars += lines[i]!.length;
    if (++count < CHUNK_LINES && chars < CHUNK_CHARS) return false;
    chars = 0;
    count = 0;
    return true;
  };
}

/**
 * Whether `text` holds a match, tested a chunk of whole lines at a time (the same answer, for a
 * pattern with `wholeTextTest`), with a step between two chunks.
 */
function* testInChunks(text: string, re: CompiledPattern): Generator<void, boolean> {
  for (let from = 0; from < text.length; ) {
    let to = from + CHUNK_CHARS >= text.length ? text.length : text.indexOf('\n', from + CHUNK_CHARS);
    if (to === -1) to = text.length;
    if (re.test(from === 0 && to === text.length ? text : text.slice(from, to))) return true;
    from = to + 1;
    yield;
  }
  return false;
}

/**
 * With multiline: the lines every match touches, and the count ripgrep says: the matches where
 * one holds a line break, else the lines with a match (rg -U searches line by line for a pattern
 * that cannot match one, and counts lines then; that is decided here by the matches found).
 * A match past the last line (`\z`, after the final line break) touches no line and counts for nothing.
 */
function* multilineMatches(
  text: string,
  lineCount: number,
  re: CompiledPattern,
): Generator<void, { lines: Set<number>; count: number }> {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineAt = (index: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const lines = new Set<number>();
  let count = 0;
  let breaks = false;
  let stepAt = 0;
  for (const m of re.matches(text)) {
    if (m.end - stepAt > CHUNK_CHARS) {
      stepAt = m.end;
      yield;
    }
    if (lineAt(m.start) >= lineCount) continue;
    count++;
    const nl = text.indexOf('\n', m.start);
    if (nl !== -1 && nl < m.end) breaks = true;
    const end = Math.max(m.start, m.end - 1);
    for (let l = lineAt(m.start); l <= lineAt(end) && l < lineCount; l++) lines.add(l);
  }
  return { lines, count: breaks ? count : lines.size };
}

function clipColumns(line: string): string {
  return line.length <= MAX_GREP_COLUMNS ? line : `${line.slice(0, MAX_GREP_COLUMNS)}${CLIPPED_MARKER}`;
}
