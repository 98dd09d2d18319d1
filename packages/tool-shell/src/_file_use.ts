/**
 * How one option of a program uses the words after it: `flag` takes nothing; `value` takes one
 * value that is not a file (attached, `=`, or the next word); `optional` takes a value only when
 * attached (`-w8`, `--width=8`), never the next word; `read`/`write` take a file read or written;
 * `value2` takes two words (`jq --arg NAME VALUE`); `read2` takes two, the second a file read
 * (`jq --rawfile NAME FILE`); `names` takes a file read whose lines name more files
 * (`wc --files0-from F`), which are not known before the command runs; `paths` takes files read,
 * split at `:` (`file -m A:B`).
 */
export type Arity = 'flag' | 'value' | 'optional' | 'read' | 'write' | 'value2' | 'read2' | 'names' | 'paths';

/** How a program uses its arguments: which options take a value, which positionals are files. */
export interface FileUse {
  /** The options with their arity; an option not listed counts as a flag. */
  options?: Readonly<Record<string, Arity>>;
  /** Positionals skipped before the files: a pattern, a script, a mode. */
  skip?: number;
  /** Options that stand for the skipped positional (`grep -e PATTERN`): then nothing is skipped. */
  skipUnless?: readonly string[];
  /** What the files are: all read, all written, or the last one written and the rest read. */
  files: 'read' | 'write' | 'copy' | 'move' | 'uniq' | 'none';
  /**
   * Lists names and metadata (`ls`, `find`, `tree`, `du`): without a path it reads the current
   * directory, and a glob reads the directory it is in (`src/*.ts` → `src`).
   */
  lister?: boolean;
  /** Without a path it reads the current directory (`rg TODO` after `cd /etc` reads /etc). */
  defaultDir?: boolean;
  /** Every file argument is searched recursively: a folder entry (`rg`). */
  recursive?: boolean;
  /** Options that make the file arguments folders searched recursively (`grep -r`, `cp -r`). */
  recursiveWith?: readonly string[];
  /**
   * It reads more words from `@FILE` (binutils' `strings @opts`): FILE is read, and the words in
   * it may name other files, and are shown when they cannot be opened.
   */
  responseFiles?: boolean;
  /**
   * How a word of short options is read, when not as getopt bundles them (where a letter that
   * takes a value takes the rest of the word, or the next word): `next`, each such letter takes
   * the next word, in turn (`tree -oL FILE 2`); `single`, the word is one option named by its
   * first letter, the rest its value or nothing (`xxd -ps` is `-p`, `xxd -c8` is `-c 8`).
   */
  shortOptions?: 'next' | 'single';
}

const o = (arity: Arity, ...names: string[]): Record<string, Arity> => Object.fromEntries(names.map((n) => [n, arity]));

const GREP: Record<string, Arity> = {
  ...o(
    'value',
    '-e',
    '--regexp',
    '-m',
    '--max-count',
    '-A',
    '--after-context',
    '-B',
    '--before-context',
    '-C',
    '--context',
    '-d',
    '--directories',
    '-D',
    '--devices',
    '--include',
    '--exclude',
    '--exclude-dir',
    '--label',
    '--binary-files',
    '--group-separator',
  ),
  ...o('optional', '--color', '--colour'),
  ...o('read', '-f', '--file', '--exclude-from'),
  // Whole options that begin longer ones: getopt takes them as themselves (`--binary KEY .env`).
  ...o('flag', '--binary'),
};
const RG: Record<string, Arity> = {
  ...o(
    'value',
    '-e',
    '--regexp',
    '-m',
    '--max-count',
    '-A',
    '--after-context',
    '-B',
    '--before-context',
    '-C',
    '--context',
    '-g',
    '--glob',
    '--iglob',
    '-t',
    '--type',
    '-T',
    '--type-not',
    '-j',
    '--threads',
    '-M',
    '--max-columns',
    '--sort',
    '--sortr',
    '--color',
    '--colors',
    '-E',
    '--encoding',
    '--type-add',
    '--type-clear',
    '--max-depth',
    '-d',
    '--max-filesize',
    '-r',
    '--replace',
    '--path-separator',
    '--context-separator',
    '--field-context-separator',
    '--field-match-separator',
    '--dfa-size-limit',
    '--regex-size-limit',
    '--engine',
  ),
  ...o('read', '-f', '--file', '--ignore-file'),
  ...o('flag', '--ignore'),
};

