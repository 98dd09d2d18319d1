import { homedir } from 'node:os';
import path from 'node:path';
import type { ResourceAccess } from '@toolshed/core';
import { analyzeCommand, type ShellWord } from './bash_parser.ts';
import { unwrapOnce } from './_unwrap.ts';

/** What {@linkcode commandResources} found. */
export interface CommandResources {
  /** Absolute paths the command reads or writes, as far as they are known before it runs. */
  accesses: ResourceAccess[];
  /**
   * File arguments whose path is not known before the command runs (`cat $F`, `cat *.env`,
   * relative paths after `cd $DIR`), described for a message.
   */
  unknown: string[];
  /**
   * True when every part is a command whose file arguments are all listed above (readers,
   * cp/mv/rm/…, read-only programs), so the accesses are the whole story.
   */
  complete: boolean;
}

/** How a program uses its arguments: which options take a value, which positionals are files. */
interface FileUse {
  /** Options followed by a value that is not a file. */
  valueOptions?: readonly string[];
  /** Options whose value is a file read (`grep -f FILE`). */
  readOptions?: readonly string[];
  /** Options whose value is a file written (`sort -o FILE`). */
  writeOptions?: readonly string[];
  /** Positionals skipped before the files: a pattern, a script, a mode. */
  skip?: number;
  /** Options that stand for the skipped positional (`grep -e PATTERN`): then nothing is skipped. */
  skipUnless?: readonly string[];
  /** What the files are: all read, all written, or the last one written and the rest read. */
  files: 'read' | 'write' | 'copy' | 'move' | 'uniq' | 'none';
  /**
   * Lists names and metadata (`ls`, `find`, `tree`, `du`): without a path it reads the current
   * directory, and a glob reads the directory it is in (`src/*.ts` → `src`), so a listing
   * outside the working directories is seen without asking for every `ls *.ts`.
   */
  lister?: boolean;
  /** Without a path it reads the current directory (`rg TODO` after `cd /etc` reads /etc). */
  defaultDir?: boolean;
}

