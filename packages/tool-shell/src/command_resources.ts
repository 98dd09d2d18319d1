import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ResourceAccess } from '@toolshed/core';
import { gitProgramSettings, gitRepositoryOf } from '@toolshed/core/internal';
import { trackedReads } from './_git_tracked_reads.ts';
import { noIndexOperands } from './_git_no_index.ts';
import { optionFiles } from './_git_option_files.ts';
import { isGitDirectory, replacesObjects } from './_git_revisions.ts';
import { type HistoryPath, historyPaths } from './_git_history_paths.ts';
import { analyzeCommand, type ShellRedirect, type ShellWord, type SimpleCommand } from './bash_parser.ts';
import { classifyCommand, commandOnlyReads } from './classify_command.ts';
import { isDirectory } from './_is_directory.ts';
import { declareLandings } from './_landings.ts';
import { declareUnpackOrFetch } from './_unpack_and_fetch.ts';
import { declareSedScript } from './_sed_command.ts';
import { pathSetting, programSetting, settingsNamed, traceInjection } from './_program_environment.ts';
import { arithmeticInjection } from './_arithmetic_injection.ts';
import { subscriptInjection } from './_subscript_names.ts';
import { namedBuiltin } from './_named_builtin.ts';
import { type CommandPart, linksMade, pathsAnotherPartChanges } from './_same_command_paths.ts';
import { hiddenCommandTexts, isKnownProgram } from './_hidden_commands.ts';
import { scriptWords } from './_script_words.ts';
import { innermostCommand, unwrapOnce } from './_unwrap.ts';
import { type Arity, FILE_USE, type FileUse, NO_FILES } from './_file_use.ts';
import { expandWord } from './_expand_word.ts';
import { declareGitWrites } from './_git_writes.ts';
import { programTurnedOff } from './_git_program_off.ts';
import { resolveLikeKernel } from './_kernel_path.ts';
import { mayBeOption } from './_option_words.ts';
import { abbreviates, longOption } from './_long_option.ts';

/** What {@linkcode commandResources} found. */
export interface CommandResources {
  /**
   * What the command reads and writes, as far as it is known before it runs: exact paths,
   * folders it takes in whole (`kind: 'folder'`: `grep -r`, `rg`, `git log -p` with
   * `history`), and entries of `kind: 'unknown'` for what cannot be known (`cat $F`,
   * `cat $(ls)`, a relative path after `cd $DIR`, the files of a program without a table).
   */
  accesses: ResourceAccess[];
  /** The unknown entries, described for a message (`` `$F` (read) ``). */
  unknown: string[];
  /**
   * True when every part is a command whose file arguments are all understood (readers,
   * cp/mv/rm/…, read-only programs) and nothing is unknown: the accesses are the whole story.
   */
  complete: boolean;
}

/** Options of {@linkcode commandResources}. */
export interface CommandResourcesOptions {
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /**
   * The environment the command runs with (the host's, the settings' `env`, `shellTools({ env })`):
   * a `GIT_DIR`, `GIT_WORK_TREE` or `GIT_COMMON_DIR` there moves where git writes. @default process.env
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Assignments that reach the command from the one it runs in (`TAR_OPTIONS=… bash -c 'tar …'`,
   * an `export` before `bash -c`): the shell's script sees them as its own. @default []
   */
  exported?: readonly ShellWord[] | undefined;
  /**
   * The working directories: the repositories they are in are the user's own; git run in any
   * other repository (a nested clone, a `.git` file leading into the project) asks when that
   * repository's config names a program git runs (`core.fsmonitor`, `diff.external`, …).
   * @default the ones of the command this one is part of (`bash -c`), else [cwd]
   */
  workingDirectories?: readonly string[] | undefined;
}

/**
 * The working directories of the {@linkcode commandResources} call running now: a script inside
 * the command (`bash -c '…'`) is read by a nested call, which takes them over. (The calls are
 * synchronous: set on entry, put back on return.)
 */
let ownDirectories: readonly string[] | undefined;
/**
 * Whether the command as a whole is read-only, so that the Bash tool runs it with
 * `safe.bareRepository=explicit` (git then takes no folder for a bare repository by itself).
 */
let bareRefused = false;

/** Variables of the command's environment that move where git finds its repository and work tree. */
const GIT_PLACE_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR'];

/**
 * The paths a command reads and writes, as far as a parse can prove before it runs: file
 * arguments of known readers (`cat`, `head`, `grep PATTERN FILE`, `sed`, `jq`, …) as reads,
 * output redirections and the destinations of `cp`, `mv`, `rm`, `tee`, `touch`, `mkdir`, `ln`,
 * `chmod` and `sort -o` as writes, input redirections as reads, recursive and history readers
 * (`grep -r`, `rg`, `diff`, `find -L`, `git show`/`log -p`/`blame`/`grep`) as folders. Relative
 * paths resolve against the directory a `cd` surely moved to; a `cd` that may or may not run
 * (in `if`, a loop, a subshell, after `&&`) makes later relative paths unknown. Globs and
 * brace lists are expanded when the words are plain; what cannot be proven (an expansion, a
 * substitution, `~user`, `/proc/self/cwd`, `/dev/fd`, a program without a table) is an entry
 * of kind `unknown`, which the permission layer asks about.
 *
 * @param command The command string.
 * @param cwd The directory the command starts in.
 * @param options What `~` stands for.
 * @returns The accesses, the unknown entries described, and whether the list is complete.
 *
 * @example
 * ```ts
 * import { commandResources, loadBashParser } from '@toolshed/tool-shell/internal';
 *
 * await loadBashParser();
 * commandResources('cp .env /tmp/x', '/p').accesses;
 * // [{ path: '/p/.env', access: 'read' }, { path: '/tmp/x', access: 'write' }]
 * commandResources('grep -r KEY .', '/p').accesses;
 * // [{ path: '/p', access: 'read', kind: 'folder' }]
 * ```
 */
export function commandResources(
  command: string,
  cwd: string,
  options: CommandResourcesOptions = {},
): CommandResources {
  const outer = ownDirectories;
  const outerBare = bareRefused;
  // A script inside the command runs with the environment of the command as a whole.
  if (outer === undefined) bareRefused = classifyCommand(command).readOnly;
  ownDirectories = options.workingDirectories ?? outer ?? [cwd];
  try {
    return resourcesOf(command, cwd, options);
  } finally {
    ownDirectories = outer;
    bareRefused = outerBare;
  }
}

/** {@linkcode commandResources}, with {@linkcode ownDirectories} set. */
function resourcesOf(command: string, cwd: string, options: CommandResourcesOptions): CommandResources {
  const home = options.homeDir ?? homedir();
  const analysis = analyzeCommand(command);
  const accesses: ResourceAccess[] = [];
  const unknown: string[] = [];
  let complete = analysis.ok && analysis.constructs.size === 0;
  const addUnknown = (what: string, access: 'read' | 'write') => {
    unknown.push(`${what} (${access})`);
    accesses.push({ path: what, access, kind: 'unknown' });
  };
  if (!analysis.ok) {
    addUnknown(`the command, which could not be parsed (${analysis.error ?? 'syntax error'})`, 'read');
    return { accesses, unknown, complete: false };
  }

  declareValueInjections(command, addUnknown);
  const subscript = subscriptInjection(analysis.commands);
  if (subscript !== undefined) addUnknown(subscript, 'write');
  const expanding = expansionChange(analysis.commands);
  if (expanding) addUnknown(`the paths of \`${expanding.text}\`, which changes how bash expands paths`, 'read');

  // A cd the guard cannot follow (conditional, in a subshell or a loop, to an unknown place)
  // makes every relative path after it, and every one in a construct that may run after it,
  // unknown.
  const untracked = analysis.commands.some((c) => c.kind === 'command' && changesDirectory(c) && !trackableCd(c));
  let dir: string | undefined = cwd;
  let moved = false;
  const exported = exportedAssignments(analysis.commands, command, options);

  const { indexMayChange, trackedMayChange } = indexChanges(analysis.commands);

  const listedDirs: string[] = [];
  const resolveWord = (word: ShellWord, base: string | undefined): string[] | undefined => {
    listedDirs.length = 0;
    const values = expandWord(word, { cwd: base, home, onList: (d) => listedDirs.push(d) });
    // A glob reads the directories it lists.
    for (const d of listedDirs) accesses.push({ path: d, access: 'read' });
    if (values === undefined) return undefined;
    const out: string[] = [];
    for (const value of values) {
      if (value === '-' || value === '') continue;
      if (/^\/(proc\/(self|thread-self|\d+)(\/|$)|dev\/fd(\/|$))/.test(path.posix.normalize(value))) return undefined;
      if (value.startsWith('/')) out.push(resolveLikeKernel('/', value));
      else if (base === undefined) return undefined;
      else out.push(resolveLikeKernel(base, value));
    }
    return out;
  };
  const makeAdd =
    (base: string | undefined) =>
    (word: ShellWord | undefined, access: 'read' | 'write', kind?: FolderKind, from?: string) => {
      if (!word) return;
      if (kind === 'tracked' && trackedMayChange) kind = 'history';
      if (kind === 'checkout' && indexMayChange) {
        addUnknown(
          `the files git writes from its index at \`${word.text}\`, which another part may change first`,
          access,
        );
        return;
      }
      const resolved = resolveWord(word, base);
      if (resolved === undefined) {
        addUnknown(
          base === undefined && word.literal
            ? `\`${word.text}\` (after a cd to a directory not known in advance)`
            : `\`${word.text}\``,
          access,
        );
        return;
      }
      for (const p of resolved) {
        // Another part may change what the paths show (`git replace A B && git show HEAD:a`): the whole history.
        if (kind === 'history')
          accesses.push({ path: trackedMayChange ? repositoryRoot(p) : p, access, kind: 'folder', history: true });
        else if (kind === 'tracked') accesses.push({ path: p, access, kind: 'folder', tracked: true });
        else if (kind === 'names') accesses.push({ path: p, access, kind: 'folder', names: true });
        else if (kind === 'worktree' || kind === 'checkout')
          accesses.push({ path: p, access, kind: 'folder', worktree: true });
        else if (from !== undefined) accesses.push(kind ? { path: p, access, kind, from } : { path: p, access, from });
        else accesses.push(kind ? { path: p, access, kind } : { path: p, access });
      }
    };

  const ownRedirects = new Set<ShellRedirect>();
  for (const cmd of analysis.commands) for (const r of cmd.redirects) ownRedirects.add(r);
  const redirect = (r: ShellRedirect, base: string | undefined) => {
    const op = r.operator;
    const target = r.target;
    if (!target || op === '<<' || op === '<<-' || op === '<<<') return;
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target.value)) return;
    if (target.literal && ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/stdin'].includes(target.value))
      return;
    const add = makeAdd(base);
    add(target, op === '<' ? 'read' : 'write');
    if (op === '<>') add(target, 'read');
  };

  // Where each part's accesses start, and whether what it writes may be a link.
  const parts: CommandPart[] = [];
  for (const cmd of analysis.commands) {
    // Where this command's relative paths start.
    const uncertain = untracked && (moved || cmd.nested || cmd.subshell === true || cmd.conditional === true);
    const base = uncertain ? undefined : dir;
    parts.push({ start: accesses.length, links: linksMade(cmd) });
    for (const r of cmd.redirects) redirect(r, base);
    if (cmd.kind !== 'command' || !cmd.name) {
      if (cmd.kind !== 'test') complete = false;
      continue;
    }
    if (changesDirectory(cmd)) {
      if (trackableCd(cmd) && dir !== undefined && !uncertain) {
        const next = cdTarget(cmd, dir, home);
        if (next === undefined) dir = undefined;
        else dir = next;
      } else {
        dir = undefined;
      }
      moved = true;
      // `builtin source f`, `command eval '…'`: the builtin they name runs as without them.
      const { name, args } = namedBuiltin(cmd);
      // `source f` reads f and runs what is in it; `eval` runs its words: what they open is not known.
      if (name === 'source' || name === '.') makeAdd(base)(args[0], 'read');
      if (name === 'eval' && args.every((a) => a.literal)) {
        declareScript(args.map((a) => a.value).join(' '), base, home, makeAdd, addUnknown, [
          ...exported,
          ...cmd.assignments,
        ]);
      } else if (name === 'eval') addUnknown(`what \`${cmd.text}\` runs`, 'write');
      else if (name !== 'cd' && name !== 'pushd' && name !== 'popd') addUnknown(`what \`${cmd.text}\` runs`, 'read');
      if ((name === 'pushd' || name === 'popd') && args.length > 0) makeAdd(base)(args[0], 'read');
      continue;
    }
    declareCommand(cmd, base, home, makeAdd, addUnknown, () => (complete = false), exported);
  }
  // Redirections of groups (`{ a; b; } > f`): after a cd, their directory is not known.
  parts.push({ start: accesses.length, links: 'none' });
  for (const r of analysis.redirects) if (!ownRedirects.has(r)) redirect(r, moved ? undefined : cwd);
  // A path another part makes a link of, or a folder it fills before it lands: not known.
  for (const { index, why } of pathsAnotherPartChanges(accesses, { parts })) {
    const access = accesses[index]!.access === 'write' ? 'write' : 'read';
    unknown.push(`${why} (${access})`);
    accesses[index] = { path: why, access, kind: 'unknown' };
  }

  return { accesses: dedupe(accesses), unknown, complete: complete && unknown.length === 0 };
}

