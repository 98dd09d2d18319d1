import { streamRipgrep } from '../_ripgrep.ts';
import { CLIPPED_MARKER, GrepQueryError, MAX_GREP_COLUMNS, type GrepQuery, type GrepSink } from './_types.ts';

/**
 * Runs a query with ripgrep: hidden files searched, `.git` skipped, ignore files honoured
 * whether or not the folder is a git repository, long lines clipped. Output is read as it comes
 * and handed to `sink`; in content mode ripgrep prints in path order (`--sort path`) and is
 * stopped as soon as the sink is full, so a page of 10 lines costs 10 lines, not the whole tree.
 *
 * @param rg The ripgrep executable.
 * @param query The query.
 * @param sink Where the files, counts or lines go (paths relative to `query.dir`).
 * @param signal Kills ripgrep when aborted.
 * @returns How ripgrep ended: `stopped` when the sink filled up first.
 * @throws {GrepQueryError} With ripgrep's own complaint, for a bad regex or an unknown type.
 *
 * @example
 * ```ts
 * import { GrepPage } from './_page.ts';
 * import { rgSearch } from './_rg_engine.ts';
 * const page = new GrepPage({ mode: 'count', offset: 0, limit: 10, numbers: false, withContext: false, mtimeOf: () => 0, show: (f) => f });
 *
 * await rgSearch('/usr/bin/rg', { pattern: 'TODO', dir: '/repo', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] }, page);
 * ```
 */
export async function rgSearch(
  rg: string,
  query: GrepQuery,
  sink: GrepSink,
  signal?: AbortSignal,
): Promise<{ stopped: boolean }> {
  const args = ['--hidden', '--no-require-git', '--glob', '!.git', '--color', 'never', '--null', '--no-messages'];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  for (const g of query.globs) args.push('--glob', g);
  if (query.type) args.push('--type', query.type);
  let onRecord: (record: string) => boolean;
  if (query.mode === 'files_with_matches') {
    args.push('--files-with-matches');
    onRecord = (r) => {
      if (r !== '') sink.file(clean(r));
      return false;
    };
  } else if (query.mode === 'count') {
    args.push('--count', '--with-filename');
    onRecord = (r) => {
      const nul = r.indexOf('\0');
      if (nul !== -1) sink.count(clean(r.slice(0, nul)), Number(r.slice(nul + 1)));
      return false;
    };
  } else {
    // In path order, so that a page is the same page every time, and the run can stop at its end
    // (with no limit the sink sorts, and ripgrep keeps its threads).
    if (sink.wantsOrder) args.push('--sort', 'path');
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
    onRecord = (r) => {
      const nul = r.indexOf('\0');
      if (nul === -1) return false; // `--` separators: rebuilt from line numbers when printing
      // `N:text` for a match, `N-text` for context.
      let at = nul + 1;
      while (at < r.length && r.charCodeAt(at) >= 48 && r.charCodeAt(at) <= 57) at++;
      const sep = r[at];
      if (at === nul + 1 || (sep !== ':' && sep !== '-')) return false;
      let text = r.slice(at + 1);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (text.endsWith(RG_CLIPPED)) text = `${text.slice(0, -RG_CLIPPED.length)}${CLIPPED_MARKER}`;
      sink.line(clean(r.slice(0, nul)), { n: Number(r.slice(nul + 1, at)), match: sep === ':', text });
      return sink.full;
    };
  }
  args.push('--regexp', query.pattern, '--');
  if (query.file) args.push(query.file);
  const run = await streamRipgrep(rg, args, {
    cwd: query.dir,
    signal,
    separator: query.mode === 'files_with_matches' ? '\0' : '\n',
    onRecord,
  });
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
  return { stopped: run.stopped };
}

/** What `--max-columns-preview` ends a clipped line with. */
const RG_CLIPPED = ' [... omitted end of long line]';

function clean(file: string): string {
  return file.startsWith('./') ? file.slice(2) : file;
}
