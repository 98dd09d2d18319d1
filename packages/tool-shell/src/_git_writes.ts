import type { ShellWord } from './bash_parser.ts';
import { isDirectory } from './_is_directory.ts';
import { type GitWords, type GitWriteOptions, parseGitWords } from './_git_words.ts';
import { declareConfigWrite } from './_git_config_writes.ts';
import { declareLandings } from './_landings.ts';
import { declareCheckedOut, declareGitmodulesWrite, submodulePaths } from './_git_submodules.ts';

/** git's own pathspec magic and globs: git matches them against its index, not the shell. */
const PATHSPEC_MAGIC = /^:|[*?[\]]/;

/** Options that make git run a command of the caller's choosing. */
const RUNS_A_COMMAND = ['--upload-pack', '--receive-pack', '--exec', '--open-files-in-pager', '--extcmd'];
const RUNS_A_COMMAND_SHORT: Readonly<Record<string, string>> = {
  grep: '-O',
  'ls-remote': '-u',
  clone: '-u',
  rebase: '-x',
  difftool: '-x',
};

/** `remote` and `submodule` actions that change `.git/config`. */
const REMOTE_CONFIG = ['add', 'set-url', 'rename', 'remove', 'rm', 'set-head', 'set-branches'];
const SUBMODULE_CONFIG = ['add', 'init', 'sync', 'set-url', 'set-branch', 'deinit', 'absorbgitdirs'];
/** `branch` options that write the branch's section of `.git/config`. */
const BRANCH_CONFIG = ['-t', '--track', '-u', '--set-upstream-to', '--unset-upstream', '-m', '-M', '--move'];
const BRANCH_CONFIG_MORE = ['-c', '-C', '--copy', '-d', '-D', '--delete', '--edit-description'];

const DOT: ShellWord = { text: '.', value: '.', literal: true };

/**
 * Declares the files a git subcommand writes outside the repository's object store, where its
 * words say which: the paths `checkout … -- PATHS`, `restore`, `rm`, `mv`, `clean`, `stash push`,
 * `merge-file`, `mailinfo` and `checkout-index` rewrite or delete; the folder `worktree add` checks
 * a commit out into; `read-tree --index-output`; the config file `config`,
 * `remote add`, `branch --track`, `submodule add` and `maintenance register` change; the
 * folders `init`, `clone`, `format-patch`, `mailsplit`, `diagnose` and `bugreport` write into;
 * the refs `update-ref` and `symbolic-ref` write under `.git`; and any `--output` file. Each is
 * then checked like any write: a protected path (`.claude/settings.json`, `.git/config`,
 * `package.json`) asks in every mode, whatever `Bash(git …:*)` rule allows the command. A
 * folder taken from a commit (`checkout TREE -- DIR`, `restore --source`), a
 * pathspec git expands itself (a glob, `:(magic)`), `--pathspec-from-file`, `checkout -p REV`,
 * `read-tree -u --prefix`, `sparse-checkout` (which brings files back from the index), paths resolved
 * against another work tree, an option that runs a command (`--upload-pack`, `grep -O`,
 * `archive --exec`) and a word not known before git runs that may be such an option are unknown
 * writes.
 *
 * Subcommands that rewrite whatever differs between two commits (`checkout BRANCH`, `switch`,
 * `reset --hard`, `merge`, `pull`, `stash pop`…) name no paths: they are not declared here.
 *
 * @param sub The subcommand (`checkout`).
 * @param rest Its words.
 * @param options Where paths lead, and how to declare them.
 *
 * @example
 * ```ts
 * import { declareGitWrites } from './_git_writes.ts';
 * import type { ShellWord } from './bash_parser.ts';
 *
 * const word = (value: string): ShellWord => ({ text: value, value, literal: true });
 * const writes: string[] = [];
 * // git checkout HEAD~1 -- .claude/settings.json
 * declareGitWrites('checkout', ['HEAD~1', '--', '.claude/settings.json'].map(word), {
 *   add: (w) => void (w && writes.push(w.value)),
 *   addUnknown: () => {},
 *   repositoryRoot: '/p',
 *   elsewhere: false,
 *   home: '/home/u',
 * });
 * writes; // ['.claude/settings.json']
 * ```
 */