/**
 * Variables a command may hand to the programs after it (`export GIT_DIR=…`, or `GIT_DIR=…`
 * alone, which reaches them when already exported or under `set -a`): any command's, to be safe;
 * those the command gets from its environment before it starts, from the command a script runs
 * in, and the settings its text names (see `settingsNamed`).
 */
function exportedAssignments(
  commands: readonly SimpleCommand[],
  command: string,
  options: CommandResourcesOptions,
): ShellWord[] {
  const exported: ShellWord[] = [];
  // Those the command gets from its environment before it starts.
  for (const name of GIT_PLACE_VARIABLES) {
    const value = (options.env ?? process.env)[name];
    if (value !== undefined) {
      const text = `${name}=${value}, set in the environment commands run with`;
      exported.push({ text, value: text, literal: true });
    }
  }
  // And those of the command a script runs in, and the settings the text names (`read NAME`, `export NAME`).
  exported.push(...(options.exported ?? []), ...settingsNamed(command));
  for (const c of commands) {
    if (c.kind === 'assignment' || c.kind === 'declaration') {
      exported.push(...c.assignments, ...c.args.filter((a) => !a.literal || /^[A-Za-z_]\w*=/.test(a.value)));
    }
  }
  return exported;
}

/**
 * The first command that changes how bash expands paths: a variable (`HOME=/etc; cat ~/passwd`,
 * `GLOBIGNORE=x; cat *` matching dot files, `CDPATH`) or the shell's options (`shopt -s dotglob`),
 * after which expansions are not what the guard would compute.
 */
function expansionChange(commands: readonly SimpleCommand[]): SimpleCommand | undefined {
  const expansionVars =
    /^(export\s+|declare\s+(-\w+\s+)*|local\s+|readonly\s+|typeset\s+)?(HOME|CDPATH|GLOBIGNORE|PWD|OLDPWD|IFS|BASHOPTS|SHELLOPTS|GLOBSORT)(\+?=|$|\s)/;
  return commands.find((c) => {
    const texts = [
      ...c.assignments.map((a) => a.text),
      ...(c.kind === 'assignment' ? [c.text] : []),
      ...(c.kind === 'declaration' ? [c.text, ...c.args.map((a) => a.text)] : []),
    ];
    return (
      texts.some((t) => expansionVars.test(t)) ||
      (c.kind === 'command' && c.name?.value === 'shopt') ||
      (c.kind === 'command' &&
        c.name?.value === 'set' &&
        c.args.some((a) => /^[-+]o$|^[-+][a-zA-Z]*[fB]/.test(a.value)))
    );
  });
}

/**
 * Whether the index git reads may not be the one the guard reads. git writes a work tree from its
 * index as the index is when git runs: another part of the command that may change it first or
 * meanwhile (`git read-tree evil`, `git reset evil -- .`, a script, a loop's next turn) makes the
 * index the guard reads not the one git writes from (`indexMayChange`: a writer besides the one).
 * Likewise git reads its work tree's tracked files as the index lists them when it runs: any part
 * that may change it (`git add -f -N .env && git diff`) may list what the guard did not see
 * (`trackedMayChange`), or make a path show another's content (`git replace A B && git show
 * HEAD:a.txt`), so a read of named paths is a read of the whole history then.
 */
function indexChanges(commands: ReturnType<typeof analyzeCommand>['commands']): {
  indexMayChange: boolean;
  trackedMayChange: boolean;
} {
  const writers = commands.filter((c) => c.kind === 'command' && !commandOnlyReads(c)).length;
  return { indexMayChange: writers > 1, trackedMayChange: writers > 0 };
}

/**
 * How a folder is taken in whole: every path under it, a repository with its history, the files
 * git tracks in a work tree (`tracked`: what `git diff` reads), the names and metadata of what
 * is under it (`names`: what `find`, `tree` and `du` read), a work tree git writes (no `.git`
 * folder in it), or one whose files git makes from its index (`checkout`: a work tree, unless
 * another part of the command may change the index first).
 */
type FolderKind = 'folder' | 'history' | 'tracked' | 'names' | 'worktree' | 'checkout';

/**
 * Declares one word as a path: exact, or a folder taken in whole (see {@linkcode FolderKind}); with
 * `from`, the folder whose contents land there (`ResourceAccess.from`).
 */
type Add = (word: ShellWord | undefined, access: 'read' | 'write', kind?: FolderKind, from?: string) => void;

/** Where a script a command runs is read: its folder, the home, how paths are declared, its environment. */
interface ScriptScope {
  dir: string | undefined;
  home: string;
  makeAdd: (base: string | undefined) => Add;
  addUnknown: (what: string, access: 'read' | 'write') => void;
  environment: readonly ShellWord[];
}

/** Whether a command changes the shell's directory (or may: `source`, `eval`), through `builtin` and `command` too. */
function changesDirectory(cmd: SimpleCommand): boolean {
  return ['cd', 'pushd', 'popd', 'source', '.', 'eval'].includes(namedBuiltin(cmd).name);
}

/** A plain `cd` the guard can follow: at the top level, surely run, with a known target. */
function trackableCd(cmd: SimpleCommand): boolean {
  if (cmd.name?.value !== 'cd' || !cmd.name.literal) return false;
  return !cmd.nested && cmd.subshell !== true && cmd.conditional !== true;
}

/** Where `cd` goes: undefined when not provable (an expansion, `-`, CDPATH, a missing folder). */
function cdTarget(cmd: SimpleCommand, dir: string, home: string): string | undefined {
  let physical = false;
  let target: ShellWord | undefined;
  for (const a of cmd.args) {
    if (!a.literal) return undefined;
    if (target === undefined && a.value !== '-' && a.value.startsWith('-') && a.value !== '--') {
      if (/^-[LPe@]+$/.test(a.value)) {
        physical = a.value.includes('P') ? true : a.value.includes('L') ? false : physical;
        continue;
      }
      return undefined;
    }
    if (a.value === '--' && target === undefined) continue;
    if (target !== undefined) return undefined;
    target = a;
  }
  let value: string;
  if (!target) value = home;
  else {
    const expanded = expandWord(target, { cwd: dir, home });
    if (!expanded || expanded.length !== 1) return undefined;
    value = expanded[0]!;
    if (value === '-' || value === '') return undefined;
    // CDPATH may send a relative cd elsewhere.
    if (process.env.CDPATH && !value.startsWith('/') && !/^\.\.?(\/|$)/.test(value)) return undefined;
  }
  const next = path.resolve(dir, value);
  try {
    if (!statSync(next).isDirectory()) return undefined;
    // -P resolves links first, so `link/..` is the parent of where the link points.
    return physical ? realpathSync.native(value.startsWith('/') ? value : `${dir}/${value}`) : next;
  } catch {
    // A cd that fails leaves the shell where it was; the guard cannot know which.
    return undefined;
  }
}

