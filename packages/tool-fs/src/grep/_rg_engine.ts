import { FD3_PATH, streamRipgrep } from '../_ripgrep.ts';
import { searchInPathOrder, type TwoRunsOptions } from './_rg_two_runs.ts';
import { isPathPart } from './_rg_path_order.ts';
import { GrepQueryError, MAX_GREP_COLUMNS, type GrepQuery, type GrepSink } from './_types.ts';

/**
 * Runs a query with ripgrep: hidden files searched, `.git` skipped, ignore files honoured
 * whether or not the folder is a git repository, long lines clipped. Output is read as it comes
 * and handed to `sink`; in content mode ripgrep prints in path order (`--sort path`) and is
 * stopped as soon as the sink is full, so a page of 10 lines costs 10 lines, not the whole tree.
 *
 * @param query The query.
 * @param sink Where the files, counts or lines go (paths relative to `query.dir`).
 * @param options The ripgrep executable, and a signal that kills ripgrep when aborted.
 * @returns How ripgrep ended: `stopped` when the sink filled up first.
 * @throws {GrepQueryError} With ripgrep's own complaint, for a bad regex or an unknown type.
 *
 * @example
 * ```ts
 * import { GrepPage } from './_page.ts';
 * import { rgSearch } from './_rg_engine.ts';
 * const page = new GrepPage({ mode: 'count', offset: 0, limit: 10, numbers: false, withContext: false, mtimeOf: () => 0, show: (f) => f });
 *
 * await rgSearch({ pattern: 'TODO', dir: '/repo', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] }, page, { rg: '/usr/bin/rg' });
 * ```
 */
export async function rgSearch(
  query: GrepQuery,
  sink: GrepSink,
  options: RgSearchOptions,
): Promise<{ stopped: boolean }> {
  const { rg, signal } = options;
  const args = ['--hidden', '--no-require-git', '--color', 'never', '--null', '--no-messages'];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  for (const g of query.globs) args.push('--glob', g);
  // After the caller's globs, which would win otherwise: `*` would let `.git` in.
  args.push('--glob', '!.git');
  if (query.type) args.push('--type', query.type);
  let onRecord: ((record: string) => boolean) | undefined;
  let onRecords: ((records: string) => boolean) | undefined;
  let onChunks: ((records: Buffer) => boolean) | undefined;
  if (query.mode === 'files_with_matches') {
    args.push('--files-with-matches');
    onRecord = (r) => {
      if (r !== '') sink.file(clean(r));
      return false;
    };
  } else if (query.mode === 'count') {
    args.push('--count', '--with-filename');
    // A record after a part of a path on a line of its own is left out (see isPathPart).
    let afterPart = false;
    onRecord = (r) => {
      const nul = r.indexOf('\0');
      if (nul === -1) afterPart ||= isPathPart(r);
      else if (afterPart) afterPart = false;
      else sink.count(clean(r.slice(0, nul)), Number(r.slice(nul + 1)));
      return false;
    };
  } else {
    const last: LastFile = { raw: '\0', file: '', key: undefined, afterPart: false };
    const whole = runPass(query, sink, last);
    // In path order, so that a page is the same page every time, the run can stop at its end, and
    // a result of every line can be written out as it comes (never held whole to be sorted).
    args.push('--sort', 'path');
    args.push(
      '--line-number',
      '--with-filename',
      '--no-heading',
      '--max-columns',
      String(MAX_GREP_COLUMNS),
      '--max-columns-preview',
    );
    if (query.before) args.push('--before-context', String(query.before));
    if (query.after) args.push('--after-context', String(query.after));
    // Walked in place, record by record: for a result of every line this loop is most of Grep's time.
    onRecords = (text) => {
      let pos = 0;
      const length = text.length;
      while (pos < length) {
        let nl = text.indexOf('\n', pos);
        if (nl === -1) nl = length;
        const nul = text.indexOf('\0', pos);
        // `--` separators have no NUL: rebuilt from line numbers when printing.
        if (nul !== -1 && nul < nl) {
          // `N:text` for a match, `N-text` for context.
          let at = nul + 1;
          let n = 0;
          for (let c = text.charCodeAt(at); c >= 48 && c <= 57; c = text.charCodeAt(++at)) n = n * 10 + c - 48;
          const sep = text.charCodeAt(at);
          // A record after a part of a path on a line of its own: its path is not what precedes its
          // NUL here, and might be a denied file's (see isPathPart). Left out.
          if (last.afterPart) last.afterPart = false;
          else if (at > nul + 1 && (sep === 58 || sep === 45)) {
            // The path is cut out once per file, not once per line.
            if (nul - pos !== last.raw.length || !text.startsWith(last.raw, pos)) {
              last.raw = text.slice(pos, nul);
              last.file = clean(last.raw);
              last.key = undefined;
            }
            // A clipped line already ends with ripgrep's `--max-columns-preview` marker, which is CLIPPED_MARKER.
            const end = text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
            sink.line(last.file, n, sep === 58, text.slice(nul + 1, end), at - nul);
            if (sink.full) return true;
          }
        } else if (isPathPart(text.slice(pos, nl))) last.afterPart = true;
        pos = nl + 1;
      }
      return false;
    };
    const byLine = onRecords;
    onChunks = (bytes) => (!last.afterPart && whole(bytes) ? sink.full : byLine(bytes.toString('utf8')));
    onRecords = undefined;
  }
  args.push('--regexp', query.pattern, '--');
  if (query.file) args.push(options.fd3 === undefined ? query.file : FD3_PATH);
  if (onChunks !== undefined && !query.file && process.platform !== 'win32') {
    // A folder's lines in path order at the speed of every core where the search is sparse.
    const { run, stopped } = await searchInPathOrder(args, {
      rg,
      cwd: options.cwd ?? query.dir,
      signal,
      onChunks,
      unsortedBytes: options.unsortedBytes,
      pauseSortedAfterMs: options.pauseSortedAfterMs,
      pieceShares: options.pieceShares,
      pageLines: sink.keeps,
    });
    throwOnComplaint(run);
    return { stopped };
  }
  const run = await streamRipgrep(rg, args, {
    cwd: options.cwd ?? query.dir,
    fd3: options.fd3,
    signal,
    separator: query.mode === 'files_with_matches' ? '\0' : '\n',
    onRecord,
    onRecords,
    onChunks,
  });
  throwOnComplaint(run);
  return { stopped: run.stopped };
}