export function declareGitWrites(sub: string, rest: readonly ShellWord[], options: GitWriteOptions): void {
  const { add, addUnknown } = options;
  const words = parseGitWords(sub, rest);
  if (words.hidden.length > 0) {
    addUnknown(
      `\`${words.hidden[0]!.text}\` (it may be options that make git ${sub} write files or run a command)`,
      'write',
    );
  }
  const short = RUNS_A_COMMAND_SHORT[sub];
  const runs = [...RUNS_A_COMMAND, ...(short ? [short] : [])].find((o) => words.has(o));
  if (runs !== undefined) addUnknown(`what the command \`git ${sub} ${runs}\` runs writes`, 'write');
  if (sub === 'bisect' && words.positionals[0]?.value === 'run') addUnknown('what `git bisect run` runs', 'write');
  const output = words.value('--output');
  if (output) add(output, 'write');
  const write = pathWriter(sub, options);
  if (words.has('--pathspec-from-file')) addUnknown(`the files git ${sub} reads from --pathspec-from-file`, 'write');
  const paths = [...words.positionals, ...words.afterDashes];
  const config = () => declareConfigWrite(words, { ...options, always: true });
  switch (sub) {
    case 'checkout': {
      // `checkout [TREE] -- PATHS`; without `--`, every word may be a path (the first too, when
      // it is not a revision), a branch alone switches; with two words or more, the first may
      // be the commit the others come from. Submodules are written from their own indexes.
      const commit = words.positionals.length > (words.dashes ? 0 : 1);
      const from = commit || words.has('--recurse-submodules') ? 'tree' : 'index';
      // `checkout -p REV` offers every file REV has: a lone word may be that commit.
      if (words.has('--patch') && !words.dashes && words.positionals.length === 1) {
        addUnknown(
          `the files git checkout -p takes from \`${words.positionals[0]!.text}\`, which may be a commit`,
          'write',
        );
        return;
      }
      if (words.dashes) for (const w of words.afterDashes) write(w, from);
      else if (!words.has('-b', '-B', '--orphan')) for (const w of words.positionals) write(w, from);
      return;
    }
    case 'restore': {
      // `--staged` alone changes the index only; with it, the source is HEAD.
      if (words.has('-S', '--staged') && !words.has('-W', '--worktree')) return;
      const from = words.has('-s', '--source', '-S', '--staged', '--recurse-submodules') ? 'tree' : 'index';
      for (const w of paths) write(w, from);
      return;
    }
    case 'rm':
      if (!words.has('--cached', '-n', '--dry-run')) for (const w of paths) write(w);
      declareGitmodulesWrite('rm', words, options);
      return;
    case 'mv':
    case 'merge-file':
    case 'mailinfo':
      if (words.has('-n', '--dry-run', '-p', '--stdout')) return;
      if (sub === 'mv') declareGitmodulesWrite('mv', words, options);
      // merge-file writes its first file, mailinfo its first two.
      for (const w of sub === 'mv' ? paths : paths.slice(0, sub === 'mailinfo' ? 2 : 1)) write(w);
      // `mv a b DIR` writes DIR/a and DIR/b, and what a folder moved holds lands below it.
      if (sub === 'mv' && paths.length > 1 && !options.elsewhere) {
        const land = { into: paths.length > 2 || ('either' as const), dir: options.folder, home: options.home };
        const landed = (w: ShellWord, access: 'write', from?: string) => add(w, access, undefined, from);
        declareLandings(paths.slice(0, -1), paths.at(-1)!, { ...land, add: landed, addUnknown });
      }
      return;
    case 'clean':
      if (words.has('-n', '--dry-run')) return;
      for (const w of paths.length === 0 ? [DOT] : paths) write(w, 'folder');
      return;
    case 'stash': {
      // `stash push PATHS`, `stash -- PATHS`: those paths go back to HEAD's version.
      // They go back to HEAD's version: from a commit.
      const [action, ...pushed] = words.positionals;
      if (action?.value === 'push' || action?.value === 'save') for (const w of pushed) write(w, 'tree');
      if (action === undefined || action.value === 'push') for (const w of words.afterDashes) write(w, 'tree');
      return;
    }
    case 'checkout-index':
      if (words.has('-a', '--all', '--stdin', '--prefix')) addUnknown('the files `git checkout-index` writes', 'write');
      else if (words.has('--temp')) add(DOT, 'write');
      else for (const w of paths) write(w);
      return;
    case 'worktree':
      if (words.positionals[0]?.value === 'add')
        declareCheckedOut('git worktree add', words.positionals[1], { words, rest, addUnknown });
      return declareTreeWrite(sub, words, options);
    case 'read-tree':
    case 'sparse-checkout':
      return declareTreeWrite(sub, words, options);
    case 'config':
      return declareConfigWrite(words, options);
    case 'remote':
      if (REMOTE_CONFIG.includes(words.positionals[0]?.value ?? '')) config();
      return;
    case 'branch':
      if (words.has(...BRANCH_CONFIG, ...BRANCH_CONFIG_MORE)) config();
      return;
    case 'submodule':
      return declareSubmoduleWrite(words, rest, options);
    case 'maintenance':
      if (['register', 'unregister', 'start', 'stop'].includes(words.positionals[0]?.value ?? '')) {
        declareConfigWrite(words, { ...options, global: true, always: true });
      }
      return;
    case 'init':
      if (options.elsewhere) addUnknown('the repository `git init` makes (`--git-dir`, `GIT_DIR`)', 'write');
      return declareInit(words, options);
    case 'clone': {
      const into = words.positionals[1] ?? lastPart(words.positionals[0]);
      if (into) add(into, 'write');
      else addUnknown('the folder `git clone` makes', 'write');
      declareCheckedOut('git clone', into, { words, rest, addUnknown, shortN: true });
      const separate = words.value('--separate-git-dir');
      if (separate) add(separate, 'write');
      return;
    }
    case 'update-ref':
    case 'symbolic-ref':
      return declareRefWrite(sub, words, options);
    case 'apply':
    case 'am':
      // The files the patch names (`--cached` and `--index` aside, which change the index only when
      // `--cached`; `--check`, `--stat`… write nothing).
      if (sub === 'apply' && words.has('--cached', '--check', '--stat', '--numstat', '--summary')) return;
      addUnknown(`the files the patches of \`git ${sub}\` change`, 'write');
      return;
    case 'archive':
      add(words.value('-o', '--output'), 'write');
      return;
    case 'format-patch':
    case 'mailsplit':
    case 'diagnose':
    case 'bugreport':
      // Into the folder `-o` names, else the current one.
      if (sub === 'format-patch' && words.has('--stdout')) return;
      if (sub !== 'mailsplit' || words.has('-o')) add(words.value('-o', '--output-directory') ?? DOT, 'write');
      return;
    case 'fast-export':
    case 'fast-import':
      add(words.value('--export-marks'), 'write');
      return;
    case 'bundle':
      if (words.positionals[0]?.value === 'create') add(words.positionals[1], 'write');
      return;
  }
}