/** Options of tabled programs that run a command of the caller's choosing (what it writes is not known). */
const RUNS_A_COMMAND: Readonly<Record<string, readonly string[]>> = {
  rg: ['--pre', '--hostname-bin'],
  fd: ['-x', '--exec', '-X', '--exec-batch'],
  sort: ['--compress-program'],
  tar: ['-I', '--use-compress-program', '--to-command', '--checkpoint-action', '--info-script', '--new-volume-script'],
  rsync: ['-e', '--rsh', '--rsync-path'],
  // `install -s` strips with the program named (`--strip-program=sh` runs the file installed).
  install: ['--strip-program'],
};

/**
 * Programs that change what a path means for what they run, or for everything after them:
 * mounts (`mount --bind .git/hooks d` makes `d/pre-commit` a hook), namespaces with mounts of
 * their own (`unshare -rm`, `nsenter -m`, bubblewrap's binds) and FUSE file systems.
 */
const PATH_CHANGERS = new Set([
  'mount',
  'umount',
  'unshare',
  'nsenter',
  'bwrap',
  'pivot_root',
  'switch_root',
  'bindfs',
  'sshfs',
  'mergerfs',
  'unionfs',
  'unionfs-fuse',
  'fuse-overlayfs',
  'squashfuse',
  'archivemount',
  'fusermount',
  'fusermount3',
]);

/**
 * A program without a table: what it opens is not known (a read), what `at` and `crontab` are
 * given runs later (a write), and what it may run itself is read as commands of their own — its
 * words from one that names a program the guard knows (`perf stat cp a b`), and each command
 * string (`gdb -ex 'shell cp a b'`).
 */
function declareUntabled(name: string, args: readonly ShellWord[], text: string, options: ScriptScope): void {
  const { dir, home, makeAdd, addUnknown, environment } = options;
  if (RUNS_ITS_INPUT.has(name)) {
    addUnknown(`what \`${text}\` runs (${name} runs the commands it is given, later)`, 'write');
    return;
  }
  // (An allow rule about the command still allows it where no deny or ask rule could be behind what it opens.)
  addUnknown(`the files \`${name}\` opens (its arguments are not understood)`, 'read');
  if (isKnownProgram(name)) return;
  const hidden = hiddenCommandTexts(args);
  if (hidden === undefined)
    addUnknown(`what \`${text}\` may run (too many of its words may be commands to read)`, 'write');
  for (const script of hidden ?? []) declareScript(script, dir, home, makeAdd, addUnknown, environment);
}

/** Programs that run commands given on their standard input or in a file, later (`at now`, `crontab jobs`). */
const RUNS_ITS_INPUT = new Set(['at', 'batch', 'crontab']);

/** Shells whose `-c SCRIPT` the guard reads as a command of its own. */
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

/**
 * `bash -c 'SCRIPT'`: declares what SCRIPT touches, read as a command of its own (in the same
 * folder). False when there is no `-c` with a script written out in the command.
 */
function declareShellScript(
  args: readonly ShellWord[],
  dir: string | undefined,
  home: string,
  makeAdd: (base: string | undefined) => Add,
  addUnknown: (what: string, access: 'read' | 'write') => void,
  environment: readonly ShellWord[] = [],
): boolean {
  let i = 0;
  let script = false;
  let stdin = false;
  for (; i < args.length && args[i]!.literal && /^[-+]/.test(args[i]!.value); i++) {
    const v = args[i]!.value;
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    // `--rcfile F`, `--init-file F`, `-o OPTION`, `-O SHOPT` take a word; other long options do not.
    if (v === '--rcfile' || v === '--init-file' || /^[-+][oO]$/.test(v)) {
      i++;
      continue;
    }
    if (v.startsWith('--')) continue;
    if (v.startsWith('-') && v.includes('c')) script = true;
    if (v.startsWith('-') && v.includes('s')) stdin = true;
  }
  const text = args[i];
  // A script read from standard input, or one not known before the command runs: anything.
  if ((!script && (stdin || text === undefined)) || (script && (text === undefined || !text.literal))) {
    addUnknown(`what the shell's script runs (\`${text?.text ?? 'its standard input'}\`)`, 'write');
    return true;
  }
  if (!script) return false;
  declareScript(text!.value, dir, home, makeAdd, addUnknown, environment);
  return true;
}

/**
 * Declares what a script written out in the command (`bash -c '…'`, `eval '…'`) touches, read as a
 * command of its own, with the assignments that reach it (`TAR_OPTIONS=… bash -c 'tar …'`).
 */
function declareScript(
  script: string,
  dir: string | undefined,
  home: string,
  makeAdd: (base: string | undefined) => Add,
  addUnknown: (what: string, access: 'read' | 'write') => void,
  environment: readonly ShellWord[] = [],
): void {
  if (dir === undefined) {
    addUnknown(`what \`${script}\` touches (run in a folder not known in advance)`, 'write');
    return;
  }
  const inner = commandResources(script, dir, { homeDir: home, exported: environment });
  const add = makeAdd(dir);
  for (const a of inner.accesses) {
    if (a.kind === 'unknown') addUnknown(a.path, a.access === 'write' ? 'write' : 'read');
    else {
      // A work tree the script writes is taken as written from the index, which this command may change.
      const kind =
        a.kind === 'folder'
          ? a.history
            ? 'history'
            : a.tracked
              ? 'tracked'
              : a.names
                ? 'names'
                : a.worktree
                  ? 'checkout'
                  : 'folder'
          : undefined;
      add({ text: a.path, value: a.path, literal: true }, a.access === 'write' ? 'write' : 'read', kind);
    }
  }
}

/**
 * Whether a program may write files its words name, or that its options (given by xargs, say)
 * could name: a writer (`rm`, `cp`, `tee`), a program with an option that writes (`sort -o`),
 * git, sed (`-i`), or a program the tables do not know.
 */
