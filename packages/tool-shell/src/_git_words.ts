import type { ShellWord } from './bash_parser.ts';
import { mayBeOption } from './_option_words.ts';

/** Options of a subcommand that take a value (the next word, or attached: `-ofile`, `--output=f`). */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  checkout: ['-b', '-B', '--orphan', '--pathspec-from-file'],
  rebase: ['-x', '--exec', '--onto', '-s', '--strategy', '-X', '--strategy-option'],
  difftool: ['-x', '--extcmd', '-t', '--tool'],
  restore: ['-s', '--source', '--pathspec-from-file'],
  rm: ['--pathspec-from-file'],
  clean: ['-e', '--exclude'],
  stash: ['-m', '--message', '--pathspec-from-file'],
  config: ['-f', '--file', '--blob', '--type', '--default', '--comment'],
  archive: ['-o', '--output', '--format', '--prefix', '--remote', '--exec', '--add-file', '--add-virtual-file'],
  'format-patch': ['-o', '--output-directory', '--output'],
  'checkout-index': ['--prefix'],
  'read-tree': ['--prefix', '--index-output', '--exclude-per-directory'],
  worktree: ['-b', '-B', '--reason'],
  grep: ['-O', '--open-files-in-pager'],
  'ls-remote': ['-u', '--upload-pack'],
  clone: [
    '-u',
    '--upload-pack',
    '--template',
    '--separate-git-dir',
    '-c',
    '--config',
    '-o',
    '--origin',
    '-b',
    '--branch',
  ],
  init: ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format'],
  branch: ['-u', '--set-upstream-to'],
  'fast-export': ['--export-marks', '--import-marks'],
  'fast-import': ['--export-marks', '--import-marks'],
  mailsplit: ['-o'],
  diagnose: ['-o', '--output-directory', '-s', '--suffix'],
  bugreport: ['-o', '--output-directory', '-s', '--suffix'],
};

/** Short options that are another spelling of a long one (`-n` is `--dry-run`: `--no-dry-run` undoes it). */
const SHORT_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  config: { '-l': '--list', '-f': '--file', '-e': '--edit' },
  rm: { '-n': '--dry-run' },
  mv: { '-n': '--dry-run' },
  clean: { '-n': '--dry-run', '-e': '--exclude' },
  restore: { '-S': '--staged', '-W': '--worktree', '-s': '--source', '-p': '--patch' },
  checkout: { '-p': '--patch' },
  'checkout-index': { '-a': '--all' },
  'format-patch': { '-o': '--output-directory' },
  archive: { '-o': '--output' },
  branch: { '-t': '--track', '-u': '--set-upstream-to', '-m': '--move', '-c': '--copy', '-d': '--delete' },
  'merge-file': { '-p': '--stdout' },
};

/** `git config` actions that change a config file (`--unset`, `--add`, `--edit`…). */
export const CONFIG_WRITE_FLAGS = [
  '--unset',
  '--unset-all',
  '--add',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '--edit',
];
/** `git config` actions that only read (`--get`, `--list`…). */
export const CONFIG_READ_FLAGS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
];
/** `git config`'s choice of file. */
const CONFIG_FLAGS = ['--global', '--system', '--local', '--worktree'];

/** Long options without a value that change what a subcommand writes (git takes their abbreviations too). */
const FLAG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  config: [...CONFIG_WRITE_FLAGS, ...CONFIG_READ_FLAGS, ...CONFIG_FLAGS],
  restore: ['--staged', '--worktree', '--patch'],
  checkout: ['--patch'],
  rm: ['--cached', '--dry-run'],
  mv: ['--dry-run'],
  clean: ['--dry-run'],
  'checkout-index': ['--all', '--stdin', '--temp'],
  'format-patch': ['--stdout'],
  'merge-file': ['--stdout'],
  branch: ['--track', '--unset-upstream', '--move', '--copy', '--delete', '--edit-description'],
  init: ['--bare'],
  'update-ref': ['--stdin'],
  'symbolic-ref': ['--delete'],
};

/** Long options every subcommand is read for: the diff and log options that write or run. */
const COMMON_VALUE_OPTIONS = ['--output', '--upload-pack', '--receive-pack', '--exec'];

/** The log and diff family's options that take a value (so `--grep "$P"` is a pattern, not an option). */
const LOG_VALUE_OPTIONS = ['-S', '-G', '--grep', '--author', '--committer', '--since', '--until'];
const LOG_FAMILY = new Set(['log', 'show', 'whatchanged', 'shortlog', 'reflog', 'rev-list', 'diff', 'stash']);

/** Log's own (not diff's): how many commits, which lines. */
const LOG_ONLY_VALUE_OPTIONS = ['-n', '--max-count', '--skip', '-L'];

/** The options of `sub` that take a value. */
function valuedOptions(sub: string): string[] {
  const log = LOG_FAMILY.has(sub) ? [...LOG_VALUE_OPTIONS, ...(sub === 'diff' ? [] : LOG_ONLY_VALUE_OPTIONS)] : [];
  return [...(VALUE_OPTIONS[sub] ?? []), ...COMMON_VALUE_OPTIONS, ...log];
}

/**
 * A long option as git reads it: itself when known, else the one known option it is a prefix of
 * (where git takes abbreviations: `restore --sour`, `config --glob`; several known options make
 * git refuse the command, so it stays as written).
 */
