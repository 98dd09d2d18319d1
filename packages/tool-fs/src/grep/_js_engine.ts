import { readFileSync, statSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path';
import ignore from 'ignore';
import { decodeText } from '../_text_file.ts';
import { walkFiles } from '../_walk.ts';
import { FILE_TYPES } from './_file_types.ts';
import { comparePaths } from './_page.ts';
import { type MatchOp, type MatchOpResult, multilineMatches } from './_match_ops.ts';
import { leaseMatchWorker, MatchBudgetError, type MatchLease } from './_match_workers.ts';
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
  /**
   * Milliseconds of matching, at worst, done on the search's thread in one go; a longer line
   * goes to a worker thread (0: every line with a character, for tests; Infinity: none). @default 10
   */
  inThreadMs?: number | undefined;
  /**
   * Milliseconds the worker may spend on one piece of a file (a long line, a megabyte of lines,
   * or a whole file with `multiline`) before the search ends with an error naming the file and
   * what to do. @default 10000
   */
  budgetMs?: number | undefined;
}

/** Files over this size are skipped by the JS engine (ripgrep has no such limit). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Milliseconds of synchronous reading between two yields to the event loop. */
const SLICE_MS = 8;
/**
 * Characters, or lines, matched between two points where the search may give the event loop a
 * turn and stop on its signal: a 64 MB file is not matched in one go. Also the most a worker is
 * sent at once (one line may be longer).
 */
const CHUNK_CHARS = 1 << 20;
const CHUNK_LINES = 4096;
/**
 * Milliseconds of matching the search does on its own thread in one go, at worst: a text whose
 * length times the pattern's worst cost a character ({@linkcode CompiledPattern.nsPerChar}) is
 * more goes to a worker thread instead. Neither RE2 (`re2js`) nor RegExp can be interrupted in a
 * call, and one long line (a minified bundle, a JSON file on one line) is one call: with
 * `\w{1,850}\d`, a minute a megabyte. A worker can be terminated (an abort, the budget), and the
 * event loop keeps turning meanwhile. Plain text stays here for lines up to a megabyte, `foo\d+`
 * for lines up to ~12 000 characters: ordinary searches never start a worker.
 */
const IN_THREAD_MS = 10;
/** Milliseconds a worker may spend on one piece before the search ends with an error. */
const MATCH_BUDGET_MS = 10_000;

/**
 * Runs a query in JavaScript with ripgrep's semantics as far as feasible: the same file walk
 * (hidden files, ignore files, no symlinks), the same `glob` override and `type` rules, line-by-line
 * matching (or whole-file with `multiline`), files with a NUL byte skipped, long lines clipped.
 * Files are searched in path order (as `rg --sort path`), one at a time, and what is found goes
 * to `sink` as it is found; the search stops once the sink is full.
 * Patterns are matched in time linear in the text, as ripgrep matches them ({@linkcode compilePattern}).
 * A long line (or, with `multiline`, a long file) that could keep the thread busy is matched in a
 * worker thread (`_match_workers.ts`), which an abort terminates at once, and which ends the
 * search with an error naming the file once one piece takes longer than `budgetMs`.
 * Differences: RE2's syntax (ripgrep's is Rust's: close; `(?x)`, a `\b` it cannot write exactly
 * and repetitions past 1000 copies are refused), columns counted in characters rather than bytes,
 * files over 64 MB skipped.
 *
 * @param query The query.
 * @param sink Where the files, counts or lines go (paths relative to `query.dir`).
 * @param options A signal that stops the search.
 * @returns `stopped` when the sink filled up before every file was searched.
 * @throws {GrepQueryError} For a bad regex or an unknown type, or a piece of a file that took
 *   longer than `budgetMs` to match.
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
  const re = await compilePattern(query);
  const files = await filesOf(query, { signal, readAt });
  const safeChars = Math.floor(((options.inThreadMs ?? IN_THREAD_MS) * 1e6) / re.nsPerChar);
  const lease = leaseMatchWorker();
  const pace = pacer(options.sliceMs ?? SLICE_MS, signal);
  try {
    for (let i = 0; i < files.length; i++) {
      if (sink.full) return { stopped: true };
      if (sink.skips?.(files[i]!)) continue;
      // Synchronous reads in slices of a few milliseconds: much faster than the thread pool for
      // many small files, and the event loop still gets a turn between slices.
      let turn = pace();
      if (turn !== undefined) await turn;
      const at =
        readAt === undefined ? path.join(query.dir, files[i]!) : query.file ? readAt : `${readAt}/${files[i]!}`;
      // Each step is a piece of the file: the loop gets turns, an abort stops it, and a piece
      // too costly for this thread goes to the worker.
      const steps = searchFile(at, files[i]!, { re, query, sink, safeChars });
      let answer: MatchOpResult | undefined;
      for (let step = steps.next(); !step.done; step = steps.next(answer)) {
        answer = undefined;
        if (step.value !== undefined)
          answer = await offThread(lease, step.value, { query, re, rel: files[i]!, signal, options });
        else if ((turn = pace()) !== undefined) await turn;
      }
    }
    return { stopped: false };
  } finally {
    lease.release();
  }
}

/** The files a query searches, in path order. */
async function filesOf(
  query: GrepQuery,
  { signal, readAt }: { signal: AbortSignal | undefined; readAt: string | undefined },
): Promise<string[]> {
  if (query.file !== undefined) return [query.file];
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
  let files = await walkFiles(readAt ?? query.dir, {
    globs: query.globs,
    parentsOf: query.dir,
    ...(signal ? { signal } : {}),
  });
  if (typeFilter) files = files.filter(typeFilter);
  return files.sort(comparePaths);
}