function mayWrite(words: readonly ShellWord[]): boolean {
  const inner = innermostCommand(words);
  const head = inner?.[0];
  if (!inner || !head?.literal) return true;
  words = inner;
  const name = head.value.replace(/^.*\//, '');
  if (['git', 'sed', 'find', 'awk', 'gawk', 'mawk', 'nawk', 'xargs'].includes(name)) return true;
  const use = Object.hasOwn(FILE_USE, name) ? FILE_USE[name]! : undefined;
  if (!use) return !NO_FILES.has(name);
  return use.files !== 'read' && use.files !== 'none' ? true : Object.values(use.options ?? {}).includes('write');
}

/** Declares what one simple command (not a cd) touches. */
function declareCommand(
  cmd: SimpleCommand,
  base: string | undefined,
  home: string,
  makeAdd: (base: string | undefined) => Add,
  addUnknown: (what: string, access: 'read' | 'write') => void,
  incomplete: () => void,
  exported: readonly ShellWord[] = [],
): void {
  let words = [cmd.name!, ...cmd.args];
  let dir = base;
  // The environment git will see: the command's own prefixes, `env NAME=…`, and what earlier
  // commands exported (`export GIT_WORK_TREE=…`).
  const environment = [...exported, ...cmd.assignments];
  for (let guard = 0; guard < 8; guard++) {
    const head = words[0]!.literal ? words[0]!.value.replace(/^.*\//, '') : '';
    // `env -C DIR cmd` runs cmd in DIR; `chroot` and `sudo -D` move every path.
    if (head === 'env') {
      // env's own words: its options and assignments, before the command it runs.
      const own = unwrapOnce(words)?.own ?? words.slice(1);
      for (const w of own) if (/^[A-Za-z_]\w*=/.test(w.value)) environment.push(w);
      // `-C DIR`, `-iC DIR`, `--chdir`, `--ch` (getopt takes an abbreviation).
      if (own.some((w) => /^--c/.test(w.value) || /^-[a-zA-Z0-9]*C/.test(w.value))) dir = undefined;
      // `env -S 'tar -xf evil.tar'` splits its string into the command it runs.
      if (own.some((w) => /^--s/.test(w.value) || /^-[a-zA-Z0-9]*S/.test(w.value))) {
        addUnknown(
          `what \`${cmd.text}\` runs (env -S splits its string into a command, which the guard does not read)`,
          'write',
        );
        return;
      }
    }
    // watch runs its words joined through `sh -c` (as they are with -x).
    if (head === 'watch' && declareWatchScript(words, { dir, home, makeAdd, addUnknown, environment })) {
      incomplete();
      return;
    }
    // `command -v NAME` / `-V` only looks a name up.
    if (head === 'command' && words.slice(1).some((w) => w.value === '-v' || w.value === '-V')) return;
    // `sudo -D DIR` / `-R ROOT` (`--chdir`, `--chroot`, abbreviated, or in a bundle: `-nD DIR`).
    if (
      head === 'chroot' ||
      (head === 'sudo' && sudoOptions(words).some((v) => /^(-[A-Za-z]*[DR]|--ch[dr])/.test(v)))
    ) {
      // Every path it names means another file, and what it writes is not known: a write.
      addUnknown(`the files of \`${cmd.text}\` (run in another root or directory)`, 'write');
      return;
    }
    if (PATH_CHANGERS.has(head)) {
      addUnknown(
        `what \`${cmd.text}\` writes (${head} changes what paths mean: a mount or namespace of its own, so a path written may land elsewhere)`,
        'write',
      );
      return;
    }
    const found = unwrapOnce(words);
    // The wrapper's own files: `time -o F`, `strace -o LOG` (`-o '|cmd'` pipes to a command), `flock LOCKFILE`.
    for (const file of found?.writes ?? []) {
      if (found!.wrapper === 'strace' && /^[|!]/.test(file.value))
        addUnknown(`what \`${cmd.text}\` runs (strace -o ${file.text} pipes its log to a command)`, 'write');
      else makeAdd(dir)(file, 'write');
    }
    // xargs takes its file arguments from standard input: which files is not known.
    if (found?.wrapper === 'xargs') {
      const inner = found.inner.map((w) => w.text).join(' ');
      addUnknown(`the files xargs passes to \`${inner}\``, mayWrite(found.inner) ? 'write' : 'read');
      return;
    }
    if (!found) break;
    words = found.inner;
  }
  if (unwrapOnce(words)) {
    addUnknown(`what \`${cmd.text}\` runs (more wrappers deep than the guard reads)`, 'write');
    return;
  }
  const add = makeAdd(dir);
  if (!words[0]!.literal) {
    addUnknown(`the files of \`${cmd.text}\` (a program name not known before it runs)`, 'read');
    return;
  }
  const name = words[0]!.value.replace(/^.*\//, '');
  const args = words.slice(1);
  declareSettings(words[0]!.value, environment, addUnknown);
  // A long option alone, abbreviated or with `=value` (`--comp=sh`); a short one anywhere in a bundle (`rsync -ave CMD`).
  const running = (RUNS_A_COMMAND[name] ?? []).find((o) =>
    args.some((a) =>
      o.startsWith('--')
        ? abbreviates(a.value, o)
        : !a.value.startsWith('--') && new RegExp(`^-[A-Za-z0-9]*${o[1]}`).test(a.value),
    ),
  );
  if (running) addUnknown(`what \`${name} ${running}\` runs`, 'write');
  if (name === 'script') {
    // `script -c CMD [FILE]`: runs CMD, writes what it shows to FILE (./typescript by default).
    const { command, writes } = scriptWords(args);
    if (command?.literal) declareScript(command.value, dir, home, makeAdd, addUnknown, environment);
    else addUnknown(`what \`${cmd.text}\` runs`, 'write');
    for (const file of writes) add(file, 'write');
    incomplete();
    return;
  }
  if (SHELLS.has(name) && declareShellScript(args, dir, home, makeAdd, addUnknown, environment)) {
    // Whether the script's own commands are all understood is its own story: not claimed here.
    incomplete();
    return;
  }
  if (name === 'find') return declareFind(args, add, addUnknown);
  if (name === 'git') return declareGit(args, dir, home, makeAdd, addUnknown, environment);
  if (name === 'dd') {
    for (const a of args) {
      if (a.value.startsWith('if=')) add({ ...a, value: a.value.slice(3), text: a.text.slice(3) }, 'read');
      else if (a.value.startsWith('of=')) add({ ...a, value: a.value.slice(3), text: a.text.slice(3) }, 'write');
      // `dd "$A"`: a word not known before it runs may be `of=FILE`.
      else if (!a.literal && !/^(bs|ibs|obs|cbs|skip|seek|count|conv|iflag|oflag|status|iseek|oseek)=/.test(a.text))
        addUnknown(`\`${a.text}\` (it may be dd's \`of=\`, which writes a file)`, 'write');
    }
    return;
  }
  if (declareBuiltin(name, args, { add, addUnknown })) return;
  declareProgramText(name, args, { text: cmd.text, add, addUnknown });
  if (declareUnpackOrFetch(name, args, { add: (word, access) => add(word, access), addUnknown })) {
    incomplete();
    // What they read is not tabled: unknown, as for any program without a table.
    addUnknown(`the files \`${name}\` opens (its arguments are not understood)`, 'read');
    return;
  }
  const use = Object.hasOwn(FILE_USE, name) ? FILE_USE[name]! : undefined;
  if (!use) {
    if (!NO_FILES.has(name)) {
      incomplete();
      declareUntabled(name, args, cmd.text, { dir, home, makeAdd, addUnknown, environment });
    }
    return;
  }
  // A lister (and `rg --files`) reads the names under the folders it walks, not their contents.
  const namesOnly = use.lister || (name === 'rg' && args.some((a) => a.literal && a.value === '--files'));
  const names = namesOnly ? readsNames(add) : add;
  // `tree -R` runs itself again in each folder with `-o 00Tree.html`: it writes a file in every folder it walks.
  const walked = name === 'tree' && treeWritesEachFolder(args) ? alsoWritten(names, add) : names;
  const listed = use.lister ? listerAdd(walked) : walked;
  const files = filesOf(use, name, args, listed, addUnknown, dir, home);
  if (
    (use.lister || use.defaultDir || files.recursive) &&
    files.count === 0 &&
    use.files !== 'none' &&
    !(name === 'rg' && files.noFiles)
  ) {
    walked(DOT, 'read', files.recursive || use.recursive ? 'folder' : undefined);
  }
}

const DOT: ShellWord = { text: '.', value: '.', literal: true };

/**
 * Declares what bash's `trap`, `history` and `hash` do with files and commands: `trap 'CMD' EXIT`
 * runs CMD later (an unknown write), `history -w F`/`-a F` write F and `-r F`/`-n F` read it (the
 * history file when no F), `hash -p FILE NAME` makes NAME run FILE (an unknown read, as a program
 * without a table). True when the program is one of these.
 */
function declareBuiltin(
  name: string,
  args: readonly ShellWord[],
  { add, addUnknown }: { add: Add; addUnknown: (what: string, access: 'read' | 'write') => void },
): boolean {
  const operands = args.filter((a) => !a.literal || !a.value.startsWith('-') || a.value === '-');
  if (name === 'trap') {
    const action = operands[0];
    // One operand is a signal to reset; `-` or '' resets or ignores.
    if (operands.length >= 2 && !(action?.literal && (action.value === '-' || action.value === '')))
      addUnknown(`what \`trap ${action?.text ?? ''}\` runs on a signal or on exit`, 'write');
    return true;
  }
  if (name === 'history') {
    const letters = args
      .filter((a) => a.literal && /^-[a-z]+$/.test(a.value))
      .map((a) => a.value.slice(1))
      .join('');
    const access = /[aw]/.test(letters) ? 'write' : /[rn]/.test(letters) ? 'read' : undefined;
    if (access === undefined) return true;
    if (operands[0] !== undefined) add(operands[0], access);
    else addUnknown('the history file (HISTFILE, ~/.bash_history)', access);
    return true;
  }
  if (name === 'hash' && args.some((a) => !a.literal || /^-[a-z]*p/.test(a.value))) {
    addUnknown(`the program \`hash -p\` gives a name to (a later command of that name runs it)`, 'read');
    return true;
  }
  return false;
}

/**
 * Declares, as unknown writes, where bash itself runs what a variable's value holds: `x='a[$(cmd)]';
 * (( x ))` evaluates it as arithmetic; `PS4='$(cmd)'; set -x` expands it before each traced command.
 */
function declareValueInjections(command: string, addUnknown: (what: string, access: 'read' | 'write') => void): void {
  const injection = arithmeticInjection(command);
  if (injection !== undefined) addUnknown(injection, 'write');
  const tracing = traceInjection(command);
  if (tracing !== undefined) addUnknown(tracing, 'write');
}

/**
 * Declares what the variables a program runs with make unknown: one that makes it load code, run a
 * command or take options (an unknown write), a `PATH` that may find another program by its name
 * (an unknown read, as for any program the guard has no table of).
 */
function declareSettings(
  program: string,
  environment: readonly ShellWord[],
  addUnknown: (what: string, access: 'read' | 'write') => void,
): void {
  const name = program.replace(/^.*\//, '');
  const setting = programSetting(name, environment);
  if (setting !== undefined)
    addUnknown(
      `what \`${name}\` does with \`${setting.text}\` (it makes ${name} load code, run a command, write a log, read its options otherwise, or take options or a configuration file the command chose)`,
      'write',
    );
  const path = pathSetting(program, environment);
  if (path !== undefined)
    addUnknown(`the files of the program \`${name}\` finds with \`${path.text}\` (it may be another program)`, 'read');
}

/**
 * Declares what the program text of awk, jq or sed opens, writes or runs (`print > "f"`,
 * `getline < f`, `import`, sed's `r`/`w`/`e`), as far as the guard reads it, and the files other
 * programs open by names they read or make (`md5sum -c LIST`, `file -C`).
 */
function declareProgramText(
  name: string,
  args: readonly ShellWord[],
  { text, add, addUnknown }: { text: string; add: Add; addUnknown: (what: string, access: 'read' | 'write') => void },
): void {
  if (name === 'awk' || name === 'gawk' || name === 'mawk') {
    // A program that opens files itself (getline < f, ARGV rewritten, @include) opens what the guard cannot see.
    if (args.some((a) => !a.literal || /\b(getline|ARGV|ARGC|ENVIRON)\b|@include|@load/.test(a.value))) {
      addUnknown(`the files awk's program opens itself in \`${text}\``, 'read');
    }
    // `print > "f"`, `print | "cmd"`, system(): the program writes files or runs commands.
    if (args.some((a) => /[>|]|\bsystem\s*\(/.test(a.value)))
      addUnknown(`the files awk's program writes in \`${text}\``, 'write');
    const option = awkUnknownOption(args);
    if (option !== undefined)
      addUnknown(
        `what awk's option \`${option}\` does in \`${text}\` (a program in a file, -f or -W exec, is not known before it runs; gawk's -i inplace, -o, -p and -d write files)`,
        'write',
      );
  }
  if (
    name === 'jq' &&
    args.some(
      (a) =>
        /^(-L|--library-path)/.test(a.value) ||
        /\b(import|include)\b|\$__prog_args|input_filename/.test(a.value) ||
        !a.literal,
    )
  ) {
    addUnknown(`the modules jq loads in \`${text}\``, 'read');
  }
  // `md5sum -c LIST` reads the files LIST names (and says whether each matches its sum).
  if (/^(md5|sha\d*|b2)sum$|^cksum$/.test(name) && args.some((a) => /^--c|^-[a-zA-Z]*c/.test(a.value)))
    addUnknown(`the files named in the checksum lists of \`${text}\``, 'read');
  // `file -C -m M` compiles M into M.mgc in the folder it runs in.
  if (name === 'file' && args.some((a) => /^--co|^-[a-zA-Z]*C/.test(a.value)))
    addUnknown(`the compiled magic file \`${text}\` writes (NAME.mgc, in the folder it runs in)`, 'write');
  if (name === 'sed') {
    // A word not known before it runs may be the script, or `-f F`.
    if (args.some((a) => !a.literal)) {
      addUnknown(`the files sed's script reads in \`${text}\``, 'read');
      addUnknown(`the files sed's script writes in \`${text}\``, 'write');
    } else declareSedScript(args, { add: (w, access) => add(w, access), addUnknown });
  }
}

/**
 * `watch CMD…` runs its words joined with spaces through `sh -c` (`watch 'a; b'`), unless `-x`
 * says to run them as they are: declares the script as `bash -c` does. False with -x, or no command.
 */
function declareWatchScript(words: readonly ShellWord[], options: ScriptScope): boolean {
  const found = unwrapOnce(words);
  if (!found) return false;
  const own = found.own;
  if (own.some((w) => abbreviates(w.value, '--exec') || /^-[a-zA-Z]*x/.test(w.value))) return false;
  if (!found.inner.every((w) => w.literal)) {
    options.addUnknown(`what \`${words.map((w) => w.text).join(' ')}\` runs (through sh -c)`, 'write');
    return true;
  }
  const script = found.inner.map((w) => w.value).join(' ');
  declareScript(script, options.dir, options.home, options.makeAdd, options.addUnknown, options.environment);
  return true;
}

/**
 * The first option of awk's that is not `-F`, `-v` or a program written out (`-e`, `--source`):
 * a program in a file (`-f`, `-W exec`, gawk's `-i`, `-E`, `-l`), or a gawk option that writes
 * (`-o`, `-p`, `-d`); undefined when there is none. Options end at the program.
 */
function awkUnknownOption(args: readonly ShellWord[]): string | undefined {
  const long = (name: string, full: string) => name.length >= 4 && full.startsWith(name);
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--' || !v.startsWith('-') || v === '-') return undefined;
    if (v.startsWith('--')) {
      const name = v.replace(/=.*/, '');
      if (!['--field-separator', '--assign', '--source'].some((full) => long(name, full))) return v;
      if (!v.includes('=')) i++;
      continue;
    }
    if (!['-F', '-v', '-e'].includes(v.slice(0, 2))) return v;
    if (v.length === 2) i++;
  }
  return undefined;
}

/** Whether tree's words hold `-R` (alone or in a bundle, before `--`), which writes `00Tree.html` in each folder. */
function treeWritesEachFolder(args: readonly ShellWord[]): boolean {
  for (const a of args) {
    // A word not known before it runs (`$X`) may turn into `-R`.
    if (!a.literal) {
      if (mayBeOption(a)) return true;
      continue;
    }
    if (a.value === '--') return false;
    if (/^-[^-]*R/.test(a.value)) return true;
  }
  return false;
}

/** Each folder declared read is declared written too (as a folder: anything under it). */
function alsoWritten(read: Add, add: Add): Add {
  return (word, access, kind, from) => {
    read(word, access, kind, from);
    if (access === 'read' && kind === 'folder') add(word, 'write', 'folder');
  };
}

/** A folder a lister walks is read for its names and metadata only (`ResourceAccess.names`). */
function readsNames(add: Add): Add {
  return (word, access, kind, from) => add(word, access, access === 'read' && kind === 'folder' ? 'names' : kind, from);
}

/** A lister's glob (`src/*.ts`, `{a,b}`) reads the directory before the first pattern character. */
function listerAdd(add: Add): Add {
  return (word, access, kind) => {
    if (!word || access !== 'read' || word.literal || /[$`'"\\]/.test(word.text)) return add(word, access, kind);
    const at = word.text.search(/[*?[{]/);
    const prefix = word.text.slice(0, Math.max(0, word.text.lastIndexOf('/', at) + 1)) || '.';
    add({ text: prefix, value: prefix, literal: true }, 'read', kind);
  };
}

function declareFind(
  args: readonly ShellWord[],
  add: Add,
  addUnknown?: (what: string, access: 'read' | 'write') => void,
): void {
  // The paths come after find's own options (-H, -L, -P, -D x, -O1) and before the
  // expression (`find -L src lib -name x`); none means `.`. find walks every start folder, so
  // each is a folder entry (links inside are checked where they lead).
  let first = 0;
  while (first < args.length && /^-([HLP]|O\d*|D)$/.test(args[first]!.value))
    first += args[first]!.value === '-D' ? 2 : 1;
  const rest = args.slice(first);
  const end = rest.findIndex((a) => /^[-(!)]/.test(a.value));
  const starts = end === -1 ? rest : rest.slice(0, end);
  const listed = listerAdd(readsNames(add));
  const kind = 'folder' as const;
  // It opens the current folder too, to come back to it.
  add(DOT, 'read');
  if (starts.length === 0) listed(DOT, 'read', kind);
  for (const start of starts) listed(start, 'read', kind);
  // `-files0-from F` reads names from F, and reports the ones it cannot find; -fprint and
  // kin write a file; -delete writes the folders walked; -exec and kin run commands.
  rest.forEach((a, i) => {
    if (a.value === '-files0-from') {
      add(rest[i + 1], 'read');
      // find walks the folders the list names, in place of `.`: which ones is not known before it runs.
      addUnknown?.(`the folders named in \`${rest[i + 1]?.text ?? ''}\` (find -files0-from), which find walks`, 'read');
    }
    if (/^-(fprint0?|fprintf|fls)$/.test(a.value)) add(rest[i + 1], 'write');
  });
  if (rest.some((a) => a.value === '-delete'))
    for (const start of starts.length === 0 ? [DOT] : starts) add(start, 'write', 'folder');
  if (rest.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a.value)))
    addUnknown?.('the files the commands of find -exec open', 'write');
}

/** `git -c` settings that run nothing and write nothing: colours, advice, the author, display. */
const HARMLESS_GIT_SETTING =
  /^(color\.[\w.-]+|advice\.\w+|user\.(name|email)|core\.quotepath|core\.abbrev|log\.date|diff\.renames|init\.defaultbranch)=/i;

/** Git subcommands that print file contents from the working tree or the history. */
const GIT_CONTENT = new Set([
  'show',
  'blame',
  'annotate',
  'cat-file',
  'grep',
  'diff',
  'diff-tree',
  'diff-files',
  'diff-index',
  'whatchanged',
  'archive',
  'format-patch',
  'stash',
  'reflog',
  'shortlog',
  'range-diff',
  'difftool',
  'log',
]);
/**
 * Options after which `git log` prints what files hold, not only commits: patches (`-p`, `-u`,
 * `-U3`, in a bundle too), merges' diffs, which need no `-p` (`-c`, `--cc`, `--remerge-diff`,
 * `-m`, `--diff-merges=m`), `--check` (the lines with whitespace errors), `--binary`,
 * `--color-words`, line ranges, and the options the guard took so before (stats, pickaxe).
 */
const LOG_CONTENT =
  /^(-p|-u|--patch|-L|-U\d*|--unified|--word-diff|--color-words|--full-diff|--stat|--numstat|--raw|-G|-S|--textconv|-c$|-m$|--cc|--dd|--combined-all-paths|--remerge-diff|--diff-merges(?!=(off|none)$)|--check|--binary|--ext-diff)|^-[a-zA-Z]*[pcmu]/;

/** Git's own options that take a value (`git -C DIR`, `git -c k=v`). */
const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
]);

