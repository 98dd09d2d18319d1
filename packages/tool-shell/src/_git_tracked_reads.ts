import type { ShellWord } from './bash_parser.ts';
import { optionFiles } from './_git_option_files.ts';
import { mayNameRevision } from './_git_revisions.ts';

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
 * copies (`--cached`), history, or files it does not track. (Options that read a file the words
 * name, diff's `-O F` and grep's `-f F`, are found by `optionFiles`.)
 */
const WIDER: Readonly<Record<'diff' | 'grep', ReadonlySet<string>>> = {
  diff: new Set(['--cached', '--staged', '--merge-base', '--no-index']),
  grep: new Set(['--cached', '--untracked', '--no-index', '--no-exclude-standard']),
};

/** A pathspec that is a pattern or magic (`*.ts`, `:(exclude)x`, `:!x`) may match anything. */
export const PATHSPEC_PATTERN = /[*?[\\]|^:/;

/** The words of `git diff` or `git grep`, as its option parser reads them (see {@linkcode diffGrepWords}). */
export interface DiffGrepWords {
  /** The options given (long ones without their `=value`, short ones letter by letter: `-n`). */
  options: string[];
  /** Before `--`: what is neither an option, nor an option's value, nor grep's pattern (revisions or paths). */
  operands: ShellWord[];
  /** After `--`: pathspecs. */
  pathspecs: ShellWord[];
}

/**
 * Reads the words of `git diff` or `git grep` as its option parser does: the options (a bundle
 * letter by letter, the value options of {@linkcode VALUE_OPTIONS} taking the rest of the word or
 * the next one), grep's pattern (its first operand, unless `-e` gave one), the operands before
 * `--` and the pathspecs after it.
 *
 * @param sub `diff` or `grep`.
 * @param words Its words after the subcommand.
 * @returns The options, operands and pathspecs.
 *
 * @example
 * ```ts
 * import { diffGrepWords } from './_git_tracked_reads.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * diffGrepWords('grep', [word('-nA'), word('3'), word('KEY'), word('HEAD'), word('--'), word('src')]);
 * // { options: ['-n', '-A'], operands: [HEAD], pathspecs: [src] }
 * ```
 */
export function diffGrepWords(sub: 'diff' | 'grep', words: readonly ShellWord[]): DiffGrepWords {
  const values = VALUE_OPTIONS[sub];
  const out: DiffGrepWords = { options: [], operands: [], pathspecs: [] };
  let patternGiven = sub !== 'grep';
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const v = word.value;
    if (v === '--' && word.literal) {
      out.pathspecs.push(...words.slice(i + 1));
      break;
    }
    if (word.literal && v.startsWith('--')) {
      const name = v.replace(/=.*/, '');
      out.options.push(name);
      // The value is the next word when not attached (`--output f`; not `--output=f`).
      if (values.has(name) && v === name) i++;
    } else if (word.literal && v.startsWith('-') && v !== '-') {
      const bundle = shortOptions(v, values);
      out.options.push(...bundle.letters);
      if (bundle.letters.includes('-e')) patternGiven = true;
      if (bundle.valueNext) i++;
    } else if (!patternGiven) patternGiven = true;
    else out.operands.push(word);
  }
  return out;
}

/**
 * What a git subcommand reads when it reads only the files the repository tracks in its work
 * tree (and, for `diff`, the index's copies of the same paths): `git diff` and `git grep` without
 * a revision (`HEAD`, a branch, an object name), without `--cached`/`--staged`/`--merge-base`, and
 * for grep without `--untracked`. A file git does not track (a git-ignored `.env`) is then never
 * opened, so the read is declared as the tracked files (`ResourceAccess.tracked`), not as every
 * file with its history. A word that may name a revision (see `mayNameRevision`) makes
 * it a history read, as git would read that commit; so does an option that reads a file
 * (`optionFiles`: diff's `-O F`, grep's `-f F`).
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
  if (words.some((w) => !w.literal) || optionFiles(sub, words).files.length > 0) return undefined;
  const { options, operands, pathspecs } = diffGrepWords(sub, words);
  const wider = WIDER[sub];
  // A long option git would take as an abbreviation of a wider one (`--cach`) is not known here.
  const widens = (name: string) =>
    wider.has(name) || (name.startsWith('--') && [...wider].some((w) => w.startsWith(name)));
  if (options.some(widens)) return undefined;
  if (operands.some((w) => mayNameRevision(w.value, gitDir))) return undefined;
  const paths = [...operands, ...pathspecs];
  // A pathspec that is a pattern (or magic) may match anything: the whole work tree is read.
  return paths.some((w) => PATHSPEC_PATTERN.test(w.value)) ? [] : paths;
}

/**
 * The options of a bundle of short ones as parse-options reads it (`-nf FILE` is `-n -f FILE`):
 * each letter an option, up to one that takes a value, which takes the rest of the word, or the
 * next word when it ends the bundle (`valueNext`).
 *
 * @param word The bundle (`-nA3`).
 * @param values The options that take a value (`-A`).
 * @returns The options, and whether the last one takes the next word.
 *
 * @example
 * ```ts
 * import { shortOptions } from './_git_tracked_reads.ts';
 *
 * shortOptions('-nf', new Set(['-f'])); // { letters: ['-n', '-f'], valueNext: true }
 * shortOptions('-A3n', new Set(['-A'])); // { letters: ['-A'], valueNext: false }
 * ```
 */
export function shortOptions(word: string, values: ReadonlySet<string>): { letters: string[]; valueNext: boolean } {
  const letters: string[] = [];
  for (let c = 1; c < word.length; c++) {
    const letter = `-${word[c]}`;
    letters.push(letter);
    if (values.has(letter)) return { letters, valueNext: c === word.length - 1 };
  }
  return { letters, valueNext: false };
}