/** `submodule` actions that change `.gitmodules` itself. */
const SUBMODULE_GITMODULES = ['add', 'set-url', 'set-branch'];

/**
 * `git submodule ACTION`: the config it changes (`.git/config`, and `.gitmodules` for `add`,
 * `set-url`, `set-branch`), the folders `add` and `update` fill from a commit (unknown: whatever
 * the commit holds), the folders `deinit` empties, and what `foreach` runs.
 */
function declareSubmoduleWrite(words: GitWords, rest: readonly ShellWord[], options: GitWriteOptions): void {
  const { add, addUnknown } = options;
  const [first, ...args] = words.positionals;
  const action = first?.value ?? '';
  if (action === 'foreach') addUnknown('what `git submodule foreach` runs', 'write');
  if (SUBMODULE_CONFIG.includes(action)) declareConfigWrite(words, { ...options, always: true });
  if (SUBMODULE_GITMODULES.includes(action)) {
    const root = options.repositoryRoot;
    if (root === undefined) addUnknown(`the .gitmodules \`git submodule ${action}\` changes`, 'write');
    else add({ text: '.gitmodules', value: `${root}/.gitmodules`, literal: true }, 'write');
  }
  if (action === 'add') {
    const at = args[1] ?? lastPart(args[0]);
    // It clones a repository there: anything, `.git` included.
    if (at) add(at, 'write', 'folder');
    declareCheckedOut('git submodule add', at, { words, rest, addUnknown });
  }
  // `update` (and `init` + `update`) checks each submodule's commit out, unless there are none.
  const none = options.repositoryRoot !== undefined && submodulePaths(options.repositoryRoot) === undefined;
  if (action === 'update' && !none) declareCheckedOut('git submodule update', undefined, { words, rest, addUnknown });
  // `deinit` empties the submodules' folders.
  if (action === 'deinit')
    for (const w of args.length === 0 || words.has('--all') ? [DOT] : args) add(w, 'write', 'folder');
}

/** Where git takes the files a pathspec names from; see {@linkcode pathWriter}. */
type PathSource = 'index' | 'tree' | 'folder';

/**
 * Declares a path git writes. A pathspec that names a folder (`.`) writes files below it: from
 * the index (`restore`, `checkout -- .`, `rm`, `mv`), what the index holds there (a work tree
 * write: the guard reads the index, and leaves `.git` folders out, which git never writes), a
 * path that is a file or nothing included (the index may hold a folder there); from a commit
 * (`checkout TREE -- .`, `restore --source`) or submodules' own indexes (`--recurse-submodules`),
 * what the guard cannot see (`tree`), a file's path too (the commit may hold a folder there).
 * `clean` removes everything below, `.git` folders included (`folder`: with -ff it removes nested
 * repositories).
 */