function declareGit(
  args: readonly ShellWord[],
  dir: string | undefined,
  home: string,
  makeAdd: (base: string | undefined) => Add,
  addUnknown: (what: string, access: 'read' | 'write') => void,
  environment: readonly ShellWord[] = [],
): void {
  const add = makeAdd(dir);
  let i = 0;
  let repoDir: ShellWord = DOT;
  // `GIT_WORK_TREE=x`, `GIT_DIR=…`, `GIT_CONFIG_…`: git works elsewhere; those and `EDITOR`,
  // `VISUAL`, `PAGER`, `LESSOPEN`… name programs git runs. A word not known (`$V`) may be any of them.
  // (`N=$(date)` names its variable: only a word whose name is not known may be any.)
  const setting = environment.find(
    (a) => !/^[A-Za-z_]\w*=/.test(a.text) || /^(GIT_|EDITOR=|VISUAL=|PAGER=|LESS|SSH_ASKPASS)/.test(a.text),
  );
  let elsewhere = setting !== undefined;
  if (setting) addUnknown(`what git does with \`${setting.text}\``, 'write');
  // Each `-C` moves on from the one before.
  let gitDir: string | undefined = dir;
  // `-c core.fsmonitor=`: a program setting given empty, which turns it off for this command.
  const off = new Set<string>();
  // `--git-dir DIR`: the repository git takes, whose config counts.
  let named: ShellWord | undefined;
  while (i < args.length && args[i]!.value.startsWith('-')) {
    const v = args[i]!.value;
    const turnedOff = v === '-c' && args[i + 1]?.literal ? programTurnedOff(args[i + 1]!.value) : undefined;
    if (turnedOff !== undefined) {
      off.add(turnedOff);
      i += 2;
      continue;
    }
    if (v === '-C') {
      repoDir = args[i + 1] ?? DOT;
      const at = gitDir === undefined ? undefined : expandWord(repoDir, { cwd: gitDir, home });
      gitDir = at?.length === 1 && at[0] !== undefined ? resolveLikeKernel(gitDir!, at[0]) : undefined;
    }
    if (v === '--git-dir') named = args[i + 1] ?? DOT;
    if (v.startsWith('--git-dir=')) named = { ...args[i]!, value: v.slice(10), text: args[i]!.text.slice(10) };
    if (
      v === '--git-dir' ||
      v === '--work-tree' ||
      v.startsWith('--git-dir=') ||
      v.startsWith('--work-tree=') ||
      v === '-c' ||
      v.startsWith('--config-env')
    )
      elsewhere = true;
    // A setting (`core.fsmonitor`, `core.pager`, `alias.*`) or a place of git's own programs can run anything.
    const value = args[i + 1];
    if ((v === '-c' && !(value?.literal && HARMLESS_GIT_SETTING.test(value.value))) || v.startsWith('--config-env')) {
      addUnknown(`what git runs with \`${v} ${value?.text ?? ''}\``, 'write');
    }
    if (v.startsWith('--exec-path=') || v === '--exec-path') addUnknown(`the programs of \`${v}\``, 'write');
    i += GIT_VALUE_OPTIONS.has(v) ? 2 : 1;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  if (sub !== undefined && named !== undefined)
    declareNamedRepositoryPrograms(named, gitDir, { home, addUnknown, off });
  else if (sub !== undefined && gitDir !== undefined && !elsewhere)
    declareRepositoryPrograms(gitDir, { home, addUnknown, off });
  // A repository whose config names another work tree (`core.worktree = ../.vscode`): git writes
  // there, relative to it, whatever folder it runs in (a submodule names its own folder).
  const repository = sub === undefined || gitDir === undefined || elsewhere ? undefined : gitRepositoryOf(gitDir);
  if (repository?.worktree !== undefined && repository.worktree !== repository.top) {
    elsewhere = true;
    addUnknown(
      `where git ${sub} writes: the work tree ${repository.worktree}, which core.worktree in ${repository.gitDir}/config names`,
      'write',
    );
  }
  if (sub !== undefined) {
    // Where git resolves pathspecs and finds its repository: the `-C` folder, else the shell's.
    declareGitWrites(sub, rest, {
      add: makeAdd(gitDir),
      addUnknown,
      repositoryRoot: gitDir === undefined ? undefined : repositoryRoot(gitDir),
      elsewhere,
      home,
      folder: gitDir,
    });
  }
  const top = gitDir === undefined ? undefined : repositoryRoot(gitDir);
  declareOptionFiles(sub ?? '', rest, { makeAdd, addUnknown, folder: gitDir, top });
  declareObjectCopies(sub ?? '', rest, { add: makeAdd(gitDir), addUnknown, top });
  // `git diff --no-index a b` reads any two paths, as does `git diff a b` with one outside the repository.
  const noIndex = sub === 'diff' ? noIndexOperands(rest, { folder: gitDir, top, home }) : undefined;
  if (rest.some((a) => a.value === '--no-index') || noIndex !== undefined) {
    if (sub === 'grep') makeAdd(gitDir)(DOT, 'read', 'folder');
    for (const a of noIndex ?? rest) if (!a.value.startsWith('-') || !a.literal) makeAdd(gitDir)(a, 'read', 'folder');
    return;
  }
  if (sub === undefined || sub === '--version' || sub === 'help') return;
  const patchLog = sub !== 'log' || rest.some((a) => (a.literal ? LOG_CONTENT.test(a.value) : mayBeOption(a)));
  if (GIT_CONTENT.has(sub) && patchLog) {
    if (elsewhere || !repoDir.literal || dir === undefined) {
      addUnknown(`the repository \`git ${sub}\` reads`, 'read');
      return;
    }
    const expanded = expandWord(repoDir, { cwd: dir, home });
    if (!expanded || expanded.length !== 1) {
      addUnknown(`the repository \`git ${sub}\` reads`, 'read');
      return;
    }
    const root = repositoryRoot(path.resolve(dir, expanded[0]!));
    // `git diff` and `git grep` of the work tree open only the files git tracks there (below
    // the paths named, where they are named); a history read, only the paths named. Not where
    // git replaces objects (`git replace A B`: what a path shows is then another's content).
    const found = gitRepositoryOf(root)?.gitDir;
    const narrow = gitDir !== undefined && (found === undefined || !replacesObjects(found));
    const tracked = narrow ? trackedReads(sub, rest, { gitDir: found }) : undefined;
    const paths = narrow && tracked === undefined ? historyPaths(sub, rest, { gitDir: found }) : undefined;
    if (tracked === undefined) declareHistory(paths, { root, repoDir, add: makeAdd(gitDir) });
    else if (tracked.length === 0) add({ text: repoDir.text, value: root, literal: true }, 'read', 'tracked');
    else for (const spec of tracked) makeAdd(gitDir)(spec, 'read', 'tracked');
    return;
  }
  // Any other subcommand reads the repository's own files (and compares the working tree with
  // its index) but prints no contents: the repository is declared as read, for the
  // working-directory check.
  const expanded = dir === undefined ? undefined : expandWord(repoDir, { cwd: dir, home });
  if (!expanded || expanded.length !== 1 || elsewhere) {
    addUnknown(`the repository \`git ${sub}\` reads`, 'read');
    return;
  }
  add({ text: repoDir.text, value: repositoryRoot(path.resolve(dir!, expanded[0]!)), literal: true }, 'read');
}

/** How {@linkcode declareRepositoryPrograms} declares what it finds. */
interface ProgramsOptions {
  home: string;
  addUnknown: (what: string, access: 'read' | 'write') => void;
  /** The settings the command turns off (`-c core.fsmonitor=`). */
  off: ReadonlySet<string>;
}

/**
 * {@linkcode declareRepositoryPrograms} of the git folder the command names (`--git-dir DIR`); one
 * not known before the command runs (`--git-dir=$D`, after a `cd` not followed) may hold any config.
 */
function declareNamedRepositoryPrograms(word: ShellWord, folder: string | undefined, options: ProgramsOptions): void {
  const values = folder === undefined ? undefined : expandWord(word, { cwd: folder, home: options.home });
  if (folder === undefined || values?.length !== 1 || values[0] === undefined) {
    options.addUnknown(`what git runs from the config of the git folder \`${word.text}\``, 'write');
    return;
  }
  declareRepositoryPrograms(folder, options, resolveLikeKernel(folder, values[0]));
}

/**
 * Declares, as an unknown write, each program the config of a repository that is not the user's
 * own makes git run where it runs in `folder` (see `gitProgramSettings`), and each config file
 * there the guard cannot read: the command then asks in every mode.
 */
function declareRepositoryPrograms(folder: string, options: ProgramsOptions, named?: string): void {
  const { home, addUnknown, off } = options;
  const { found, unreadable } = gitProgramSettings(folder, {
    workingDirectories: ownDirectories ?? [],
    home,
    bare: !bareRefused,
    gitDir: named,
  });
  for (const s of found) {
    if (off.has(s.key)) continue;
    addUnknown(
      `what git runs from the config of ${s.repository}, which is not the project's own repository: ${s.key} = ${s.value} (set in ${s.file}); approve the command only if you trust that program, or turn it off for the command with \`git -c ${s.key}= …\``,
      'write',
    );
  }
  for (const file of unreadable) {
    addUnknown(
      `what git may run from the config file ${file}, of a repository that is not the project's own; approve the command only if you trust that config`,
      'write',
    );
  }
}

/**
 * Declares a read of history: of the paths it is limited to (`git log -p -- src`, `git show
 * HEAD:a.txt`; see {@linkcode historyPaths}), else of the whole repository.
 */
function declareHistory(
  paths: HistoryPath[] | undefined,
  { root, repoDir, add }: { root: string; repoDir: ShellWord; add: Add },
): void {
  if (paths === undefined) {
    add({ text: repoDir.text, value: root, literal: true }, 'read', 'history');
    return;
  }
  for (const { word, fromTop } of paths) {
    // `HEAD:src/a.ts` names a path from the work tree's top, whatever folder git runs in.
    add(fromTop ? { ...word, value: path.posix.join(root, word.value) } : word, 'read', 'history');
  }
}

/**
 * The top of the repository git finds from a folder (the folder itself when none): the nearest
 * folder with a `.git` file, or a `.git` folder git takes for one (an empty `src/.git` it passes
 * over, to the repository above).
 */
function repositoryRoot(start: string): string {
  let current = start;
  for (;;) {
    const dotGit = path.join(current, '.git');
    try {
      if (!statSync(dotGit).isDirectory() || isGitDirectory(dotGit)) return current;
    } catch {
      // No .git here: on to the folder above.
    }
    const parent = path.dirname(current);
    if (parent === current) return start;
    current = parent;
  }
}

/**
 * Declares what git copies into the repository from a file or an object, where a later command
 * shows it: `git mv .env x` moves .env's content to x (a read of each source), `git hash-object -w .env` stores .env (as a read of it; `--stdin-paths` reads names from
 * the input), `git notes add -C OBJ` makes any object (`.env`'s blob in history) a note `git log`
 * prints, and plumbing files any object under any path (`update-index --cacheinfo`, `read-tree
 * --prefix`, `mktree`): reads of the whole history.
 */
/** Plumbing that makes trees, commits or objects from the names or data it is given. */
const OBJECT_WRITERS = new Set(['mktree', 'commit-tree', 'fast-import', 'mktag', 'unpack-objects', 'index-pack']);

function declareObjectCopies(
  sub: string,
  words: readonly ShellWord[],
  options: { add: Add; addUnknown: (what: string, access: 'read' | 'write') => void; top: string | undefined },
): void {
  if (sub === 'mv') {
    // `git mv .env notes.txt` moves what .env holds to a name no rule covers: a read of each source.
    let ended = false;
    const operands = words.filter((w) => {
      if (!ended && w.literal && w.value === '--') ended = true;
      else return ended || !w.literal || !w.value.startsWith('-');
      return false;
    });
    for (const w of operands.slice(0, -1)) options.add(w, 'read', 'folder');
  }
  if (sub === 'hash-object') {
    if (words.some((w) => !w.literal || w.value === '--stdin-paths'))
      options.addUnknown('the files `git hash-object` reads (their names come from its input)', 'read');
    for (const w of words) if (!w.value.startsWith('-')) options.add(w, 'read');
  }
  const copies = /^(-[a-zA-Z]*[cC]|--reuse-message|--reedit-message)/;
  // Plumbing that files any object under any path: `update-index --cacheinfo 100644,<.env's blob>,a.txt`
  // makes `git diff` print it as a.txt's; `read-tree --prefix=old/ HEAD~1` puts old/.env in the index.
  const aliases =
    OBJECT_WRITERS.has(sub) ||
    (sub === 'update-index' && words.some((w) => !w.literal || /^--(cacheinfo|index-info)/.test(w.value))) ||
    (sub === 'read-tree' && words.some((w) => !w.literal || w.value.startsWith('--prefix')));
  if (aliases || (sub === 'notes' && words.some((w) => !w.literal || copies.test(w.value)))) {
    if (options.top === undefined) options.addUnknown(`the objects \`git ${sub}\` copies`, 'read');
    else options.add({ text: options.top, value: options.top, literal: true }, 'read', 'history');
  }
}

/**
 * Declares the files git's options make it read (`blame -S F`, `--contents F`, `diff -O F`,
 * `grep -f F`; see `optionFiles`), from the folder git runs in and from the repository's top
 * (git resolves some from there: `cd src && git blame --contents .env x.ts` reads the top's .env).
 */
function declareOptionFiles(
  sub: string,
  words: readonly ShellWord[],
  options: {
    makeAdd: (base: string | undefined) => Add;
    addUnknown: (what: string, access: 'read' | 'write') => void;
    folder: string | undefined;
    top: string | undefined;
  },
): void {
  const { files, hidden } = optionFiles(sub, words);
  if (hidden)
    options.addUnknown(`the files the options of \`git ${sub}\` name (one is not known before it runs)`, 'read');
  for (const file of files) {
    options.makeAdd(options.folder)(file, 'read');
    if (options.top !== undefined && !file.value.startsWith('/')) options.makeAdd(options.top)(file, 'read');
  }
}

/** Declares the file arguments of one known program; returns how many file arguments it has. */
function filesOf(
  use: FileUse,
  name: string,
  args: readonly ShellWord[],
  add: Add,
  addUnknown: (what: string, access: 'read' | 'write') => void,
  dir: string | undefined,
  home: string,
): { count: number; recursive: boolean; noFiles: boolean } {
  const positionals: ShellWord[] = [];
  let targetDir: ShellWord | undefined;
  const table = use.options ?? {};
  let skip = use.skip ?? 0;
  let ended = false;
  let sedInPlace = false;
  // `sed -i SUFFIX` keeps a backup named from the suffix.
  let sedSuffix: string | undefined;
  let recursive = use.recursive === true;
  let noFiles = false;
  // `flag` is the option as written: `-t` from a bundle (`-rtDIR`), `--target` for `--target-directory`.
  const take = (arity: Arity, attached: string | undefined, arg: ShellWord, i: number, flag: string): number => {
    if (arity === 'flag') return i;
    if (arity === 'optional') return i;
    if (arity === 'value2') return i + 2;
    if (arity === 'names') {
      add(attached !== undefined ? { ...arg, value: attached, text: attached } : args[i + 1], 'read');
      addUnknown(
        `the files named in \`${attached ?? args[i + 1]?.text ?? ''}\` (${name} ${arg.value.replace(/=.*/, '')})`,
        'read',
      );
      return attached !== undefined ? i : i + 1;
    }
    if (arity === 'paths') {
      // `file -m A:B` reads A and B; a list not known before it runs is declared as it is (unknown).
      const list = attached !== undefined ? { ...arg, value: attached, text: attached } : args[i + 1];
      if (list?.literal) for (const p of list.value.split(':')) add({ ...list, value: p, text: p }, 'read');
      else add(list, 'read');
      return attached !== undefined ? i : i + 1;
    }
    if (arity === 'read2') {
      add(args[i + 2], 'read');
      return i + 2;
    }
    const kind = arity === 'read' ? 'read' : arity === 'write' ? 'write' : undefined;
    // A target directory (`cp -t DIR`) receives files: everything under it may be written.
    const target = flag === '-t' || (flag.length >= 3 && '--target-directory'.startsWith(flag));
    const into = kind === 'write' && target ? ('folder' as const) : undefined;
    if (attached !== undefined) {
      if (kind) add({ ...arg, value: attached, text: attached }, kind, into);
      if (into) targetDir = { ...arg, value: attached, text: attached };
      return i;
    }
    if (kind) add(args[i + 1], kind, into);
    if (into) targetDir = args[i + 1];
    return i + 1;
  };
  // `--recur` is `--recursive` (getopt takes an abbreviation); `-d rec` is grep's `-d recurse` (argmatch does).
  const recursesWith = (flag: string) =>
    use.recursiveWith?.some((r) => r === flag || (r.startsWith('--') && !r.includes('=') && abbreviates(flag, r))) ===
    true;
  const grepRecurses = (flag: string, value: ShellWord | undefined) =>
    GREPS.has(name) && (flag === '-d' || abbreviates(flag, '--directories')) && recurseValue(value);
  // Before `--`, a word not known before the command runs may turn into an option (`sort $X`).
  const hiddenOption = mayHide(name, table);
  let hidden = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const v = arg.value;
    // `strings @opts` reads opts (before getopt, so after `--` too), and takes its words for arguments.
    if (use.responseFiles && arg.literal && v.length > 1 && v.startsWith('@')) {
      add({ ...arg, text: v.slice(1), value: v.slice(1) }, 'read');
      addUnknown(`the files named in \`${v.slice(1)}\` (${name} reads more arguments from ${v})`, 'read');
    }
    if (ended || !arg.literal || !v.startsWith('-') || v === '-') {
      if (!ended && !arg.literal && mayBeOption(arg) && hiddenOption !== undefined && !hidden) {
        hidden = true;
        addUnknown(`\`${arg.text}\` (it may be ${hiddenOption})`, 'write');
      }
      positionals.push(arg);
      continue;
    }
    if (v === '--') {
      ended = true;
      continue;
    }
    // `chmod -w f`, `chmod -s,u+x f`, `chmod -Rx f`: a mode may begin with a dash (getopt hands
    // chmod's letters r, w, x, X, s, t, u, g, o back as the mode): it is the mode, not an option.
    if (name === 'chmod' && /^-[cfvR]*[rwxXstugo]/.test(v)) {
      if (/^-[cfv]*R/.test(v)) recursive = true;
      positionals.push(arg);
      continue;
    }
    if (recursesWith(v)) recursive = true;
    if (name === 'rg' && (v === '--files' || v === '--type-list')) noFiles = v === '--type-list';
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const flag = eq === -1 ? v : v.slice(0, eq);
      if (recursesWith(flag) || grepRecurses(flag, eq === -1 ? args[i + 1] : { ...arg, value: v.slice(eq + 1) }))
        recursive = true;
      if (name === 'sed' && '--in-place'.startsWith(flag) && flag.length >= 3) {
        sedInPlace = true;
        if (eq !== -1) sedSuffix = v.slice(eq + 1);
      }
      if (use.skipUnless?.some((s) => s === flag || (s.startsWith('--') && s.startsWith(flag) && flag.length > 3)))
        skip = 0;
      const arity = longOption(table, flag);
      if (arity) i = take(arity, eq === -1 ? undefined : v.slice(eq + 1), arg, i, flag);
      continue;
    }
    // A bundle of short options: each letter a flag, until one that takes a value, which takes
    // the rest of the word (or, for a required value, the next word).
    if (/^-\d+$/.test(v)) continue;
    // Options spelled with one dash and a long name (xxd -cols) are looked up whole first.
    if (v.length > 2 && Object.hasOwn(table, v)) {
      i = take(table[v]!, undefined, arg, i, v);
      continue;
    }
    for (let c = 1; c < (use.shortOptions === 'single' ? 2 : v.length); c++) {
      const flag = `-${v[c]}`;
      if (recursesWith(flag)) recursive = true;
      if (name === 'sed' && flag === '-i') {
        sedInPlace = true;
        if (c + 1 < v.length) sedSuffix = v.slice(c + 1);
      }
      if (use.skipUnless?.includes(flag)) skip = 0;
      const arity = Object.hasOwn(table, flag) ? table[flag]! : 'flag';
      if (arity === 'flag') continue;
      if (use.shortOptions === 'next') {
        // tree: each letter that takes a value takes the next word, and the bundle goes on.
        if (arity !== 'optional') i = take(arity, undefined, arg, i, flag);
        continue;
      }
      const attached = c + 1 < v.length ? v.slice(c + 1) : undefined;
      if (grepRecurses(flag, attached !== undefined ? { ...arg, value: attached } : args[i + 1])) recursive = true;
      if (arity === 'optional') break;
      i = take(arity, attached, arg, i, flag);
      break;
    }
  }
  const files = positionals.slice(skip);
  const folder = recursive ? ('folder' as const) : undefined;
  if (use.files === 'none') return { count: 0, recursive, noFiles };
  declareFiles(
    use.files,
    { name, args, files, targetDir },
    { dir, home, add, addUnknown, folder, sedInPlace, sedSuffix },
  );
  return { count: files.length, recursive, noFiles };
}