/** Throws ripgrep's own complaint about the query (exit code 2 with a message), made readable. */
function throwOnComplaint(run: { code: number | null; stderr: string }): void {
  if (run.code === 2 && run.stderr.trim()) {
    // Kept on its lines: ripgrep's caret under the bad part of the regex only reads that way.
    const complaint = run.stderr
      .trim()
      .replace(
        /\n*Consider enabling PCRE2[\s\S]*$/,
        '\n\nGrep has no PCRE2 mode: write the pattern without backreferences or look-around.',
      );
    const hint = /unrecognized file type/.test(complaint)
      ? '\nGive a ripgrep type name such as ts, js, py, rust, go, java, md (`rg --type-list` lists them all), or filter with glob instead.'
      : '';
    throw new GrepQueryError(`ripgrep rejected the search:\n${complaint}${hint}`);
  }
}

/** Options of {@linkcode rgSearch}. */
export interface RgSearchOptions {
  /** The ripgrep executable. */
  rg: string;
  /** Kills ripgrep when aborted. */
  signal?: AbortSignal | undefined;
  /** A folder's content search: see {@linkcode TwoRunsOptions.unsortedBytes}. */
  unsortedBytes?: number | undefined;
  /** A folder's content search: see {@linkcode TwoRunsOptions.pauseSortedAfterMs}. */
  pauseSortedAfterMs?: number | undefined;
  /** A folder's content search: see {@linkcode TwoRunsOptions.pieceShares}. */
  pieceShares?: readonly number[] | undefined;
  /** Where ripgrep runs: `query.dir` as the call opened it (`/proc/self/fd/N`). @default query.dir */
  cwd?: string | undefined;
  /** `query.file` as the call opened it: searched instead of the name, and reported as {@linkcode FD3_PATH}. */
  fd3?: number | undefined;
}

/** The file of the last line seen, shared by the line-by-line walk and {@linkcode runPass}. */
interface LastFile {
  /** Its path as ripgrep printed it (`\0` before any). */
  raw: string;
  /** The same, as given to the sink. */
  file: string;
  /** `raw` and its NUL as bytes, when a run was taken whole and nothing since. */
  key: Buffer | undefined;
  /** The last line was a part of a path on a line of its own: the next record is left out. */
  afterPart: boolean;
}

/**
 * The common case, a run of plain match lines (`path\0N:text\n` each), passed on as bytes: never
 * decoded, cut into lines or joined again; only checked and counted here, each line's NUL made the
 * `:` it is shown as, in place. The returned function says false (having changed nothing) when
 * the run must go line by line.
 */
function runPass(query: GrepQuery, sink: GrepSink, last: LastFile): (bytes: Buffer) => boolean {
  let nuls = new Int32Array(1024);
  return (bytes: Buffer): boolean => {
    if (query.before || query.after || sink.takesRuns !== true || bytes.indexOf(13) !== -1) return false;
    const files: string[] = [];
    let raw = last.raw;
    let key = last.key;
    let count = 0;
    let pos = 0;
    const length = bytes.length;
    while (pos < length) {
      let nul: number;
      if (key !== undefined && sameStart(bytes, pos, key)) {
        nul = pos + key.length - 1;
      } else {
        nul = bytes.indexOf(0, pos);
        if (nul === -1 || nul > bytes.indexOf(10, pos)) return false;
        const name = bytes.toString('utf8', pos, nul);
        if (name.startsWith('./')) return false;
        // Copied: the run's NULs are rewritten below.
        key = Buffer.from(bytes.subarray(pos, nul + 1));
        if (name !== raw) files.push(name);
        raw = name;
      }
      const c = bytes[nul + 1]!;
      if (c < 48 || c > 57) return false;
      const nl = bytes.indexOf(10, nul + 1);
      // One NUL a line (ripgrep turns a NUL in a file's text into a line break): else line by line.
      const next = bytes.indexOf(0, nul + 1);
      if (next !== -1 && next < nl) return false;
      if (count === nuls.length) {
        const grown = new Int32Array(count * 2);
        grown.set(nuls);
        nuls = grown;
      }
      nuls[count++] = nul;
      pos = nl + 1;
    }
    if (!sink.canTakeRun!(files, count)) return false;
    for (let i = 0; i < count; i++) bytes[nuls[i]!] = 58;
    sink.takeRun!(bytes, files, count);
    last.raw = raw;
    last.file = raw;
    last.key = key;
    return true;
  };
}

/** Whether `bytes` holds `key` at `pos` (compared from the end: the next file's path differs there first). */
function sameStart(bytes: Buffer, pos: number, key: Buffer): boolean {
  // A native compare per line costs more than this loop over a path's few bytes.
  for (let i = key.length - 1; i >= 0; i--) if (bytes[pos + i] !== key[i]) return false;
  return true;
}

function clean(file: string): string {
  return file.startsWith('./') ? file.slice(2) : file;
}