/**
 * A function that stops on `signal`, and once `sliceMs` have passed since the last turn of the
 * event loop, gives it one (a promise to await; undefined, with no await, until then).
 */
function pacer(sliceMs: number, signal: AbortSignal | undefined): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  const turn = async () => {
    await yieldToLoop();
    signal?.throwIfAborted();
    sliceStart = performance.now();
  };
  return () => {
    signal?.throwIfAborted();
    return performance.now() - sliceStart <= sliceMs ? undefined : turn();
  };
}

/** Runs one piece in the lease's worker; a piece over the budget ends the search with what to do. */
async function offThread(
  lease: MatchLease,
  work: MatchOp,
  context: {
    query: GrepQuery;
    re: CompiledPattern;
    rel: string;
    signal: AbortSignal | undefined;
    options: JsSearchOptions;
  },
): Promise<MatchOpResult> {
  const { query, re, rel, signal, options } = context;
  try {
    return await lease.run(query, work, { signal, budgetMs: options.budgetMs ?? MATCH_BUDGET_MS, inThread: re });
  } catch (e) {
    if (!(e instanceof MatchBudgetError)) throw e;
    const file = path.join(query.dir, rel);
    const what =
      work.op === 'multiline'
        ? `the whole of ${file} (${work.text.length} characters, multiline)`
        : `a line of ${longestLine(work.text)} characters in ${file}`;
    const seconds = e.budgetMs / 1000;
    const leaveOut =
      query.file === undefined ? `Leave that file out (a narrower path, or the glob "!${rel}")` : 'Search other files';
    throw new GrepQueryError(
      `Grep stopped: matching the regex ${JSON.stringify(query.pattern)} against ${what} took longer than ${seconds} s with the JS engine (ripgrep is not in use), so the search was ended without results. ${leaveOut}, simplify the pattern (a large count such as {1,850}, or a long list of alternatives, costs time on every character of a long line; prefer + or *, or fixed text), or install ripgrep (rg), which matches it at once.`,
    );
  }
}

function longestLine(text: string): number {
  let longest = 0;
  for (let from = 0; from <= text.length; ) {
    let eol = text.indexOf('\n', from);
    if (eol === -1) eol = text.length;
    longest = Math.max(longest, eol - from);
    from = eol + 1;
  }
  return longest;
}

/** A step of {@linkcode searchFile}: a pause point (undefined), or a piece for the worker, whose answer it is resumed with. */
type FileSearch<T = void> = Generator<MatchOp | undefined, T, MatchOpResult | undefined>;

/** What {@linkcode searchFile} searches with. */
interface FileSearchContext {
  re: CompiledPattern;
  query: GrepQuery;
  sink: GrepSink;
  /** The longest text matched on this thread in one call. */
  safeChars: number;
}

/** Searches one file; each step it yields is a piece done, or one to do off the thread. */
function* searchFile(abs: string, rel: string, context: FileSearchContext): FileSearch {
  const { re, query, sink, safeChars } = context;
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
  if (!query.multiline && re.wholeTextTest && !(yield* testInPieces(text, re, safeChars))) return;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let multiline: { lines: Set<number>; count: number } | undefined;
  if (query.multiline) {
    if (text.length <= safeChars) multiline = yield* multilineMatches(text, re, { lineCount: lines.length });
    else {
      const found = (yield { op: 'multiline', text, lineCount: lines.length }) as { lines: number[]; count: number };
      multiline = { lines: new Set(found.lines), count: found.count };
    }
  }
  if (query.mode !== 'content') {
    const count = multiline?.count ?? (yield* countLines(lines, context));
    if (count === 0) return;
    if (query.mode === 'count') sink.count(rel, count);
    else sink.file(rel, st.mtimeMs);
    return;
  }
  yield* showLines(rel, lines, { ...context, matched: multiline?.lines });
}

