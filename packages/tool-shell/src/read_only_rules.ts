/**
 * The read-only allowlist as data: which programs a Bash call may run without asking, and which
 * of their flags would make them write, run another program, or open a pager. Every entry says
 * why in one line. What flags cannot express (a sed script, an awk program, a find expression,
 * git's subcommands) is named in `check` and done in code by `classifyCommand`.
 *
 * Flag syntax: `--name` also covers `--name=value` and every abbreviation GNU getopt accepts
 * (`--out` for `--output`); `-x` also covers bundles and attached values (`-uo`, `-ofile`).
 *
 * @module
 */

/** What the allowlist says about one program (or one git subcommand). */
export interface ProgramRule {
  /** One line: why running it does not change anything. */
  reason: string;
  /** Flags that write, execute or page, each with why. */
  unsafeFlags?: Readonly<Record<string, string>>;
  /** When set, every flag must be one of these (`-n` of sed, `-F` of awk). */
  safeFlags?: readonly string[];
  /** At most this many arguments that are not flags (`uniq IN OUT` writes OUT). */
  maxPositionals?: number;
  /** A check in code for what flags cannot express. */
  check?:
    | 'sed'
    | 'awk'
    | 'jq'
    | 'find'
    | 'git'
    | 'command'
    | 'git-branch'
    | 'git-tag'
    | 'git-remote'
    | 'git-config'
    | 'git-list-only';
}

/**
 * Programs that only read, with the flags that would make them do more.
 *
 * @example
 * ```ts
 * import { READ_ONLY_PROGRAMS } from '@toolshed/tool-shell';
 *
 * READ_ONLY_PROGRAMS.sort?.unsafeFlags?.['-o']; // 'writes the result to a file'
 * ```
 */