/** Known readers and writers. A program not listed here has arguments the guard does not understand. */
export const FILE_USE: Readonly<Record<string, FileUse>> = {
  cat: { files: 'read' },
  tac: { files: 'read', options: o('value', '-s', '--separator') },
  nl: {
    files: 'read',
    options: o(
      'value',
      '-b',
      '-d',
      '-f',
      '-h',
      '-i',
      '-l',
      '-n',
      '-s',
      '-v',
      '-w',
      '--body-numbering',
      '--section-delimiter',
      '--footer-numbering',
      '--header-numbering',
      '--line-increment',
      '--join-blank-lines',
      '--number-format',
      '--number-separator',
      '--starting-line-number',
      '--number-width',
    ),
  },
  head: { files: 'read', options: o('value', '-n', '-c', '--lines', '--bytes') },
  tail: {
    files: 'read',
    options: {
      ...o('value', '-n', '-c', '--lines', '--bytes', '-s', '--pid', '--sleep-interval', '--max-unchanged-stats'),
      ...o('optional', '--follow'),
    },
  },
  less: { files: 'read' },
  more: { files: 'read' },
  wc: { files: 'read', options: o('names', '--files0-from') },
  strings: {
    files: 'read',
    responseFiles: true,
    options: o('value', '-n', '-t', '-e', '--bytes', '--radix', '--encoding', '-s', '--output-separator'),
  },
  od: {
    files: 'read',
    options: {
      ...o(
        'value',
        '-A',
        '--address-radix',
        '-j',
        '--skip-bytes',
        '-N',
        '--read-bytes',
        '-t',
        '--format',
        '--endian',
        '-S',
      ),
      ...o('optional', '-w', '--width', '--strings'),
    },
  },
  hexdump: {
    files: 'read',
    options: {
      ...o('value', '-e', '--format', '-n', '--length', '-s', '--skip'),
      // It shows a format file it cannot parse.
      ...o('read', '-f', '--format-file'),
    },
  },
  // A second file argument is written (`xxd in out`, `xxd -r dump out`).
  xxd: {
    files: 'uniq',
    shortOptions: 'single',
    options: o('value', '-l', '-s', '-c', '-g', '-o', '-n', '-cols', '-len', '-seek', '-groupsize', '-name'),
  },
  base64: { files: 'read', options: o('value', '-w', '--wrap') },
  md5sum: { files: 'read' },
  sha1sum: { files: 'read' },
  sha256sum: { files: 'read' },
  sha512sum: { files: 'read' },
  cksum: { files: 'read', options: o('value', '-a', '--algorithm', '-l', '--length') },
  cmp: { files: 'read', options: o('value', '-i', '--ignore-initial', '-n', '--bytes') },
  diff: {
    files: 'read',
    recursive: true,
    options: {
      ...o(
        'value',
        '-U',
        '-C',
        '-x',
        '--exclude',
        '-I',
        '--ignore-matching-lines',
        '--label',
        '-F',
        '--show-function-line',
        '-W',
        '--width',
        '--tabsize',
        '--line-format',
        '--old-line-format',
        '--new-line-format',
        '--unchanged-line-format',
        '--old-group-format',
        '--new-group-format',
        '--changed-group-format',
        '--unchanged-group-format',
        '--horizon-lines',
        '-S',
        '--starting-file',
        '-D',
        '--ifdef',
        '--palette',
      ),
      ...o('optional', '--color', '--unified', '--context'),
      ...o('read', '-X', '--exclude-from', '--from-file', '--to-file'),
    },
  },
  comm: { files: 'read', options: o('value', '--output-delimiter') },
  file: {
    files: 'read',
    options: {
      ...o('value', '-F', '--separator', '-P', '--parameter', '-e', '--exclude', '--exclude-quiet'),
      ...o('paths', '-m', '--magic-file'),
      ...o('names', '-f', '--files-from'),
    },
  },
  stat: { files: 'read', options: o('value', '-c', '--format', '--printf', '--cached') },
  sort: {
    files: 'read',
    options: {
      ...o(
        'value',
        '-k',
        '--key',
        '-t',
        '--field-separator',
        '-T',
        '--temporary-directory',
        '-S',
        '--buffer-size',
        '--parallel',
        '--batch-size',
        '--sort',
        '--compress-program',
      ),
      ...o('write', '-o', '--output'),
      ...o('read', '--random-source'),
      ...o('names', '--files0-from'),
    },
  },
  // `hostname NAME` sets the name (the read-only list refuses it); `-F FILE` sets it from FILE.
  hostname: { files: 'none', options: o('read', '-F', '--file') },
  // `date -f FILE` prints each line it cannot parse, so it shows the file; `-r FILE` reads its time.
  date: {
    files: 'none',
    options: {
      ...o('read', '-f', '--file', '-r', '--reference'),
      ...o('value', '-d', '--date', '--rfc-3339', '-s', '--set'),
      ...o('optional', '-I', '--iso-8601'),
    },
  },
  uniq: {
    files: 'uniq',
    options: {
      ...o('value', '-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'),
      ...o('optional', '--all-repeated', '--group'),
    },
  },
  cut: {
    files: 'read',
    options: o(
      'value',
      '-d',
      '--delimiter',
      '-f',
      '--fields',
      '-b',
      '--bytes',
      '-c',
      '--characters',
      '--output-delimiter',
    ),
  },
  column: {
    files: 'read',
    options: {
      ...o(
        'value',
        '-s',
        '--separator',
        '-c',
        '--output-width',
        '-o',
        '--output-separator',
        '-N',
        '--table-columns',
        '-l',
        '--table-columns-limit',
        '-R',
        '--table-right',
        '-T',
        '--table-truncate',
        '-E',
        '--table-noextreme',
        '-W',
        '--table-wrap',
        '-H',
        '--table-hide',
        '-O',
        '--table-order',
        '-n',
        '--table-name',
        '-r',
        '--tree',
        '-i',
        '--tree-id',
        '-p',
        '--tree-parent',
      ),
      // A whole option that begins longer ones: getopt takes it as itself (`--table .env`).
      ...o('flag', '--table'),
    },
  },
  paste: { files: 'read', options: o('value', '-d', '--delimiters') },
  join: { files: 'read', options: o('value', '-t', '-1', '-2', '-o', '-j', '-a', '-v', '-e') },
  fold: { files: 'read', options: o('value', '-w', '--width') },
  fmt: { files: 'read', options: o('value', '-w', '--width', '-p', '--prefix', '-g', '--goal') },
  rev: { files: 'read' },
  expand: { files: 'read', options: o('value', '-t', '--tabs') },
  unexpand: { files: 'read', options: o('value', '-t', '--tabs') },
  source: { files: 'read' },
  '.': { files: 'read' },
  grep: {
    files: 'read',
    skip: 1,
    skipUnless: ['-e', '-f', '--regexp', '--file'],
    options: GREP,
    recursiveWith: ['-r', '-R', '--recursive', '--dereference-recursive', '-drecurse', '--directories=recurse'],
  },
  egrep: {
    files: 'read',
    skip: 1,
    skipUnless: ['-e', '-f', '--regexp', '--file'],
    options: GREP,
    recursiveWith: ['-r', '-R', '--recursive', '--dereference-recursive'],
  },
  fgrep: {
    files: 'read',
    skip: 1,
    skipUnless: ['-e', '-f', '--regexp', '--file'],
    options: GREP,
    recursiveWith: ['-r', '-R', '--recursive', '--dereference-recursive'],
  },
  rg: {
    files: 'read',
    defaultDir: true,
    recursive: true,
    skip: 1,
    skipUnless: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'],
    options: RG,
  },
  sed: {
    files: 'read',
    skip: 1,
    skipUnless: ['-e', '-f', '--expression', '--file'],
    options: {
      ...o('value', '-l', '--line-length', '-e', '--expression'),
      ...o('optional', '-i', '--in-place'),
      ...o('read', '-f', '--file'),
    },
  },
  awk: {
    files: 'read',
    skip: 1,
    skipUnless: ['-f', '--file', '-e', '--source'],
    options: {
      ...o('value', '-F', '--field-separator', '-v', '--assign', '-e', '--source', '-l', '--load', '-W'),
      ...o('read', '-f', '--file', '-i', '--include', '-E', '--exec'),
    },
  },
  jq: {
    files: 'read',
    skip: 1,
    skipUnless: ['-f', '--from-file', '--run-tests'],
    options: {
      ...o('value', '--indent'),
      ...o('flag', '--tab', '--seq', '--run-tests'),
      ...o('value2', '--arg', '--argjson'),
      ...o('read2', '--slurpfile', '--rawfile'),
      ...o('read', '-f', '--from-file'),
      ...o('value', '-L', '--library-path'),
    },
  },
  ls: {
    files: 'read',
    lister: true,
    recursiveWith: ['-R', '--recursive'],
    options: {
      ...o(
        'value',
        '-I',
        '--ignore',
        '-T',
        '--tabsize',
        '-w',
        '--width',
        '--block-size',
        '--format',
        '--hide',
        '--indicator-style',
        '--quoting-style',
        '--sort',
        '--time',
        '--time-style',
      ),
      ...o('optional', '--color', '--hyperlink', '--classify', '-F'),
    },
  },
  tree: {
    files: 'read',
    lister: true,
    recursive: true,
    shortOptions: 'next',
    options: {
      ...o('value', '-L', '-P', '-I', '-H', '-T', '--filelimit', '--timefmt', '--charset', '--sort'),
      ...o('write', '-o'),
      // `-H` pages print the intro and outro files whole; --infofile's comments and --gitfile's patterns are read.
      ...o('read', '--hintro', '--houtro', '--infofile', '--gitfile'),
      // Whole options of tree's that begin another's: not abbreviations of it (`--info .env` reads no file).
      ...o('flag', '--info', '--gitignore'),
    },
  },
  du: {
    files: 'read',
    lister: true,
    recursive: true,
    options: {
      ...o('value', '-d', '--max-depth', '-B', '--block-size', '-t', '--threshold', '--exclude', '--time-style'),
      ...o('optional', '--time'),
      ...o('read', '-X', '--exclude-from'),
      ...o('names', '--files0-from'),
    },
  },
  tee: { files: 'write' },
  touch: {
    files: 'write',
    options: { ...o('value', '-d', '--date', '-t', '--time'), ...o('read', '-r', '--reference') },
  },
  mkdir: {
    files: 'write',
    options: { ...o('value', '-m', '--mode'), ...o('optional', '--context'), ...o('flag', '-p', '--parents') },
  },
  rm: { files: 'write', recursiveWith: ['-r', '-R', '--recursive'] },
  rmdir: { files: 'write' },
  mkfifo: { files: 'write', options: { ...o('value', '-m', '--mode'), ...o('optional', '--context') } },
  // `mknod NAME TYPE [MAJOR MINOR]`: the words after NAME are taken as written too (no file is named so).
  mknod: { files: 'write', options: { ...o('value', '-m', '--mode'), ...o('optional', '--context') } },
  // What shred writes over the files is drawn from --random-source.
  shred: {
    files: 'write',
    options: { ...o('value', '-n', '--iterations', '-s', '--size'), ...o('read', '--random-source') },
  },
  truncate: { files: 'write', options: { ...o('value', '-s', '--size'), ...o('read', '-r', '--reference') } },
  cp: {
    files: 'copy',
    recursiveWith: ['-r', '-R', '--recursive', '-a', '--archive'],
    options: {
      ...o('value', '-S', '--suffix'),
      ...o('value', '--sparse'),
      ...o('optional', '--backup', '--preserve', '--reflink'),
      ...o('flag', '--update'),
      ...o('write', '-t', '--target-directory'),
    },
  },
  ln: {
    files: 'copy',
    options: {
      ...o('value', '-S', '--suffix'),
      ...o('optional', '--backup'),
      ...o('write', '-t', '--target-directory'),
    },
  },
  install: {
    files: 'copy',
    options: {
      ...o('value', '-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix', '--strip-program'),
      ...o('flag', '--strip'),
      ...o('write', '-t', '--target-directory'),
    },
  },
  mv: {
    files: 'move',
    recursiveWith: [],
    options: {
      ...o('value', '-S', '--suffix'),
      ...o('optional', '--backup'),
      ...o('flag', '--update'),
      ...o('write', '-t', '--target-directory'),
    },
  },
  chmod: {
    files: 'write',
    skip: 1,
    skipUnless: ['--reference'],
    recursiveWith: ['-R', '--recursive'],
    options: o('read', '--reference'),
  },
  chown: {
    files: 'write',
    skip: 1,
    skipUnless: ['--reference'],
    recursiveWith: ['-R', '--recursive'],
    options: { ...o('read', '--reference'), ...o('value', '--from') },
  },
  chgrp: {
    files: 'write',
    skip: 1,
    skipUnless: ['--reference'],
    recursiveWith: ['-R', '--recursive'],
    options: o('read', '--reference'),
  },
};

/**
 * Programs whose arguments are not files they open: they print, compute, or look at names and
 * metadata only (`basename`, `realpath`), or are handled elsewhere (`cd`, `git`, `find`).
 */
export const NO_FILES: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'true',
  'false',
  'pwd',
  'seq',
  'sleep',
  'whoami',
  'id',
  'uname',
  'cd',
  'df',
  'which',
  'type',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'whereis',
  'command',
  'cal',
  'groups',
  'uptime',
  'nproc',
  'arch',
  'free',
  'locale',
  'tty',
  'tr',
  'test',
  '[',
  'exit',
  'return',
  'break',
  'continue',
  ':',
  'shift',
  'wait',
  'set',
  'ps',
  'printenv',
  'env',
  'kill',
  'jobs',
  'umask',
  'alias',
  'hash',
  'help',
  'history',
  'getconf',
  'yes',
  'expr',
  'factor',
]);
