import { runRipgrep } from '../_ripgrep.ts';
import { CLIPPED_MARKER, GrepQueryError, MAX_GREP_COLUMNS, type GrepFound, type GrepLine, type GrepQuery } from './_types.ts';

/**
 * Runs a query with ripgrep: hidden files searched, `.git` skipped, ignore files honoured
 * whether or not the folder is a git repository, long lines clipped.
 *
 * @param rg The ripgrep executable.
 * @param query The query.
 * @param signal Kills ripgrep when aborted.
 * @returns What was found, paths relative to `query.dir`.
 * @throws {GrepQueryError} With ripgrep's own complaint, for a bad regex or an unknown type.
 *
 * @example
 * ```ts
 * await rgSearch('/usr/bin/rg', { pattern: 'TODO', dir: '/repo', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] });
 * ```
 */
export async function rgSearch(rg: string, query: GrepQuery, signal?: AbortSignal): Promise<GrepFound> {
  const args = ['--hidden', '--no-require-git', '--glob', '!.git', '--color', 'never', '--null', '--no-messages'];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  for (const g of query.globs) args.push('--glob', g);
  if (query.type) args.push('--type', query.type);
  if (query.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (query.mode === 'count') args.push('--count', '--with-filename');
  else {
    args.push('--line-number', '--with-filename', '--no-heading', '--max-columns', String(MAX_GREP_COLUMNS), '--max-columns-preview');
    if (query.before) args.push('--before-context', String(query.before));
    if (query.after) args.push('--after-context', String(query.after));
  }
  args.push('--regexp', query.pattern, '--');
  if (query.file) args.push(query.file);
  const run = await runRipgrep(rg, args, signal ? { cwd: query.dir, signal } : { cwd: query.dir });
  if (run.code === 2 && run.stderr.trim()) {
    // Kept on its lines: ripgrep's caret under the bad part of the regex only reads that way.
    const complaint = run.stderr.trim().replace(/\n*Consider enabling PCRE2[\s\S]*$/, '\n\nGrep has no PCRE2 mode: write the pattern without backreferences or look-around.');
    const hint = /unrecognized file type/.test(complaint) ? '\nGive a ripgrep type name such as ts, js, py, rust, go, java, md (`rg --type-list` lists them all), or filter with glob instead.' : '';
    throw new GrepQueryError(`ripgrep rejected the search:\n${complaint}${hint}`);
  }
  const text = run.stdout.toString('utf8');
  if (query.mode === 'files_with_matches') return { mode: 'files_with_matches', files: text.split('\0').filter(Boolean).map(clean) };
  const records = text.split('\n');
  if (records[records.length - 1] === '') records.pop();
  if (query.mode === 'count') {
    const counts = [];
    for (const r of records) {
      const nul = r.indexOf('\0');
      if (nul === -1) continue;
      counts.push({ file: clean(r.slice(0, nul)), count: Number(r.slice(nul + 1)) });
    }
    return { mode: 'count', counts };
  }
  const groups: { file: string; lines: GrepLine[] }[] = [];
  for (const r of records) {
    const nul = r.indexOf('\0');
    if (nul === -1) continue; // `--` separators: rebuilt from line numbers when printing
    const file = clean(r.slice(0, nul));
    const m = /^(\d+)([:-])([\s\S]*)$/.exec(r.slice(nul + 1));
    if (!m) continue;
    let last = groups[groups.length - 1];
    if (!last || last.file !== file) groups.push(last = { file, lines: [] });
    last.lines.push({ n: Number(m[1]), match: m[2] === ':', text: m[3]!.replace(/\r$/, '').replace(/ \[\.\.\. omitted end of long line\]$/, CLIPPED_MARKER) });
  }
  return { mode: 'content', groups };
}

function clean(file: string): string {
  return file.startsWith('./') ? file.slice(2) : file;
}