export const READ_ONLY_PROGRAMS: Readonly<Record<string, ProgramRule>> = {
  // Listing and file facts
  ls: { reason: 'lists directory entries' },
  pwd: { reason: 'prints the working directory' },
  cd: { reason: "changes the shell's directory; the Bash tool keeps it inside the working directories" },
  stat: { reason: 'prints file metadata' },
  file: {
    reason: 'guesses file types',
    unsafeFlags: { '-C': 'compiles a magic file, writing it', '--compile': 'compiles a magic file, writing it' },
  },
  du: { reason: 'sums disk usage' },
  df: { reason: 'prints free disk space' },
  tree: {
    reason: 'prints a directory tree',
    unsafeFlags: { '-o': 'writes the tree to a file', '-R': 'writes 00Tree.html files with -H' },
  },
  realpath: { reason: 'resolves paths' },
  readlink: { reason: "prints a symlink's target" },
  basename: { reason: 'strips directories from a path' },
  dirname: { reason: 'strips the last part of a path' },
  which: { reason: 'finds a program on PATH' },
  whereis: { reason: "finds a program's files" },
  type: { reason: 'says what a name is (builtin, program, …)' },
  command: { reason: 'only `command -v`/`-V`, which look a name up', check: 'command' },
  find: { reason: 'searches files; -exec, -delete and -fprint are refused', check: 'find' },
  fd: {
    reason: 'searches files',
    unsafeFlags: {
      '-x': 'runs a command per result',
      '--exec': 'runs a command per result',
      '-X': 'runs a command on all results',
      '--exec-batch': 'runs a command on all results',
    },
  },

  // Reading contents
  cat: { reason: 'prints files' },
  tac: { reason: 'prints files last line first' },
  nl: { reason: 'prints files with line numbers' },
  head: { reason: 'prints the start of files' },
  tail: { reason: 'prints the end of files' },
  wc: { reason: 'counts lines, words and bytes' },
  grep: { reason: 'searches text' },
  egrep: { reason: 'searches text' },
  fgrep: { reason: 'searches text' },
  rg: {
    reason: 'ripgrep searches text',
    unsafeFlags: {
      '--pre': 'runs a preprocessor program on every file',
      '--pre-glob': 'goes with --pre',
      '--hostname-bin': 'runs a program to get the hostname',
    },
  },
  strings: { reason: 'prints printable runs of bytes' },
  od: { reason: 'dumps bytes' },
  hexdump: { reason: 'dumps bytes' },
  xxd: { reason: 'dumps bytes; a second file argument would be written', maxPositionals: 1 },
  base64: { reason: 'encodes or decodes to standard output' },
  md5sum: { reason: 'prints checksums' },
  sha1sum: { reason: 'prints checksums' },
  sha256sum: { reason: 'prints checksums' },
  sha512sum: { reason: 'prints checksums' },
  cksum: { reason: 'prints checksums' },
  cmp: { reason: 'compares files' },
  diff: { reason: 'compares files' },
  comm: { reason: 'compares sorted files' },
  jq: {
    reason: 'filters JSON to standard output; it cannot write files; `env` and `$ENV` (the environment) are refused',
    check: 'jq',
  },

  // Text filters (standard input to standard output)
  sort: {
    reason: 'sorts lines',
    unsafeFlags: {
      '-o': 'writes the result to a file',
      '--output': 'writes the result to a file',
      '--compress-program': 'runs a program to compress temporary files',
    },
  },
  uniq: { reason: 'drops repeated lines; a second file argument would be written', maxPositionals: 1 },
  cut: { reason: 'cuts columns' },
  tr: { reason: 'translates characters' },
  column: { reason: 'formats columns' },
  paste: { reason: 'merges lines' },
  join: { reason: 'joins sorted files' },
  fold: { reason: 'wraps lines' },
  fmt: { reason: 'reflows text' },
  expand: { reason: 'turns tabs into spaces' },
  unexpand: { reason: 'turns spaces into tabs' },
  rev: { reason: 'reverses lines' },
  sed: { reason: 'only with -n and print commands (p, P, =, l, q), which print and never write', check: 'sed' },
  awk: {
    reason: 'only programs without system(), pipes, getline from files or commands, or output redirection',
    check: 'awk',
  },

  // Facts about the system
  echo: { reason: 'prints its arguments' },
  printf: { reason: 'prints formatted text', unsafeFlags: { '-v': 'assigns the result to a shell variable' } },
  true: { reason: 'does nothing' },
  false: { reason: 'does nothing' },
  seq: { reason: 'prints numbers' },
  sleep: { reason: 'waits' },
  date: { reason: 'prints the date', unsafeFlags: { '-s': 'sets the system clock', '--set': 'sets the system clock' } },
  cal: { reason: 'prints a calendar' },
  whoami: { reason: 'prints the user name' },
  id: { reason: 'prints user and group ids' },
  groups: { reason: 'prints group names' },
  uname: { reason: 'prints the system name' },
  hostname: {
    reason: 'prints the host name; an argument would set it',
    maxPositionals: 0,
    unsafeFlags: {
      '-F': 'sets the name from a file',
      '--file': 'sets the name from a file',
      '-b': 'sets a default name',
      '--boot': 'sets a default name',
    },
  },
  uptime: { reason: 'prints the uptime' },
  nproc: { reason: 'prints the number of CPUs' },
  arch: { reason: 'prints the machine architecture' },
  free: { reason: 'prints memory use' },
  ps: { reason: 'lists processes' },
  // printenv and a bare env print the whole environment, secrets included: not read-only.
  locale: { reason: 'prints locale settings' },
  tty: { reason: 'prints the terminal name' },

  git: { reason: 'only the read-only subcommands below, without -c, pagers or output files', check: 'git' },
};

/**
 * Options git takes before its subcommand: allowed ones, and the rest are refused.
 *
 * @example
 * ```ts
 * import { GIT_GLOBAL_OPTIONS } from './read_only_rules.ts';
 *
 * Object.hasOwn(GIT_GLOBAL_OPTIONS, '-c'); // false: `git -c` is refused
 * ```
 */