/** Declares the file arguments {@linkcode filesOf} found, as the program's table says it uses them. */
function declareFiles(
  how: Exclude<FileUse['files'], 'none'>,
  call: { name: string; args: readonly ShellWord[]; files: readonly ShellWord[]; targetDir: ShellWord | undefined },
  options: Pick<Parameters<typeof declareCopyOrMove>[3], 'dir' | 'home' | 'add' | 'addUnknown' | 'folder'> & {
    /** `sed -i`: the files are rewritten; with a suffix, a backup of each is kept. */
    sedInPlace: boolean;
    sedSuffix: string | undefined;
  },
): void {
  const { name, args, files } = call;
  const { add, folder, sedInPlace, sedSuffix } = options;
  switch (how) {
    case 'read':
      for (const f of files) add(f, sedInPlace ? 'write' : 'read', folder);
      if (sedInPlace) for (const f of files) add(f, 'read');
      if (sedInPlace && sedSuffix) for (const f of files) add(sedBackup(f, sedSuffix), 'write');
      break;
    case 'write': {
      // `mkdir -p a/b/c` (`--parents`, `--par`) makes (and opens) every folder on the way.
      const parents =
        name === 'mkdir' && args.some((a) => abbreviates(a.value, '--parents') || /^-[a-zA-Z]*p/.test(a.value));
      for (const f of files) {
        add(f, 'write', folder);
        if (!parents || !f.literal || f.value.startsWith('/')) continue;
        const parts = f.value.split('/').filter((s) => s !== '' && s !== '.');
        for (let k = 1; k < parts.length; k++)
          add({ text: parts.slice(0, k).join('/'), value: parts.slice(0, k).join('/'), literal: true }, 'write');
      }
      break;
    }
    case 'copy':
    case 'move':
      declareCopier(how, call, options);
      break;
    case 'uniq':
      files.forEach((f, i) => add(f, i === 0 ? 'read' : 'write'));
      break;
  }
}