function pathWriter(sub: string, options: GitWriteOptions): (word: ShellWord, from?: PathSource) => void {
  const { add, addUnknown } = options;
  // restore and checkout make files from the index as it is when git runs (`checkout`); rm and mv
  // delete or move what exists, which the walk of the folder sees.
  const tracked = sub === 'restore' || sub === 'checkout' || sub === 'checkout-index' ? 'checkout' : 'worktree';
  return (word, from = 'index') => {
    if (options.elsewhere) addUnknown(`\`${word.text}\` (a path of another work tree that git ${sub} writes)`, 'write');
    else if (PATHSPEC_MAGIC.test(word.value))
      addUnknown(`the files git ${sub} matches with the pathspec \`${word.text}\``, 'write');
    else if (from === 'folder') add(word, 'write', 'folder');
    else if (from === 'index' && isDirectory(word, options.folder)) add(word, 'write', tracked);
    else if (from === 'index') {
      // A file, or nothing: the index may hold a folder there (deleted, or a file put in its
      // place), which git writes back whole.
      add(word, 'write');
      add(word, 'write', tracked);
    } else {
      // From a commit: a file here may be a folder there, which git writes in its place.
      addUnknown(`the files git ${sub} takes from a commit or a submodule at \`${word.text}\``, 'write');
    }
  };
}

/** The last part of a URL or path (`https://x/y.git` → `y`), as `clone` names its folder. */
function lastPart(word: ShellWord | undefined): ShellWord | undefined {
  if (!word?.literal) return undefined;
  const name = word.value
    .replace(/[/\\]+$/, '')
    .replace(/\.git$/, '')
    .split(/[/:]/)
    .pop();
  return name ? { text: name, value: name, literal: true } : undefined;
}

/**
 * `read-tree`, `worktree` and `sparse-checkout`: the work tree files they write from a commit or the
 * index, and the files they name.
 */
function declareTreeWrite(sub: string, words: GitWords, { add, addUnknown }: GitWriteOptions): void {
  switch (sub) {
    case 'read-tree':
      // `-u` writes the work tree: below `--prefix`, a commit's files (without it, the whole tree
      // changes, as with `checkout BRANCH`).
      add(words.value('--index-output'), 'write');
      if (words.has('-u') && words.value('--prefix') !== undefined) {
        addUnknown(`the files of a commit git read-tree -u writes below \`${words.value('--prefix')!.text}\``, 'write');
      }
      return;
    case 'worktree': {
      // `worktree add PATH [COMMIT]` checks a commit out into PATH, as clone does; `move` moves one there.
      const [action, from, to] = words.positionals;
      if (action?.value === 'add') add(from, 'write');
      if (action?.value === 'move') add(to, 'write');
      return;
    }
    case 'sparse-checkout':
      // `add`, `set`, `reapply`, `disable` bring files back from the index (and write `.git/info/sparse-checkout`).
      if (!['list', 'check-rules'].includes(words.positionals[0]?.value ?? '')) {
        addUnknown('the files `git sparse-checkout` brings back from the index', 'write');
      }
      return;
  }
}

/** `git init [DIR]`: the repository it makes or remakes, hooks from `--template` included. */
function declareInit(words: GitWords, options: GitWriteOptions): void {
  const dir = words.positionals[0] ?? DOT;
  options.add(dir, 'write');
  // A template's hooks land in DIR/.git/hooks; --separate-git-dir moves .git away.
  if (words.has('--template', '--separate-git-dir') && dir.literal) {
    const git = `${dir.value.replace(/\/+$/, '')}/.git`;
    options.add({ text: git, value: git, literal: true }, 'write');
  } else if (words.has('--template', '--separate-git-dir')) {
    options.addUnknown('the repository `git init` makes', 'write');
  }
  const separate = words.value('--separate-git-dir');
  if (separate) options.add(separate, 'write');
}

/** `update-ref NAME …`, `symbolic-ref NAME REF`: the file NAME under `.git` (any name git takes). */
function declareRefWrite(sub: string, words: GitWords, options: GitWriteOptions): void {
  if (words.has('--stdin')) {
    options.addUnknown('the refs `git update-ref --stdin` writes', 'write');
    return;
  }
  // symbolic-ref with one name only reads it.
  if (sub === 'symbolic-ref' && words.positionals.length < 2 && !words.has('-d', '--delete')) return;
  const name = words.positionals[0];
  if (name === undefined) return;
  if (!name.literal || options.repositoryRoot === undefined) {
    options.addUnknown(`the ref \`${name.text}\` git ${sub} writes`, 'write');
    return;
  }
  const file = `${options.repositoryRoot}/.git/${name.value}`;
  options.add({ text: file, value: file, literal: true }, 'write');
}