export const GIT_GLOBAL_OPTIONS: Readonly<Record<string, string>> = {
  '-C': 'runs in another directory (takes a value)',
  '--no-pager': 'turns the pager off',
  '-P': 'turns the pager off',
  '--no-optional-locks': 'avoids writing the index',
  '--literal-pathspecs': 'treats pathspecs literally',
  '--no-replace-objects': 'ignores replace refs',
};

/**
 * Flags refused on every git subcommand.
 *
 * @example
 * ```ts
 * import { GIT_UNSAFE_FLAGS } from './read_only_rules.ts';
 *
 * GIT_UNSAFE_FLAGS['--output']; // 'writes to a file'
 * ```
 */
export const GIT_UNSAFE_FLAGS: Readonly<Record<string, string>> = {
  '--output': 'writes to a file',
  '--ext-diff': 'runs an external diff program',
  '--textconv': 'runs configured conversion programs',
  '--paginate': 'opens a pager',
  '--open-files-in-pager': 'opens matches in a pager (git grep -O)',
  '--exec': 'runs a program',
  '--upload-pack': 'runs a program',
  '--receive-pack': 'runs a program',
  '--filters': 'runs configured filter programs (git cat-file)',
};

/**
 * Git subcommands that only read, each with its own limits.
 *
 * @example
 * ```ts
 * import { GIT_SUBCOMMANDS } from './read_only_rules.ts';
 *
 * GIT_SUBCOMMANDS.log?.reason; // 'shows history'
 * ```
 */
export const GIT_SUBCOMMANDS: Readonly<Record<string, ProgramRule>> = {
  status: { reason: 'shows the working tree status' },
  log: { reason: 'shows history' },
  show: { reason: 'shows objects' },
  diff: { reason: 'shows changes' },
  'diff-tree': { reason: 'compares trees' },
  'diff-files': { reason: 'compares the index and the tree' },
  'diff-index': { reason: 'compares a tree and the index' },
  blame: { reason: 'annotates lines with commits' },
  shortlog: { reason: 'summarizes history' },
  whatchanged: { reason: 'shows history with changes' },
  describe: { reason: 'names a commit from tags' },
  'rev-parse': { reason: 'resolves revisions' },
  'rev-list': { reason: 'lists commits' },
  'ls-files': { reason: 'lists tracked files' },
  'ls-tree': { reason: 'lists a tree' },
  'cat-file': { reason: 'prints an object' },
  'show-ref': { reason: 'lists refs' },
  'for-each-ref': { reason: 'lists refs' },
  'name-rev': { reason: 'names revisions' },
  'merge-base': { reason: 'finds a common ancestor' },
  'count-objects': { reason: 'counts objects' },
  'check-ignore': { reason: 'checks ignore rules' },
  'check-attr': { reason: 'checks attributes' },
  grep: { reason: 'searches tracked files', unsafeFlags: { '-O': 'opens matches in a pager' } },
  cherry: { reason: 'finds unmerged commits' },
  reflog: { reason: 'only listing (`git reflog`, `git reflog show`)', check: 'git-list-only' },
  stash: { reason: 'only `git stash list` and `git stash show`', check: 'git-list-only' },
  worktree: { reason: 'only `git worktree list`', check: 'git-list-only' },
  branch: { reason: 'only listing flags; a name would create, delete or move a branch', check: 'git-branch' },
  tag: { reason: 'only listing flags; a name would create a tag', check: 'git-tag' },
  // `git ls-remote URL` and `git remote show NAME` contact a server: a URL the model writes is a
  // channel out of the machine, so neither runs without asking (`git remote show -n` is local).
  remote: {
    reason: 'only `git remote`, `-v`, `show -n` and `get-url`, which do not contact the remote',
    check: 'git-remote',
  },
  config: { reason: 'only reading (`--get`, `--list`, `get`, `list`)', check: 'git-config' },
};