/**
 * Which lines of `lines[from..]`'s next piece match: a piece of lines this thread matches in
 * one go ({@linkcode FileSearchContext.safeChars} at most, tested as asked), or, from a line
 * longer than that, up to a megabyte of lines matched by the worker.
 */
function* pieceOf(
  lines: string[],
  from: number,
  context: FileSearchContext & { first: boolean },
): FileSearch<{ to: number; isMatch: (i: number) => boolean }> {
  const { re, safeChars } = context;
  const offThread = lines[from]!.length > safeChars;
  const cap = offThread ? CHUNK_CHARS : Math.min(safeChars, CHUNK_CHARS);
  let to = from;
  for (let chars = 0; to < lines.length && to - from < CHUNK_LINES; to++) {
    const length = lines[to]!.length;
    if (to > from && (chars + length > cap || (!offThread && length > safeChars))) break;
    chars += length + 1;
  }
  if (!offThread) return { to, isMatch: (i) => re.test(lines[i]!) };
  const text = lines.slice(from, to).join('\n');
  const found = (yield { op: 'lines', text, first: context.first }) as number[];
  const matched = new Set(found.map((k) => k + from));
  return { to, isMatch: (i) => matched.has(i) };
}

/** files_with_matches and count, line by line: a file with matches needs one of them; a count, all. */
function* countLines(lines: string[], context: FileSearchContext): FileSearch<number> {
  const first = context.query.mode === 'files_with_matches';
  let count = 0;
  for (let from = 0; from < lines.length; ) {
    // The line as ripgrep matches it, CR included: without --crlf, `$` does not match before a CR.
    const { to, isMatch } = yield* pieceOf(lines, from, { ...context, first });
    for (let i = from; i < to; i++) {
      if (!isMatch(i)) continue;
      count++;
      if (first) return count;
    }
    from = to;
    yield;
  }
  return count;
}

/** content: line by line, context included, stopping as soon as the page is full. */
function* showLines(
  rel: string,
  lines: string[],
  context: FileSearchContext & { matched: Set<number> | undefined },
): FileSearch {
  const { query, sink, matched } = context;
  const clean = (i: number) => (lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!);
  let shownUpTo = -1;
  let afterLeft = 0;
  for (let from = 0; from < lines.length; ) {
    const piece =
      matched === undefined
        ? yield* pieceOf(lines, from, { ...context, first: false })
        : { to: nextChunk(lines, from), isMatch: (i: number) => matched.has(i) };
    for (let i = from; i < piece.to; i++) {
      if (piece.isMatch(i)) {
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
    }
    from = piece.to;
    yield;
  }
}

/** Where the chunk of lines from `from` ends: {@linkcode CHUNK_LINES} lines or {@linkcode CHUNK_CHARS} characters. */
function nextChunk(lines: string[], from: number): number {
  let to = from;
  for (let chars = 0; to < lines.length && to - from < CHUNK_LINES && chars < CHUNK_CHARS; to++)
    chars += lines[to]!.length;
  return to;
}

/**
 * Whether `text` holds a match, tested a piece of whole lines at a time (the same answer, for a
 * pattern with `wholeTextTest`): pieces of up to `safeChars` on this thread, and from a line
 * longer than that, up to a megabyte of lines in the worker.
 */
function* testInPieces(text: string, re: CompiledPattern, safeChars: number): FileSearch<boolean> {
  for (let from = 0; from < text.length; ) {
    let eol = text.indexOf('\n', from);
    if (eol === -1) eol = text.length;
    const offThread = eol - from > safeChars;
    const cap = offThread ? CHUNK_CHARS : Math.min(safeChars, CHUNK_CHARS);
    const to = from + cap >= text.length ? text.length : Math.max(eol, text.lastIndexOf('\n', from + cap));
    const piece = from === 0 && to === text.length ? text : text.slice(from, to);
    if (offThread ? (yield { op: 'test', text: piece }) === true : re.test(piece)) return true;
    from = to + 1;
    yield;
  }
  return false;
}

function clipColumns(line: string): string {
  return line.length <= MAX_GREP_COLUMNS ? line : `${line.slice(0, MAX_GREP_COLUMNS)}${CLIPPED_MARKER}`;
}
