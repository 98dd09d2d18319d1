import type { ShellWord } from './bash_parser.ts';
import { mayBeOption } from './_option_words.ts';

/** The options of a subcommand that name a file git reads, and its short options that take a value. */
interface FileOptions {
  /** Short options whose value is a file (`-S FILE`, `-SFILE`, `-wSFILE`). */
  short: readonly string[];
  /** Long options whose value is a file (`--contents FILE`, `--contents=FILE`). */
  long: readonly string[];
  /** git takes an abbreviation of the long ones (blame's parse-options does: `--cont=.env`). */
  abbreviated: boolean;
  /** Other short options that take a value (the rest of a bundle after one is its value). */
  values: readonly string[];
}

const BLAME: FileOptions = {
  short: ['-S'],
  long: ['--contents', '--ignore-revs-file'],
  abbreviated: true,
  values: ['-L'],
};
const DIFF: FileOptions = { short: ['-O'], long: ['--orderfile'], abbreviated: false, values: ['-S', '-G', '-I'] };

/**
 * What each subcommand reads through an option: blame's revs lists and contents, diff's order
 * file, grep's patterns, the message file of commit, tag, notes and merge.
 */
const FILE_OPTIONS: Readonly<Record<string, FileOptions>> = {
  blame: BLAME,
  annotate: BLAME,
  grep: { short: ['-f'], long: ['--file'], abbreviated: false, values: ['-e', '-A', '-B', '-C', '-m'] },
  diff: DIFF,
  log: DIFF,
  show: DIFF,
  whatchanged: DIFF,
  // A message read from a file: `git commit -F .env` prints its first line, `git tag -n`, `git log` the rest.
  commit: { short: ['-F', '-t'], long: ['--file', '--template'], abbreviated: true, values: ['-m', '-c', '-C'] },
  tag: { short: ['-F'], long: ['--file'], abbreviated: true, values: ['-m', '-u'] },
  notes: { short: ['-F'], long: ['--file'], abbreviated: true, values: ['-m', '-c', '-C'] },
  merge: { short: ['-F'], long: ['--file'], abbreviated: true, values: ['-m', '-s', '-X'] },
};

/**
 * The files a git subcommand's options make it read: `git blame -S F`, `--contents F`,
 * `--ignore-revs-file F` (or an abbreviation, `--cont=F`, which blame takes), `git diff -O F`
 * (`git log`, `git show`), `git grep -f F`, the message file of `git commit -F F` (`tag`, `notes`,
 * `merge`) and `commit -t F` — alone, attached or at the end of a bundle of short
 * options (`-wSF`, `-nf F`). git may print what it read (`blame -S .env`: "bad graft data: KEY=…",
 * `--contents .env` annotates .env's lines), so each is a read of its own, and a history read
 * with one is not narrowed to the paths named.
 *
 * @param sub The subcommand (`blame`).
 * @param words Its words after the subcommand.
 * @returns The words naming the files (`-` for standard input left out); `hidden` when an
 *   option's value is not known before the command runs.
 *
 * @example
 * ```ts
 * import { optionFiles } from './_git_option_files.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * optionFiles('blame', [word('--cont=.env'), word('a.txt')]).files; // [.env]
 * optionFiles('grep', [word('-nf'), word('.env'), word('KEY')]).files; // [.env]
 * ```
 */
export function optionFiles(sub: string, words: readonly ShellWord[]): { files: ShellWord[]; hidden: boolean } {
  const table = FILE_OPTIONS[sub];
  const files: ShellWord[] = [];
  let hidden = false;
  if (table === undefined) return { files, hidden };
  const take = (value: ShellWord | undefined) => {
    if (value === undefined || value.value === '-') return;
    if (!value.literal) hidden = true;
    files.push(value);
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    if (v === '--') break;
    // A word not known before the command runs may be `-S/elsewhere/key`.
    if (!w.literal && mayBeOption(w)) hidden = true;
    if (!w.literal || !v.startsWith('-') || v === '-') continue;
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      const names = (long: string) => long === name || (table.abbreviated && name.length >= 4 && long.startsWith(name));
      if (!table.long.some(names)) continue;
      if (eq !== -1) take({ ...w, value: v.slice(eq + 1), text: w.text.slice(w.text.indexOf('=') + 1) });
      else take(words[++i]);
      continue;
    }
    for (let c = 1; c < v.length; c++) {
      const letter = `-${v[c]}`;
      const rest = v.slice(c + 1);
      if (table.short.includes(letter)) {
        if (rest !== '') take({ ...w, value: rest, text: rest });
        else take(words[++i]);
        break;
      }
      if (table.values.includes(letter)) {
        if (rest === '') i++;
        break;
      }
    }
  }
  return { files, hidden };
}