/**
 * What `git reflog|stash|worktree` may be followed by.
 *
 * @example
 * ```ts
 * import { GIT_LIST_SUBCOMMANDS } from './read_only_rules.ts';
 *
 * GIT_LIST_SUBCOMMANDS.stash; // ['list', 'show']
 * ```
 */
export const GIT_LIST_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  reflog: ['show'],
  stash: ['list', 'show'],
  worktree: ['list'],
};

/**
 * Listing flags of `git branch` and `git tag`; anything else may create, delete or move.
 *
 * @example
 * ```ts
 * import { GIT_BRANCH_LIST_FLAGS } from './read_only_rules.ts';
 *
 * GIT_BRANCH_LIST_FLAGS.includes('-D'); // false
 * ```
 */
export const GIT_BRANCH_LIST_FLAGS: readonly string[] = [
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '-l',
  '--list',
  '--show-current',
  '--color',
  '--no-color',
  '--column',
  '--no-column',
  '--sort',
  '--format',
  '--merged',
  '--no-merged',
  '--contains',
  '--no-contains',
  '--points-at',
  '-n',
  '-i',
  '--ignore-case',
  '--omit-empty',
];

/**
 * Flags that take patterns or commits as positional arguments when listing branches or tags.
 *
 * @example
 * ```ts
 * import { GIT_LISTING_WITH_ARGS } from './read_only_rules.ts';
 *
 * GIT_LISTING_WITH_ARGS.includes('--contains'); // true: `git branch --contains HEAD` lists
 * ```
 */
export const GIT_LISTING_WITH_ARGS: readonly string[] = [
  '-l',
  '--list',
  '--merged',
  '--no-merged',
  '--contains',
  '--no-contains',
  '--points-at',
];

/**
 * Flags of `git config` that read.
 *
 * @example
 * ```ts
 * import { GIT_CONFIG_READ_FLAGS } from './read_only_rules.ts';
 *
 * GIT_CONFIG_READ_FLAGS.includes('--unset'); // false
 * ```
 */
export const GIT_CONFIG_READ_FLAGS: readonly string[] = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '-l',
  '--list',
  '--global',
  '--system',
  '--local',
  '--worktree',
  '--show-origin',
  '--show-scope',
  '--name-only',
  '-z',
  '--null',
  '--type',
  '--bool',
  '--int',
  '--path',
  '--default',
  '--includes',
  '--no-includes',
];

/**
 * Flags of sed that do not write (no `-i`, no script files).
 *
 * @example
 * ```ts
 * import { SED_SAFE_FLAGS } from './read_only_rules.ts';
 *
 * SED_SAFE_FLAGS.includes('-i'); // false
 * ```
 */
export const SED_SAFE_FLAGS: readonly string[] = [
  '-n',
  '--quiet',
  '--silent',
  '-E',
  '-r',
  '--regexp-extended',
  '-s',
  '--separate',
  '-u',
  '--unbuffered',
  '-z',
  '--null-data',
  '--posix',
  '-e',
  '--expression',
  '--debug',
  '--sandbox',
];

/**
 * Flags of awk that do not load programs from files or write profiles and dumps.
 *
 * @example
 * ```ts
 * import { AWK_SAFE_FLAGS } from './read_only_rules.ts';
 *
 * AWK_SAFE_FLAGS.includes('-f'); // false
 * ```
 */
export const AWK_SAFE_FLAGS: readonly string[] = [
  '-F',
  '--field-separator',
  '-v',
  '--assign',
  '--posix',
  '-P',
  '--traditional',
  '-c',
  '-S',
  '--sandbox',
];

/**
 * Primaries of find that run programs, delete or write files.
 *
 * @example
 * ```ts
 * import { FIND_UNSAFE_PRIMARIES } from './read_only_rules.ts';
 *
 * FIND_UNSAFE_PRIMARIES['-delete']; // 'deletes files'
 * ```
 */
