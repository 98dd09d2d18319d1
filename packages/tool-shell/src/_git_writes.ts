import type { ShellWord } from './bash_parser.ts';

/** Declares one word as a path the command writes (a folder when `kind` says so). */
type DeclareWrite = (word: ShellWord | undefined, access: 'write', kind?: 'folder') => void;

/** Where a git command's paths lead, as far as the guard can tell before it runs. */
export interface GitWriteOptions {
  /** Declares a path relative to where git resolves pathspecs (the `-C` folder, else the shell's). */
  add: DeclareWrite;
  /** Declares what cannot be known before git runs. */
  addUnknown: (what: string, access: 'read' | 'write') => void;
  /** The repository's top folder; undefined when not known (`--git-dir`, a `-C` not provable). */
  repositoryRoot: string | undefined;
  /** Pathspecs are resolved elsewhere (`--work-tree`, `--git-dir`): their files are not known. */
  elsewhere: boolean;
  /** What `~` stands for (`git config --global` writes `~/.gitconfig`). */
  home: string;
}

/** Options of the subcommands below that take a value as the next word. */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  checkout: ['-b', '-B', '--orphan'],
  restore: ['-s', '--source'],
  clean: ['-e', '--exclude'],
  config: ['-f', '--file', '--blob', '--type', '--default', '--comment'],
  archive: ['-o', '--output', '--format', '--prefix', '--remote', '--exec', '--add-file', '--add-virtual-file'],
  'format-patch': ['-o', '--output-directory', '--output'],
  diff: ['--output'],
  log: ['--output'],
  show: ['--output'],
  whatchanged: ['--output'],
  'range-diff': ['--output'],
};

/** `git diff`/`log`/… `--output=FILE` writes their output to FILE instead of printing it. */
const OUTPUT_FILE_COMMANDS = new Set(['diff', 'log', 'show', 'whatchanged', 'range-diff', 'format-patch']);

/** Subcommands whose words can name files they write. */
const WRITERS = new Set(['checkout', 'restore', 'rm', 'mv', 'clean', 'checkout-index', 'config', 'archive', 'bundle']);

/** git's own pathspec magic and globs: git matches them against its index, not the shell. */
const PATHSPEC_MAGIC = /^:|[*?[\]]/;

/** Config actions that change a config file; the rest (`--get`, `--list`, one key alone) read it. */
const CONFIG_WRITE_FLAGS = [
  '--unset',
  '--unset-all',
  '--add',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '-e',
  '--edit',
];
const CONFIG_READ_FLAGS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '-l',
  '--list',
];
/** `git config SUBCOMMAND` (git 2.46 and later). */
const CONFIG_WRITE_SUBCOMMANDS = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];
const CONFIG_READ_SUBCOMMANDS = ['get', 'list'];

/** The long options below that change what a subcommand writes (git takes any unique prefix of them). */
const LONG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  checkout: ['--orphan', '--pathspec-from-file'],
  restore: ['--source', '--staged', '--worktree', '--pathspec-from-file'],
  rm: ['--cached', '--dry-run', '--pathspec-from-file'],
  mv: ['--dry-run'],
  clean: ['--dry-run', '--exclude'],
  'checkout-index': ['--all', '--stdin', '--prefix'],
  config: [
    ...['--file', '--blob', '--global', '--system', '--worktree', '--local', '--type', '--default', '--comment'],
    ...[...CONFIG_WRITE_FLAGS, ...CONFIG_READ_FLAGS].filter((o) => o.startsWith('--')),
  ],
  archive: ['--output'],
  'format-patch': ['--output-directory', '--output'],
  diff: ['--output'],
  log: ['--output'],
  show: ['--output'],
  whatchanged: ['--output'],
  'range-diff': ['--output'],
};

/**
 * A long option as git reads it: itself when known, else the one known option it is a prefix of
 * (`--outp` is `--output`; several make git refuse the command, so it stays as written).
 */
function canonical(sub: string, name: string): string {
  const known = LONG_OPTIONS[sub] ?? [];
  if (known.includes(name)) return name;
  const candidates = known.filter((o) => o.startsWith(name));
  return candidates.length === 1 ? candidates[0]! : name;
}

/** A subcommand's words: options (with their values) and the positionals, those after `--` apart. */
function parse(sub: string, rest: readonly ShellWord[]) {
  const valued = VALUE_OPTIONS[sub] ?? [];
  const options = new Map<string, ShellWord | undefined>();
  const positionals: ShellWord[] = [];
  const afterDashes: ShellWord[] = [];
  let dashes = false;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    const v = word.value;
    if (dashes) afterDashes.push(word);
    else if (v === '--') dashes = true;
    else if (v.startsWith('--') && v.includes('=')) {
      const at = v.indexOf('=');
      const name = canonical(sub, v.slice(0, at));
      options.set(name, { ...word, value: v.slice(at + 1), text: word.text.slice(word.text.indexOf('=') + 1) });
    } else if (v.startsWith('--') && v.length > 2) {
      const name = canonical(sub, v);
      options.set(name, valued.includes(name) ? rest[++i] : undefined);
    } else if (valued.includes(v)) options.set(v, rest[++i]);
    else if (/^-[a-zA-Z]/.test(v) && !v.startsWith('--')) {
      // Bundled short flags (`-fdx`); a valued one may carry its value attached (`-ofile`).
      const short = valued.find((o) => o.length === 2 && v.startsWith(o) && v.length > 2);
      if (short) options.set(short, { ...word, value: v.slice(2), text: word.text.slice(2) });
      else for (const c of v.slice(1)) options.set(`-${c}`, undefined);
    } else if (v.startsWith('-') && v !== '-') options.set(v, undefined);
    else positionals.push(word);
  }
  return { options, positionals, afterDashes, dashes, has: (...names: string[]) => names.some((n) => options.has(n)) };
}

