import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';

/**
 * Options of `git diff` and `git grep` that take the next word as their value (parse-options
 * accepts `--output file` as well as `--output=file`): that word is no revision. Checked against
 * the real git in the tests; `--unified` is not one (`--unified HEAD` diffs against HEAD).
 */
export const VALUE_OPTIONS: Readonly<Record<'diff' | 'grep', ReadonlySet<string>>> = {
  diff: new Set([
    '-S',
    '-G',
    '-I',
    '--ignore-matching-lines',
    '--output',
    '--anchored',
    '--find-object',
    '--diff-filter',
    '--word-diff-regex',
    '--color-moved-ws',
    '--ws-error-highlight',
    '--src-prefix',
    '--dst-prefix',
    '--line-prefix',
    '--inter-hunk-context',
    '--stat-width',
    '--stat-name-width',
    '--stat-count',
    '--stat-graph-width',
    '--output-indicator-new',
    '--output-indicator-old',
    '--output-indicator-context',
    '--rotate-to',
    '--skip-to',
    '--diff-algorithm',
  ]),
  grep: new Set([
    '-e',
    '-A',
    '-B',
    '-C',
    '-m',
    '--after-context',
    '--before-context',
    '--context',
    '--max-count',
    '--max-depth',
    '--threads',
  ]),
};

/**
 * Options after which git reads more than the work tree's tracked files: HEAD's and the index's
 * copies (`--cached`), history, files it does not track, or a file the option names (diff's
 * order file `-O F`, grep's pattern file `-f F`).
 */
const WIDER: Readonly<Record<'diff' | 'grep', ReadonlySet<string>>> = {
  diff: new Set(['--cached', '--staged', '--merge-base', '--no-index', '-O']),
  grep: new Set(['--cached', '--untracked', '--no-index', '--no-exclude-standard', '-f', '--file']),
};

/**
 * What a git subcommand reads when it reads only the files the repository tracks in its work
 * tree (and, for `diff`, the index's copies of the same paths): `git diff` and `git grep` without
 * a revision (`HEAD`, a branch, an object name), without `--cached`/`--staged`/`--merge-base`, and
 * for grep without `--untracked`. A file git does not track (a git-ignored `.env`) is then never
 * opened, so the read is declared as the tracked files (`ResourceAccess.tracked`), not as every
 * file with its history. A word that may name a revision (see {@linkcode mayNameRevision}) makes
 * it a history read, as git would read that commit.
 *
 * @param sub The subcommand (`diff`).
 * @param words Its words after the subcommand.
 * @param where `gitDir`: the repository's git folder (for its refs); undefined when not known.
 * @returns Undefined when git may read more than tracked files; else the paths it is limited to
 *   (its pathspecs), or none for the whole work tree (also when a pathspec is a pattern: `*.ts`,
 *   `:(exclude)…`).
 *
 * @example
 * ```ts
 * import { trackedReads } from './_git_tracked_reads.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * trackedReads('diff', [word('--stat')], { gitDir: '/repo/.git' }); // [] (the whole work tree)
 * trackedReads('diff', [word('--'), word('src')], { gitDir: '/repo/.git' }); // [src]
 * trackedReads('diff', [word('HEAD~1')], { gitDir: '/repo/.git' }); // undefined (a history read)
 * ```
 */
export function trackedReads(
  sub: string,
  words: readonly ShellWord[],
  { gitDir }: { gitDir: string | undefined },
): ShellWord[] | undefined {
  if ((sub !== 'diff' && sub !== 'grep') || gitDir === undefined) return undefined;
  const values = VALUE_OPTIONS[sub];
  const paths: ShellWord[] = [];
  // A pathspec that is a pattern (or magic) may match anything: the whole work tree is read.
  let anyPath = false;
  const take = (word: ShellWord) => {
    if (/[*?[\\]|^:/.test(word.value)) anyPath = true;
    else paths.push(word);
  };
  // grep's first operand is its pattern, unless `-e` gave one.
  let patternGiven = false;
  let ended = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const v = word.value;
    if (!word.literal) return undefined;
    if (ended) {
      take(word);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    if (v.startsWith('-') && v !== '-') {
      const name = v.startsWith('--') ? v.replace(/=.*/, '') : v.slice(0, 2);
      // A long option git would take as an abbreviation of a wider one (`--cach`) is not known here.
      if (v.startsWith('--') && [...WIDER[sub]].some((w) => w !== name && w.startsWith(name))) return undefined;
      if (WIDER[sub].has(name)) return undefined;
      if (name === '-e') patternGiven = true;
      // The value is the next word when not attached (`-S foo`, `--output f`; not `-Sfoo`, `--output=f`).
      if (values.has(name) && v === name) i++;
      continue;
    }
    if (sub === 'grep' && !patternGiven) {
      patternGiven = true;
      continue;
    }
    if (mayNameRevision(v, gitDir)) return undefined;
    take(word);
  }
  return anyPath ? [] : paths;
}

/** Names git keeps at the top of its folder for a commit (`HEAD`, `FETCH_HEAD`, `ORIG_HEAD`…). */
const PSEUDO_REF = /^[A-Z_]*HEAD$|^AUTO_MERGE$/;

/**
 * Whether git could read a word as a revision rather than a path: rev syntax (`~`, `^`, `:`,
 * `@{…}`, `..`), what may be an object name (four or more hex digits), a name git keeps for a
 * commit (`HEAD`), or a ref (a branch, tag or remote, loose or packed). A repository whose refs
 * cannot be read here (reftable, an unreadable `packed-refs`) may name anything.
 *
 * @param value The word.
 * @param gitDir The repository's git folder.
 * @returns True when it may be a revision.
 *
 * @example
 * ```ts
 * import { mayNameRevision } from './_git_tracked_reads.ts';
 *
 * mayNameRevision('src/a.ts', '/repo/.git'); // false, unless a branch is named so
 * mayNameRevision('main', '/repo/.git'); // true where the branch exists
 * ```
 */
export function mayNameRevision(value: string, gitDir: string): boolean {
  if (value === '' || /[~^:@{}\\*?[]|\.\./.test(value) || /^[0-9a-f]{4,}$/i.test(value)) return true;
  if (PSEUDO_REF.test(value)) return true;
  const common = commonDir(gitDir);
  if (existsSync(path.join(common, 'reftable'))) return true;
  const names = [value, `refs/${value}`, `refs/tags/${value}`, `refs/heads/${value}`, `refs/remotes/${value}`];
  for (const dir of new Set([gitDir, common])) {
    if (existsSync(path.join(dir, value))) return true;
  }
  for (const name of [...names.slice(1), `refs/remotes/${value}/HEAD`]) {
    if (existsSync(path.join(common, name))) return true;
  }
  let packed: string;
  try {
    packed = readFileSync(path.join(common, 'packed-refs'), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  const wanted = new Set([...names.slice(1), `refs/remotes/${value}/HEAD`]);
  return packed.split('\n').some((line) => wanted.has(line.slice(line.indexOf(' ') + 1).trim()));
}

/** The folder a linked worktree shares refs with (its `commondir`), or the git folder itself. */
function commonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir;
  }
}