const GREP_VALUES = ['-e', '--regexp', '-m', '-A', '-B', '-C', '-d', '-D', '--max-count', '--context', '--after-context', '--before-context', '--include', '--exclude', '--exclude-dir', '--label', '--color', '--colour'];
const RG_VALUES = ['-e', '--regexp', '-m', '-A', '-B', '-C', '-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '-j', '--threads', '-M', '--max-columns', '--max-count', '--context', '--after-context', '--before-context', '--sort', '--sortr', '--color', '--colors', '-E', '--encoding', '--type-add', '--max-depth', '-d', '--max-filesize', '-r', '--replace'];

/** Known readers and writers. Unknown programs' arguments are not guessed at. */
const FILE_USE: Readonly<Record<string, FileUse>> = {
  cat: { files: 'read' }, tac: { files: 'read' }, nl: { files: 'read', valueOptions: ['-b', '-i', '-n', '-s', '-v', '-w'] },
  head: { files: 'read', valueOptions: ['-n', '-c', '--lines', '--bytes'] }, tail: { files: 'read', valueOptions: ['-n', '-c', '--lines', '--bytes', '-s', '--pid', '--sleep-interval'] },
  less: { files: 'read' }, more: { files: 'read' }, wc: { files: 'read', readOptions: ['--files0-from'] }, strings: { files: 'read', valueOptions: ['-n', '-t', '-e'] },
  od: { files: 'read', valueOptions: ['-A', '-j', '-N', '-t', '-w'] }, hexdump: { files: 'read', valueOptions: ['-e', '-n', '-s'] },
  xxd: { files: 'read', valueOptions: ['-l', '-s', '-c', '-g', '-o'] }, base64: { files: 'read', valueOptions: ['-w'] },
  md5sum: { files: 'read' }, sha1sum: { files: 'read' }, sha256sum: { files: 'read' }, sha512sum: { files: 'read' }, cksum: { files: 'read' },
  cmp: { files: 'read' }, diff: { files: 'read', valueOptions: ['-U', '-C', '-x', '-I', '--label'], readOptions: ['-X', '--exclude-from', '--from-file', '--to-file'] }, comm: { files: 'read' },
  file: { files: 'read', valueOptions: ['-m', '-F'] }, stat: { files: 'read', valueOptions: ['-c', '--format', '--printf'] },
  sort: { files: 'read', valueOptions: ['-k', '-t', '-T', '-S', '--key', '--field-separator', '--buffer-size'], writeOptions: ['-o', '--output'], readOptions: ['--files0-from', '--random-source'] },
  // `date -f FILE` prints each line it cannot parse, so it shows the file.
  date: { files: 'none', readOptions: ['-f', '--file'], valueOptions: ['-d', '--date', '-r', '--reference', '-I', '--iso-8601', '--rfc-3339'] },
  uniq: { files: 'uniq', valueOptions: ['-f', '-s', '-w'] }, cut: { files: 'read', valueOptions: ['-d', '-f', '-b', '-c'] },
  column: { files: 'read', valueOptions: ['-s', '-c', '-t'] }, paste: { files: 'read', valueOptions: ['-d'] }, join: { files: 'read', valueOptions: ['-t', '-1', '-2', '-o', '-j'] },
  fold: { files: 'read', valueOptions: ['-w'] }, fmt: { files: 'read', valueOptions: ['-w'] }, rev: { files: 'read' }, expand: { files: 'read' },
  source: { files: 'read', skip: 0 }, '.': { files: 'read' },
  grep: { files: 'read', skip: 1, skipUnless: ['-e', '-f', '--regexp', '--file'], valueOptions: GREP_VALUES, readOptions: ['-f', '--file'] },
  egrep: { files: 'read', skip: 1, skipUnless: ['-e', '-f'], valueOptions: GREP_VALUES, readOptions: ['-f'] },
  fgrep: { files: 'read', skip: 1, skipUnless: ['-e', '-f'], valueOptions: GREP_VALUES, readOptions: ['-f'] },
  rg: { files: 'read', defaultDir: true, skip: 1, skipUnless: ['-e', '-f', '--regexp', '--file', '--files'], valueOptions: RG_VALUES, readOptions: ['-f', '--file', '--ignore-file'] },
  sed: { files: 'read', skip: 1, skipUnless: ['-e', '-f', '--expression', '--file'], valueOptions: ['-l', '-e', '--expression'], readOptions: ['-f', '--file'] },
  awk: { files: 'read', skip: 1, skipUnless: ['-f', '--file'], valueOptions: ['-F', '-v', '--field-separator', '--assign'], readOptions: ['-f', '--file'] },
  jq: { files: 'read', skip: 1, skipUnless: ['-f', '--from-file'], valueOptions: ['--indent', '--arg', '--argjson', '--slurpfile', '--rawfile'], readOptions: ['-f', '--from-file'] },
  ls: { files: 'read', lister: true, valueOptions: ['-I', '-T', '-w', '--ignore', '--tabsize', '--width', '--block-size', '--format', '--hide', '--indicator-style', '--quoting-style', '--sort', '--time', '--time-style'] },
  tree: { files: 'read', lister: true, valueOptions: ['-L', '-P', '-I', '-H', '-T', '--filelimit', '--timefmt', '--charset', '--sort'], writeOptions: ['-o'] },
  du: { files: 'read', lister: true, valueOptions: ['-d', '-B', '-t', '-X', '--max-depth', '--block-size', '--threshold', '--exclude', '--exclude-from', '--time-style'], readOptions: ['--files0-from'] },
  tee: { files: 'write' }, touch: { files: 'write', valueOptions: ['-d', '-t', '-r', '--date', '--reference'] },
  mkdir: { files: 'write', valueOptions: ['-m', '--mode'] }, rm: { files: 'write' }, rmdir: { files: 'write' }, shred: { files: 'write', valueOptions: ['-n', '-s'] },
  truncate: { files: 'write', valueOptions: ['-s', '-r', '--size', '--reference'] },
  cp: { files: 'copy', valueOptions: ['-S', '--suffix'], writeOptions: ['-t', '--target-directory'] },
  ln: { files: 'copy', valueOptions: ['-S', '--suffix'], writeOptions: ['-t', '--target-directory'] },
  install: { files: 'copy', valueOptions: ['-m', '-o', '-g', '-S', '--mode', '--owner', '--group'], writeOptions: ['-t', '--target-directory'] },
  mv: { files: 'move', valueOptions: ['-S', '--suffix'], writeOptions: ['-t', '--target-directory'] },
  chmod: { files: 'write', skip: 1, skipUnless: ['--reference'] }, chown: { files: 'write', skip: 1, skipUnless: ['--reference'] }, chgrp: { files: 'write', skip: 1 },
};

/** Programs whose arguments are not files (or whose file arguments only read and are listed above). */
const NO_FILES = new Set(['echo', 'printf', 'true', 'false', 'pwd', 'seq', 'sleep', 'whoami', 'id', 'uname', 'cd', 'git', 'df', 'which', 'type']);

/**
 * The paths a command reads and writes, as far as a parse can tell before it runs: file
 * arguments of known readers (`cat`, `head`, `grep PATTERN FILE`, `sed`, `jq`, …) as reads,
 * output redirections and the destinations of `cp`, `mv`, `rm`, `tee`, `touch`, `mkdir`, `ln`,
 * `chmod` and `sort -o` as writes, input redirections as reads. Relative paths resolve against
 * the directory a preceding `cd` moved to. What cannot be known (an expansion, a glob, a
 * relative path after `cd $X`) is listed in `unknown`.
 *
 * @param command The command string.
 * @param cwd The directory the command starts in.
 * @returns The accesses, the unknown file arguments, and whether the list is complete.
 *
 * @example
 * ```ts
 * await loadBashParser();
 * commandResources('cp .env /tmp/x', '/p').accesses;
 * // [{ path: '/p/.env', access: 'read' }, { path: '/tmp/x', access: 'write' }]
 * ```
 */
export function commandResources(command: string, cwd: string): CommandResources {
  const analysis = analyzeCommand(command);
  const accesses: ResourceAccess[] = [];
  const unknown: string[] = [];
  let complete = analysis.ok && analysis.constructs.size === 0;
  let dir: string | undefined = cwd;
  const add = (word: ShellWord | undefined, access: 'read' | 'write') => {
    if (!word) return;
    if (!word.literal) {
      unknown.push(`\`${word.text}\` (${access})`);
      return;
    }
    const p = word.value;
    if (p === '-' || p === '') return;
    if (p.startsWith('/') || p === '~' || p.startsWith('~/')) accesses.push({ path: path.resolve(expand(p)), access });
    else if (dir === undefined) unknown.push(`\`${word.text}\` (${access}, after a cd to a directory not known in advance)`);
    else accesses.push({ path: path.resolve(dir, p), access });
  };

  // A lister's glob (`src/*.ts`, `{a,b}`) reads the directory before the first pattern character.
  const listed = (word: ShellWord | undefined) => {
    if (!word || word.literal || /[$`'"\\]/.test(word.text)) return add(word, 'read');
    const at = word.text.search(/[*?[{]/);
    const prefix = word.text.slice(0, Math.max(0, word.text.lastIndexOf('/', at) + 1)) || '.';
    add({ text: word.text, value: prefix, literal: true }, 'read');
  };

  for (const redirect of analysis.redirects) {
    const op = redirect.operator;
    const target = redirect.target;
    if (!target || op === '<<' || op === '<<-' || op === '<<<') continue;
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target.value)) continue;
    if (target.literal && ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty'].includes(target.value)) continue;
    add(target, op === '<' ? 'read' : 'write');
    if (op === '<>') add(target, 'read');
  }

  for (const cmd of analysis.commands) {
    if (cmd.kind !== 'command' || !cmd.name) {
      if (cmd.kind !== 'test') complete = false;
      continue;
    }
    let words = [cmd.name, ...cmd.args];
    for (let guard = 0; guard < 8; guard++) {
      // xargs takes its file arguments from standard input: nothing to read from the words.
      const found = unwrapOnce(words);
      if (!found || found.wrapper === 'xargs') break;
      words = found.inner;
    }
    const name = words[0]!.literal ? words[0]!.value.replace(/^.*\//, '') : '';
    const args = words.slice(1);
    if (name === 'cd' && !cmd.nested) {
      const target = args.find((a) => !a.value.startsWith('-') || a.value === '-');
      if (!target) dir = homedir();
      else if (!target.literal || target.value === '-') dir = undefined;
      else if (dir !== undefined || target.value.startsWith('/')) dir = path.resolve(dir ?? '/', expand(target.value));
      continue;
    }
    if (name === 'find') {
      // The paths come after find's own options (-H, -L, -P, -D x, -O1) and before the
      // expression (`find -L src lib -name x`); none means `.`.
      let first = 0;
      while (first < args.length && /^-([HLP]|O\d*|D)$/.test(args[first]!.value)) first += args[first]!.value === '-D' ? 2 : 1;
      const rest = args.slice(first);
      const end = rest.findIndex((a) => /^[-(!)]/.test(a.value));
      const starts = end === -1 ? rest : rest.slice(0, end);
      if (starts.length === 0) listed(DOT);
      for (const start of starts) listed(start);
      // `-files0-from F` reads names from F, and reports the ones it cannot find.
      rest.forEach((a, i) => {
        if (a.value === '-files0-from') add(rest[i + 1], 'read');
      });
      continue;
    }
    if (name === 'git') {
      // `git -C DIR` reads another repository; `git blame --contents FILE` reads a file.
      args.forEach((a, i) => {
        if (a.value === '-C' && i + 1 < args.length) listed(args[i + 1]);
        if (a.value === '--contents') add(args[i + 1], 'read');
        else if (a.value.startsWith('--contents=')) add({ ...a, value: a.value.slice('--contents='.length) }, 'read');
      });
      // `git diff --no-index a b` reads any two paths, not the repository.
      const sub = args.findIndex((a) => !a.value.startsWith('-'));
      if (sub !== -1 && args.some((a) => a.value === '--no-index')) {
        for (const a of args.slice(sub + 1)) if (!a.value.startsWith('-') || !a.literal) add(a, 'read');
      }
      continue;
    }
    if (name === 'awk' && args.some((a) => /\bgetline\b[^;{}]*</.test(a.value))) {
      unknown.push('a file awk opens with `getline <` (read)');
    }
    if (name === 'jq') {
      // `--rawfile NAME FILE` and `--slurpfile NAME FILE` take two values, the second a file.
      args.forEach((a, i) => {
        if (a.value === '--rawfile' || a.value === '--slurpfile') add(args[i + 2], 'read');
      });
    }
    if (name === 'dd') {
      for (const a of args) {
        if (a.value.startsWith('if=')) add({ ...a, value: a.value.slice(3) }, 'read');
        else if (a.value.startsWith('of=')) add({ ...a, value: a.value.slice(3) }, 'write');
      }
      continue;
    }
    const use = Object.hasOwn(FILE_USE, name) ? FILE_USE[name]! : undefined;
    if (!use) {
      if (!NO_FILES.has(name)) complete = false;
      continue;
    }
    const files = filesOf(use, name, args, use.lister ? (w, a) => (a === 'read' ? listed(w) : add(w, a)) : add);
    if ((use.lister || use.defaultDir) && files === 0) add(DOT, 'read');
  }
  return { accesses: dedupe(accesses), unknown, complete: complete && unknown.length === 0 };
}

const DOT: ShellWord = { text: '.', value: '.', literal: true };

/** Declares the file arguments of one known program; returns how many file arguments it has. */
function filesOf(use: FileUse, name: string, args: readonly ShellWord[], add: (w: ShellWord | undefined, a: 'read' | 'write') => void): number {
  const positionals: ShellWord[] = [];
  let skip = use.skip ?? 0;
  let ended = false;
  let sedInPlace = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const v = arg.value;
    if (ended || !arg.literal || !v.startsWith('-') || v === '-') {
      positionals.push(arg);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    const eq = v.indexOf('=');
    const flag = v.startsWith('--') && eq !== -1 ? v.slice(0, eq) : v.startsWith('--') ? v : v.slice(0, 2);
    const attached = v.startsWith('--') ? (eq !== -1 ? v.slice(eq + 1) : undefined) : v.length > 2 ? v.slice(2) : undefined;
    if (name === 'sed' && (flag === '-i' || flag === '--in-place' || (!v.startsWith('--') && v.slice(1).includes('i')))) sedInPlace = true;
    if (use.skipUnless?.includes(flag)) skip = 0;
    const kind = use.readOptions?.includes(flag) ? 'read' : use.writeOptions?.includes(flag) ? 'write' : use.valueOptions?.includes(flag) ? 'value' : undefined;
    if (!kind) continue;
    if (attached !== undefined) {
      if (kind !== 'value') add({ ...arg, value: attached, text: attached }, kind);
      continue;
    }
    const value = args[++i];
    if (kind !== 'value') add(value, kind);
  }
  const files = positionals.slice(skip);
  const fileAccess = name === 'sed' && sedInPlace ? 'write' : undefined;
  switch (use.files) {
    case 'read':
      for (const f of files) add(f, fileAccess ?? 'read');
      if (fileAccess) for (const f of files) add(f, 'read');
      break;
    case 'write':
      for (const f of files) add(f, 'write');
      break;
    case 'copy':
      files.forEach((f, i) => add(f, i === files.length - 1 && files.length > 1 ? 'write' : 'read'));
      break;
    case 'move':
      for (const f of files) add(f, 'write');
      if (files.length > 1) for (const f of files.slice(0, -1)) add(f, 'read');
      break;
    case 'uniq':
      files.forEach((f, i) => add(f, i === 0 ? 'read' : 'write'));
      break;
    case 'none':
      return 0;
  }
  return files.length;
}

function expand(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return path.join(homedir(), p.slice(2));
  return p;
}

function dedupe(list: ResourceAccess[]): ResourceAccess[] {
  const seen = new Set<string>();
  return list.filter((a) => {
    const key = `${a.access}:${a.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