function canonical(known: readonly string[], name: string): string {
  if (known.includes(name)) return name;
  const candidates = known.filter((o) => o.startsWith(name));
  return candidates.length === 1 ? candidates[0]! : name;
}

/**
 * Declares one word as a path the command writes: a folder when `kind` says so, `worktree` for a
 * folder git writes as a work tree (files it tracks, no `.git` folder in it), `checkout` for one
 * whose files git makes from its index as the index is when git runs (`restore`, `checkout`);
 * `from`: the folder whose contents land at the path (`git mv DIR NEW`, see `ResourceAccess.from`).
 */
type DeclareWrite = (
  word: ShellWord | undefined,
  access: 'write',
  kind?: 'folder' | 'worktree' | 'checkout',
  from?: string,
) => void;

/** Where a git command's paths lead, as far as the guard can tell before it runs. */
export interface GitWriteOptions {
  /** Declares a path relative to where git resolves pathspecs (the `-C` folder, else the shell's). */
  add: DeclareWrite;
  /** Declares what cannot be known before git runs. */
  addUnknown: (what: string, access: 'read' | 'write') => void;
  /** The repository's top folder; undefined when not known (`--git-dir`, a `-C` not provable). */
  repositoryRoot: string | undefined;
  /** Pathspecs are resolved elsewhere (`--work-tree`, `--git-dir`, `GIT_WORK_TREE=`): their files are not known. */
  elsewhere: boolean;
  /** What `~` stands for (`git config --global` writes `~/.gitconfig`). */
  home: string;
  /** The folder git resolves pathspecs in, when known (to tell a folder pathspec from a file). */
  folder?: string | undefined;
}

/** A git subcommand's words as git reads them. */
export interface GitWords {
  /** Options by name (a long one's abbreviation made whole), with their values; `--no-x` removes `--x`. */
  options: Map<string, ShellWord | undefined>;
  /** Words that are not options or their values, before `--`. */
  positionals: ShellWord[];
  /** Words after `--`. */
  afterDashes: ShellWord[];
  dashes: boolean;
  /** Words not known before git runs that may be options (see {@linkcode mayBeOption}). */
  hidden: ShellWord[];
  has: (...names: string[]) => boolean;
  /** The value of the first of the named options that is set. */
  value: (...names: string[]) => ShellWord | undefined;
}

/**
 * Reads a git subcommand's words as git's option parser does: values taken by the options that
 * take one (attached, `=`, the next word, or inside a bundle of short flags: `-fe -n` excludes
 * `-n`), the last of an option and its `--no-` form wins, long options may be abbreviated, and
 * `--` or `--end-of-options` end the options.
 *
 * @param sub The subcommand (`clean`).
 * @param rest Its words.
 * @returns The options, the positionals and what follows `--`.
 *
 * @example
 * ```ts
 * import { parseGitWords } from './_git_words.ts';
 *
 * const word = (value: string) => ({ text: value, value, literal: true });
 * parseGitWords('clean', ['-fe', '-n', '.claude'].map(word)).has('-n'); // false: `-n` is -e's pattern
 * ```
 */
export function parseGitWords(sub: string, rest: readonly ShellWord[]): GitWords {
  const valued = valuedOptions(sub);
  const longs = [...new Set([...valued.filter((o) => o.startsWith('--')), ...(FLAG_OPTIONS[sub] ?? [])])];
  const aliases = SHORT_ALIASES[sub] ?? {};
  const options = new Map<string, ShellWord | undefined>();
  const words: GitWords = {
    options,
    positionals: [],
    afterDashes: [],
    dashes: false,
    hidden: [],
    has: (...names) => names.some((n) => options.has(n)),
    value: (...names) => names.map((n) => options.get(n)).find((v) => v !== undefined),
  };
  let ended = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    const v = word.value;
    if (words.dashes) words.afterDashes.push(word);
    else if (v === '--' && word.literal) words.dashes = true;
    else if (ended || !v.startsWith('-') || v === '-') {
      if (!ended && mayBeOption(word)) words.hidden.push(word);
      words.positionals.push(word);
    } else if (v === '--end-of-options') ended = true;
    else if (!word.literal && !/^--[\w-]+=/.test(word.text) && !valued.includes(word.text.slice(0, 2))) {
      // `-$X`, `--$X`, `-p$X`: any options. (`--author="$U"`, `-S"$X"`: a known option's value.)
      words.hidden.push(word);
    } else if (v.startsWith('--no-')) options.delete(canonical(longs, `--${v.slice(5)}`));
    else if (v.startsWith('--')) {
      const at = v.indexOf('=');
      const name = canonical(longs, at === -1 ? v : v.slice(0, at));
      if (at !== -1) {
        options.set(name, { ...word, value: v.slice(at + 1), text: word.text.slice(word.text.indexOf('=') + 1) });
      } else options.set(name, valued.includes(name) ? rest[++i] : undefined);
    } else {
      // A bundle of short flags; the first that takes a value takes the rest of the bundle, or the next word.
      for (let k = 1; k < v.length; k++) {
        const flag = `-${v[k]}`;
        const name = aliases[flag] ?? flag;
        if (!valued.includes(flag) && !valued.includes(name)) {
          options.set(name, undefined);
          continue;
        }
        const attached = v.slice(k + 1);
        options.set(name, attached !== '' ? { ...word, value: attached, text: attached } : rest[++i]);
        break;
      }
    }
  }
  return words;
}