/**
 * What a word not known before the command runs may turn into, among a program's options: one
 * that writes a file (`sort $X` with X='-o f', `cp $X a b` with X='-t dir') or runs a program
 * (`rg $X` with X='--pre=sh'); undefined when it has none.
 */
function mayHide(name: string, table: Readonly<Record<string, Arity>>): string | undefined {
  const writing = Object.keys(table).find((k) => table[k] === 'write');
  if (writing !== undefined) return `${name}'s \`${writing}\`, which writes a file`;
  const running = RUNS_A_COMMAND[name]?.[0];
  return running === undefined ? undefined : `${name}'s \`${running}\`, which runs a program`;
}

const GREPS = new Set(['grep', 'egrep', 'fgrep']);

/** Whether grep's `--directories` value may be `recurse` (argmatch takes `rec`; one not known may be it). */
function recurseValue(word: ShellWord | undefined): boolean {
  if (word === undefined) return false;
  return !word.literal || (word.value !== '' && 'recurse'.startsWith(word.value));
}

/**
 * The backup GNU `sed -i SUFFIX` keeps of a file: each `*` of the suffix replaced by the file's
 * name as written (`-i'bak/*'` on `sub/f` is `bak/sub/f`, from the command's folder), else the
 * file's name with the suffix after it. A file not known makes its backup not known either.
 */