export const FIND_UNSAFE_PRIMARIES: Readonly<Record<string, string>> = {
  '-exec': 'runs a program per file',
  '-execdir': 'runs a program per file',
  '-ok': 'runs a program per file after asking',
  '-okdir': 'runs a program per file after asking',
  '-delete': 'deletes files',
  '-fprint': 'writes the list to a file',
  '-fprint0': 'writes the list to a file',
  '-fprintf': 'writes the list to a file',
  '-fls': 'writes the list to a file',
};

/** How a program that runs another one ({@linkcode WRAPPERS}) reads its own words. */
export interface Wrapper {
  /** What it does, for a person. */
  reason: string;
  /** Its options that take the next word as their value (`-n 5`); the others take none. */
  optionsWithValue: readonly string[];
  /** Words before the command that are not options: `timeout`'s duration, `flock`'s lock file. */
  leadingValues?: number;
  /** The leading values come only first, before any option, or not at all (`setarch [ARCH] [OPTIONS] CMD`). */
  leadingFirst?: boolean;
  /** Why an allow rule for the command does not allow it run this way (`sudo npm test`). */
  notForAllow?: string;
  /** Its options whose value is a file it writes itself (`strace -o LOG`, `time -o F`). */
  writes?: readonly string[];
  /** Its first leading value is a file it makes when missing (`flock LOCKFILE cmd`). */
  makesLeadingFile?: boolean;
  /** Options, right after the leading values, whose value is a command string it runs through `sh -c` (`flock F -c 'cmd'`). */
  commandString?: readonly string[];
}

/**
 * Programs that run another program given as an argument: looked through by permission rules —
 * by deny and ask rules always, by allow rules unless `notForAllow` says why not (`sudo npm test`
 * is not what `Bash(npm test:*)` allowed).
 *
 * @example
 * ```ts
 * import { WRAPPERS } from './read_only_rules.ts';
 *
 * WRAPPERS.timeout?.leadingValues; // 1: the duration before the command
 * ```
 */
