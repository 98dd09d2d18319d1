import type { ShellWord } from './bash_parser.ts';
import { optionFiles } from './_git_option_files.ts';
import { surelyCommit } from './_git_revisions.ts';
import { diffGrepWords, PATHSPEC_PATTERN } from './_git_tracked_reads.ts';

/** A path a history read is limited to, relative to the command's folder or (`HEAD:a.txt`) the work tree's top. */
export interface HistoryPath {
  word: ShellWord;
  fromTop: boolean;
}

/** Options of `git blame` that take the next word as their value (checked against the real git in the tests). */
export const BLAME_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  '-L',
  '-S',
  '--contents',
  '--reverse',
  '--ignore-rev',
  '--ignore-revs-file',
  '--date',
  '--encoding',
]);

/** Options of `git log` that show more than the paths named: renames followed, whole commits, line ranges of any file. */
const WIDENING = /^(--follow|--full-diff|-L|--line-range)/;

/** Options of `git show` that name refs by the set (`--all`, `--tags`, `--glob=…`): any of them may be a tag of a blob. */
const REF_SETS = /^--(all|branches|tags|remotes|glob|reflog|indexed-objects|alternate-refs|exclude|bisect)/;

/**
 * The paths a git read of history is limited to, when its words say so: pathspecs after `--`
 * (`git log -p -- src`, `git show HEAD -- a.txt`, `git diff HEAD~1 -- a.txt`), the paths of
 * `REV:path` objects (`git show HEAD:a.txt`, `git cat-file -p HEAD~2:src/x.ts`), and the file
 * `git blame` annotates (every operand is taken for one: a revision named as a path covers
 * nothing). git prints nothing of other files then, so a rule about `.env` does not hold back
 * `git log -p -- src`. Undefined where the whole history may be read: no path named, a pathspec
 * that is a pattern, `--follow`/`--full-diff`/`-L` (renames followed, whole commits), an option
 * that reads a file (see `optionFiles`), `--stdin` (pathspecs from the input), an object of
 * `show`, `diff` or `grep` that may be a blob or a tree (see `surelyCommit`: a blob is shown
 * whole, a tree's pathspecs are read from its own folder), or a word not known before the
 * command runs.
 *
 * @param sub The subcommand (`log`).
 * @param words Its words after the subcommand.
 * @param where `gitDir`: the repository's git folder (to tell a branch from a tag); undefined outside any
 *   repository (git shows nothing there).
 * @returns The paths, or undefined for the whole history.
 *
 * @example
 * ```ts
 * import { historyPaths } from './_git_history_paths.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * const where = { gitDir: '/repo/.git' };
 * historyPaths('log', [word('-p'), word('--'), word('src')], where); // [{ word: src, fromTop: false }]
 * historyPaths('show', [word('HEAD:a.txt')], where); // [{ word: a.txt, fromTop: true }]
 * historyPaths('show', [word('v1.0'), word('--'), word('a.txt')], where); // undefined: a tag may name a blob
 * historyPaths('log', [word('-p')], where); // undefined
 * ```
 */
export function historyPaths(
  sub: string,
  words: readonly ShellWord[],
  { gitDir }: { gitDir: string | undefined },
): HistoryPath[] | undefined {
  if (words.some((w) => !w.literal)) return undefined;
  // Outside any repository git shows nothing: HEAD is taken for a commit there.
  const commit = (rev: string) => surelyCommit(rev, gitDir) || (gitDir === undefined && /^(HEAD|@)$/.test(rev));
  const end = words.findIndex((w) => w.value === '--');
  const before = end === -1 ? words : words.slice(0, end);
  const after = end === -1 ? [] : words.slice(end + 1);
  // An option that reads a file the words name (blame's `-S F`, diff's `-O F`): git may print it.
  if (optionFiles(sub, words).files.length > 0) return undefined;
  // `--stdin` reads more revisions and, after a `--` line, more pathspecs from standard input.
  if (before.some((w) => w.value === '--stdin')) return undefined;
  if (sub === 'blame' || sub === 'annotate') return blamed(words);
  if ((sub === 'log' || sub === 'whatchanged' || sub === 'show') && before.some((w) => WIDENING.test(w.value)))
    return undefined;
  const paths: HistoryPath[] = [];
  for (const spec of after) {
    if (spec.value === '' || PATHSPEC_PATTERN.test(spec.value)) return undefined;
    paths.push({ word: spec, fromTop: false });
  }
  if (sub === 'show' || sub === 'cat-file') {
    // Each object named: `REV:path` reads that path; any other names a commit (all of it) or a tree.
    let commits = 0;
    // `git show --all -- a.txt` shows every ref, a tag of a blob among them, whole.
    if (sub === 'show' && before.some((w) => REF_SETS.test(w.value))) return undefined;
    for (const w of before) {
      if (w.value.startsWith('-') || (sub === 'cat-file' && /^(blob|tree|commit|tag)$/.test(w.value))) continue;
      const path = objectPath(w);
      // `TREE:secrets.json` reads the path in that tree (`HEAD~1:config`'s, named by its object
      // name or a tag), not from the top: only a commit's (or the index's, `:path`) is from the top.
      if (path !== undefined && !w.value.startsWith(':') && !commit(w.value.split(':')[0]!)) return undefined;
      if (path !== undefined) paths.push(path);
      // A blob or a tree named (an object name, a tag) is shown whole, whatever the pathspec.
      else if (sub === 'cat-file' || !commit(w.value)) return undefined;
      else commits++;
    }
    if (commits > 0 && after.length === 0) return undefined;
  } else if (sub === 'diff' || sub === 'grep') {
    // A tree named (`HEAD:config`, a tree's object name) is read from its own folder, not from the
    // top the pathspecs are taken from; a blob is read whole.
    if (!diffGrepWords(sub, before).operands.every((w) => commit(w.value))) return undefined;
  } else if (sub !== 'log' && sub !== 'whatchanged') return undefined;
  return paths.length > 0 ? paths : undefined;
}

/**
 * The file `git blame` annotates is one of its operands (the last, after any revision): each is
 * taken for a path (a revision taken so names nothing a rule covers), the values of its options
 * left out.
 */
function blamed(words: readonly ShellWord[]): HistoryPath[] | undefined {
  const paths: HistoryPath[] = [];
  let ended = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!ended && w.value === '--') {
      ended = true;
      continue;
    }
    if (!ended && w.value.startsWith('-') && w.value !== '-') {
      if (BLAME_VALUE_OPTIONS.has(w.value)) i++;
      continue;
    }
    if (w.value !== '') paths.push({ word: w, fromTop: false });
  }
  return paths.length > 0 ? paths : undefined;
}

/**
 * The path of an object named `REV:path` (relative to the top; `REV:./x` and `REV:../x` to the
 * command's folder) or `:path`/`:N:path` (the index's copy); undefined for any other name.
 */
function objectPath(w: ShellWord): HistoryPath | undefined {
  const m = /^(?::[0-3]|[^:]*):(?!\/)(.+)$/.exec(w.value);
  if (!m) return undefined;
  const path = m[1]!;
  if (PATHSPEC_PATTERN.test(path) || path.startsWith('(')) return undefined;
  const relative = path === '.' || path.startsWith('./') || path.startsWith('../');
  return { word: { ...w, value: path, text: path }, fromTop: !relative };
}