/**
 * Declares the files a git subcommand writes outside the repository's object store, where its
 * words say which: the paths `checkout … -- PATHS`, `restore`, `rm`, `mv`, `clean` and
 * `checkout-index` rewrite or delete, the config file `git config` changes (`.git/config`,
 * `~/.gitconfig`, `--file`), and the files `--output`/`-o` write. Each is then checked like any
 * write: a protected path (`.claude/settings.json`, `.git/config`, `package.json`) asks in every
 * mode, whatever `Bash(git …:*)` rule allows the command. A pathspec git expands itself (a glob,
 * `:(magic)`), a `--pathspec-from-file`, or paths resolved against another work tree are
 * unknown writes.
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
  const ctx = options;
  const { add, addUnknown } = ctx;
  const words = parse(sub, rest);
  // A word not known before git runs may turn into any options (`--output=f`, `-- paths`, several words).
  const dashes = rest.findIndex((w) => w.literal && w.value === '--');
  const hidden = rest.find((w, i) => !w.literal && (dashes === -1 || i < dashes));
  if (hidden && (WRITERS.has(sub) || OUTPUT_FILE_COMMANDS.has(sub))) {
    addUnknown(`\`${hidden.text}\` (it may be options that make git ${sub} write files)`, 'write');
  }
  const write = (word: ShellWord, kind?: 'folder') => {
    if (ctx.elsewhere) addUnknown(`\`${word.text}\` (a path of another work tree that git ${sub} writes)`, 'write');
    else if (PATHSPEC_MAGIC.test(word.value))
      addUnknown(`the files git ${sub} matches with the pathspec \`${word.text}\``, 'write');
    else add(word, 'write', kind);
  };
  const fromFile = () => {
    if (words.has('--pathspec-from-file')) addUnknown(`the files git ${sub} reads from --pathspec-from-file`, 'write');
  };
  if (OUTPUT_FILE_COMMANDS.has(sub)) {
    const output = words.options.get('--output');
    if (output) add(output, 'write');
  }
  switch (sub) {
    case 'checkout': {
      fromFile();
      // `checkout [TREE] -- PATHS`, `checkout TREE PATHS`; one word alone is a branch or a path.
      if (words.dashes) for (const w of words.afterDashes) write(w);
      else if (!words.has('-b', '-B', '--orphan')) {
        for (const w of words.positionals.length > 1 ? words.positionals.slice(1) : words.positionals) write(w);
      }
      return;
    }
    case 'restore': {
      fromFile();
      // `--staged` alone changes the index only.
      if (words.has('-S', '--staged') && !words.has('-W', '--worktree')) return;
      for (const w of [...words.positionals, ...words.afterDashes]) write(w);
      return;
    }
    case 'rm':
      fromFile();
      if (words.has('--cached', '-n', '--dry-run')) return;
      for (const w of [...words.positionals, ...words.afterDashes]) write(w);
      return;
    case 'mv':
      if (words.has('-n', '--dry-run')) return;
      for (const w of [...words.positionals, ...words.afterDashes]) write(w);
      return;
    case 'clean': {
      if (words.has('-n', '--dry-run')) return;
      const paths = [...words.positionals, ...words.afterDashes];
      if (paths.length === 0) write({ text: '.', value: '.', literal: true }, 'folder');
      for (const w of paths) write(w, 'folder');
      return;
    }
    case 'checkout-index':
      if (words.has('-a', '--all', '--stdin', '--prefix')) {
        addUnknown(`the files \`git checkout-index\` writes from the index`, 'write');
        return;
      }
      for (const w of [...words.positionals, ...words.afterDashes]) write(w);
      return;
    case 'config':
      return declareConfigWrite(words, ctx);
    case 'archive': {
      const output = words.options.get('-o') ?? words.options.get('--output');
      if (output) add(output, 'write');
      return;
    }
    case 'format-patch': {
      // Into the folder `-o` names (by default the current one, under names like `0001-x.patch`).
      const folder = words.options.get('-o') ?? words.options.get('--output-directory');
      if (folder) add(folder, 'write');
      return;
    }
    case 'bundle':
      if (words.positionals[0]?.value === 'create') add(words.positionals[1], 'write');
      return;
  }
}

function declareConfigWrite(words: ReturnType<typeof parse>, ctx: GitWriteOptions): void {
  const first = words.positionals[0]?.value;
  let writes: boolean;
  if (first !== undefined && CONFIG_WRITE_SUBCOMMANDS.includes(first)) writes = true;
  else if (first !== undefined && CONFIG_READ_SUBCOMMANDS.includes(first)) writes = false;
  else if (words.has(...CONFIG_WRITE_FLAGS)) writes = true;
  else if (words.has(...CONFIG_READ_FLAGS)) writes = false;
  else writes = words.positionals.length >= 2;
  if (!writes || words.has('--blob')) return;
  const file = words.options.get('-f') ?? words.options.get('--file');
  if (file) return ctx.add(file, 'write');
  if (words.has('--system'))
    return ctx.add({ text: '/etc/gitconfig', value: '/etc/gitconfig', literal: true }, 'write');
  if (words.has('--global')) {
    const home = `${ctx.home === '/' ? '' : ctx.home}/.gitconfig`;
    return ctx.add({ text: home, value: home, literal: true }, 'write');
  }
  if (ctx.repositoryRoot === undefined || ctx.elsewhere) {
    ctx.addUnknown('the config file `git config` changes (a repository not known before it runs)', 'write');
    return;
  }
  const local = `${ctx.repositoryRoot}/.git/${words.has('--worktree') ? 'config.worktree' : 'config'}`;
  ctx.add({ text: local, value: local, literal: true }, 'write');
}