export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  timeout: {
    reason: 'runs a command with a time limit',
    optionsWithValue: ['-s', '--signal', '-k', '--kill-after'],
    leadingValues: 1,
  },
  nice: { reason: 'runs a command at another priority', optionsWithValue: ['-n', '--adjustment'] },
  nohup: { reason: 'runs a command immune to hangups', optionsWithValue: [] },
  time: {
    reason: 'times a command',
    optionsWithValue: ['-f', '--format', '-o', '--output'],
    // GNU time: `-o FILE` writes what it measured to FILE.
    writes: ['-o', '--output'],
  },
  env: {
    reason: 'runs a command in a changed environment',
    // `-a NAME` (coreutils 9.7) names what the command is called.
    optionsWithValue: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string', '-a', '--argv0'],
  },
  stdbuf: {
    reason: 'runs a command with other buffering',
    optionsWithValue: ['-i', '-o', '-e', '--input', '--output', '--error'],
  },
  ionice: {
    reason: 'runs a command at another I/O priority',
    optionsWithValue: ['-c', '-n', '--class', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'],
  },
  command: { reason: 'runs a command, skipping functions', optionsWithValue: [] },
  builtin: { reason: 'runs a builtin', optionsWithValue: [] },
  exec: {
    reason: 'replaces the shell with a command',
    optionsWithValue: ['-a'],
    notForAllow: 'it can rename the program (-a) and replaces the shell',
  },
  xargs: {
    reason: 'runs a command with arguments from input',
    notForAllow: 'the arguments come from input, not the command line',
    optionsWithValue: [
      '-a',
      '-d',
      '-E',
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-lines',
      '--max-chars',
      '--process-slot-var',
      // `--replace[=R]`, `--eof[=E]`, `-i[R]`, `-l[N]`: values only attached.
    ],
  },
  sudo: {
    reason: 'runs a command as another user',
    notForAllow: 'it runs the command as another user',
    // sudo 1.9's getopt: `a:C:c:D:g:h::p:R:r:T:t:U:u:` (`-h` takes a value only attached; alone it is --help).
    optionsWithValue: [
      '-a',
      '-C',
      '-c',
      '-D',
      '-g',
      '-p',
      '-R',
      '-r',
      '-T',
      '-t',
      '-U',
      '-u',
      '--auth-type',
      '--close-from',
      '--login-class',
      '--chdir',
      '--group',
      '--host',
      '--prompt',
      '--chroot',
      '--role',
      '--command-timeout',
      '--type',
      '--other-user',
      '--user',
    ],
  },
  doas: {
    reason: 'runs a command as another user',
    optionsWithValue: ['-u', '-C'],
    notForAllow: 'it runs the command as another user',
  },
  watch: {
    reason: 'runs a command repeatedly',
    // `-d` takes its value only attached (`-d=permanent`): `watch -d rm x` runs `rm x`.
    optionsWithValue: ['-n', '--interval', '-q', '--equexit'],
    notForAllow: 'it runs the command again and again',
  },
  chroot: {
    reason: 'runs a command in another root',
    optionsWithValue: ['--groups', '--userspec'],
    leadingValues: 1,
    notForAllow: 'the command runs from another root',
  },
  unbuffer: { reason: 'runs a command without buffering', optionsWithValue: [] },
  // util-linux: each checked against the program's --help (runners_table_test.ts).
  setsid: { reason: 'runs a command in a new session', optionsWithValue: [] },
  chrt: {
    reason: 'runs a command with another scheduling policy',
    optionsWithValue: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'],
    leadingValues: 1,
  },
  taskset: { reason: 'runs a command on chosen CPUs', optionsWithValue: [], leadingValues: 1 },
  flock: {
    reason: 'runs a command holding a file lock',
    optionsWithValue: ['-w', '--timeout', '--wait', '-E', '--conflict-exit-code'],
    leadingValues: 1,
    makesLeadingFile: true,
    commandString: ['-c', '--command'],
  },
  prlimit: { reason: 'runs a command with other resource limits', optionsWithValue: ['-p', '--pid', '-o', '--output'] },
  setarch: {
    reason: 'runs a command with another architecture',
    optionsWithValue: [],
    leadingValues: 1,
    leadingFirst: true,
  },
  linux32: { reason: 'runs a command with another architecture', optionsWithValue: [] },
  linux64: { reason: 'runs a command with another architecture', optionsWithValue: [] },
  i386: { reason: 'runs a command with another architecture', optionsWithValue: [] },
  x86_64: { reason: 'runs a command with another architecture', optionsWithValue: [] },
  strace: {
    reason: 'runs a command tracing its system calls',
    optionsWithValue: [
      '-e',
      '-E',
      '--env',
      '-p',
      '--attach',
      '-u',
      '--user',
      '-b',
      '--detach-on',
      '-I',
      '--interruptible',
      '--trace',
      '--signal',
      '--status',
      '-P',
      '--trace-path',
      '-a',
      '--columns',
      '--abbrev',
      '--verbose',
      '--raw',
      '--read',
      '--write',
      '--kvm',
      '-o',
      '--output',
      '-s',
      '--string-limit',
      '--decode-pids',
      '-X',
      '--const-print-style',
      '-O',
      '--summary-syscall-overhead',
      '-S',
      '--summary-sort-by',
      '-U',
      '--summary-columns',
      '--inject',
      '--fault',
    ],
    writes: ['-o', '--output'],
    notForAllow: 'it can run the command as another user (-u) and with another environment (-E)',
  },
};

/**
 * Shells and `eval`: their string argument is a command, parsed again for deny rules.
 *
 * @example
 * ```ts
 * import { SHELLS } from './read_only_rules.ts';
 *
 * SHELLS.includes('sh'); // true: `sh -c '…'` is parsed again for deny rules
 * ```
 */
export const SHELLS: readonly string[] = ['bash', 'sh', 'zsh', 'dash', 'ksh'];