function sedBackup(file: ShellWord, suffix: string): ShellWord {
  const value = suffix.includes('*') ? suffix.replaceAll('*', file.value) : `${file.value}${suffix}`;
  return { text: `${file.text} (its backup, sed -i${suffix})`, value, literal: file.literal };
}

/**
 * The files of `cp`, `ln`, `install` and `mv` as their options say: `install -d` makes every
 * folder it names; otherwise see {@linkcode declareCopyOrMove}.
 */
function declareCopier(
  how: 'copy' | 'move',
  call: { name: string; args: readonly ShellWord[]; files: readonly ShellWord[]; targetDir: ShellWord | undefined },
  options: Pick<Parameters<typeof declareCopyOrMove>[3], 'dir' | 'home' | 'add' | 'addUnknown' | 'folder'>,
): void {
  const { name, args, files } = call;
  // GNU getopt takes an abbreviation: `--di` is `--directory`, `--l` is `cp --link`, `--sy` is `ln --symbolic`.
  if (name === 'install' && args.some((a) => /^--di/.test(a.value) || /^-[a-zA-Z]*d/.test(a.value))) {
    for (const f of files) options.add(f, 'write');
    return;
  }
  declareCopyOrMove(how, files, call.targetDir, {
    ...options,
    // `ln -sr`: the source is read from the command's folder (ln writes the link relative to its own).
    symbolic: isSymbolicLn(name, args) && !args.some((a) => /^--r/.test(a.value) || /^-[a-zA-Z]*r/.test(a.value)),
    parents: name === 'cp' && args.some((a) => /^--pa(r(e(n(t(s)?)?)?)?)?$/.test(a.value)),
    backup: backupSuffix(args),
    hardLink:
      (name === 'ln' && !isSymbolicLn(name, args)) ||
      (name === 'cp' && args.some((a) => /^--l(i(n(k)?)?)?$/.test(a.value) || /^-[a-zA-Z]*l/.test(a.value))),
  });
}

/** The files of `cp`, `ln`, `install` (`copy`) and `mv` (`move`): sources, destination, and where the sources land. */
function declareCopyOrMove(
  how: 'copy' | 'move',
  files: readonly ShellWord[],
  targetDir: ShellWord | undefined,
  options: {
    dir: string | undefined;
    home: string;
    add: Add;
    addUnknown: (what: string, access: 'read' | 'write') => void;
    folder: 'folder' | undefined;
    /** `ln -s`: relative sources lead from the link's folder. */
    symbolic: boolean;
    /** `cp --parents`: each source lands at its whole path below the destination. */
    parents: boolean;
    /** `-b`/`-S`: the suffix of the backup kept of what a landing replaces; null when not known. */
    backup: string | null | undefined;
    /**
     * `ln` (not `-s`), `cp -l`: the sources get another name, through which a later write changes
     * them (`echo > x` rewrites the file `ln f x` linked): a write of each source as much as a read.
     */
    hardLink: boolean;
  },
): void {
  const { dir, add } = options;
  files.forEach((f, i) => {
    const last = i === files.length - 1 && files.length > 1;
    const into = last && (files.length > 2 || isDirectory(f, dir)) ? 'folder' : undefined;
    // A copy reads its sources; a move writes them (they go away, with all they hold), and reads what they hold.
    if (how === 'copy') {
      add(f, last ? 'write' : 'read', into ?? options.folder);
      if (!last && options.hardLink) add(f, 'write', options.folder);
    } else add(f, 'write', into ?? (last ? undefined : 'folder'));
  });
  if (how === 'move' && files.length > 1) for (const f of files.slice(0, -1)) add(f, 'read', 'folder');
  // What lands where: `cp a b DIR` writes DIR/a and DIR/b (see landings).
  const dest = targetDir ?? (files.length > 1 ? files.at(-1) : undefined);
  const sources = targetDir ? files : files.slice(0, -1);
  const into = targetDir !== undefined || files.length > 2 || ('either' as const);
  const { home, symbolic, parents, addUnknown, backup } = options;
  const land = (w: ShellWord, access: 'write', from?: string) => {
    add(w, access, undefined, from);
    // `cp -b -S s.json x .vscode/task` keeps the old .vscode/task as .vscode/tasks.json.
    if (typeof backup === 'string') add({ ...w, text: `${w.text}${backup}`, value: `${w.value}${backup}` }, 'write');
  };
  if (backup === null)
    addUnknown(
      'the backups kept of what the command replaces (named with SIMPLE_BACKUP_SUFFIX from the environment unless -S says)',
      'write',
    );
  if (dest) declareLandings(sources, dest, { into, dir, home, symbolic, parents, add: land, addUnknown });
}

/**
 * The backup suffix of `cp`, `mv`, `ln` or `install` (`-b`, `--backup`, `-S SUFFIX`,
 * `--suffix=SUFFIX`): undefined when none is kept, null when the suffix is not in the command
 * (the environment's SIMPLE_BACKUP_SUFFIX, or a word not known before it runs).
 */
function backupSuffix(args: readonly ShellWord[]): string | null | undefined {
  let backup = false;
  let suffix: string | null | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === '--') break;
    // GNU getopt takes an abbreviation: `--b`/`--ba` is `--backup`, `--su` is `--suffix`.
    const long = v.startsWith('--') ? v.replace(/=.*/, '') : '';
    const eq = v.indexOf('=');
    if (long.length >= 3 && '--backup'.startsWith(long)) backup = true;
    else if (long.length >= 4 && '--suffix'.startsWith(long))
      suffix = eq === -1 ? (args[i + 1]?.literal ? args[++i]!.value : null) : a.literal ? v.slice(eq + 1) : null;
    else if (v === '-S') suffix = args[i + 1]?.literal ? args[++i]!.value : null;
    else if (/^-[a-zA-Z]/.test(v)) {
      const at = v.indexOf('S');
      const letters = at === -1 ? v : v.slice(0, at);
      if (letters.includes('b')) backup = true;
      if (at !== -1) suffix = at + 1 < v.length ? v.slice(at + 1) : args[i + 1]?.literal ? args[++i]!.value : null;
    }
  }
  if (suffix !== undefined) return suffix;
  return backup ? null : undefined;
}

function dedupe(list: ResourceAccess[]): ResourceAccess[] {
  const seen = new Set<string>();
  // A write of a path where a folder lands says what the plain write of it says, and more.
  const landed = new Set(list.filter((a) => a.from !== undefined).map((a) => keyOf(a)));
  return list.filter((a) => {
    const key = `${keyOf(a)}\0${a.from ?? ''}`;
    if (seen.has(key) || (a.from === undefined && landed.has(keyOf(a)))) return false;
    seen.add(key);
    return true;
  });
}

/** What tells two accesses apart, but where a folder landing there comes from. */
function keyOf(a: ResourceAccess): string {
  // A work tree write of a folder leaves its .git folders out; a plain one of the same folder does not.
  return `${a.kind ?? 'path'}:${a.history === true}:${a.worktree === true}:${a.access}:${a.path}`;
}

/** `ln -s`, `ln --symbolic`, `ln -sf`…: the link leads to its source, read from the link's own folder. */
function isSymbolicLn(name: string, args: readonly ShellWord[]): boolean {
  if (name !== 'ln') return false;
  return args.some((a) => /^--sy(m(b(o(l(i(c)?)?)?)?)?)?$/.test(a.value) || /^-[a-zA-Z]*s/.test(a.value));
}

/** sudo's own option words, before the command it runs. */
function sudoOptions(words: readonly ShellWord[]): string[] {
  return (unwrapOnce(words)?.own ?? []).map((w) => w.value).filter((v) => v.startsWith('-'));
}
