import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readRegularFileSync } from '../read_regular_file.ts';
import {
  expandGitPath,
  gitConfigSettings,
  type GitConfigSetting,
  gitRepositoryOf,
  MAX_INCLUDE_DEPTH,
  statOrUndefined,
} from './git_hooks_path.ts';
import { readGitIndex } from './git_index.ts';

/** A setting in a repository's config that makes git run a program. */
export interface GitProgramSetting {
  /** The repository's git folder (for a linked worktree, the shared one). */
  repository: string;
  /** The config file that sets it (the repository's, or one it includes). */
  file: string;
  /** The key as git names it (`core.fsmonitor`, `diff.x.command`). */
  key: string;
  value: string;
}

/** What {@linkcode gitProgramSettings} found. */
export interface GitProgramSettings {
  /** The settings that run a program, in the repositories git may use from the folder. */
  found: GitProgramSetting[];
  /** Config files that exist but could not be read as git reads them (each: the file and why). */
  unreadable: string[];
}

/** Options of {@linkcode gitProgramSettings}. */
export interface GitProgramSettingsOptions {
  /**
   * The working directories: the repositories they are in are the user's own (their config is
   * not looked at, and the walk stops there). @default []
   */
  workingDirectories?: readonly string[] | undefined;
  /** What `~` stands for in an include. @default process.env.HOME */
  home?: string | undefined;
  /**
   * Whether git may take a folder for a bare repository it was not pointed at with `--git-dir`:
   * false where git runs with `safe.bareRepository=explicit` given on its command line or in
   * `GIT_CONFIG_*` (a repository cannot lift it). @default true
   */
  bare?: boolean | undefined;
  /**
   * The git folder the command names (`git --git-dir=DIR`): git takes it, without looking for one
   * from the folder. @default undefined
   */
  gitDir?: string | undefined;
}

/** Config files read at most for one folder (includes included). */
const MAX_FILES = 256;

/**
 * Keys (section, key; `*` for a subsection's name) whose value git runs as a program — on a
 * `git status` (`core.fsmonitor`, `filter.*.clean`/`process`), a `git diff` or `git log -p`
 * (`diff.external`, `diff.*.command`/`textconv`), `git log --show-signature` (`gpg.program`), a
 * pager, a fetch (`core.sshCommand`, `credential.helper`, `remote.*.uploadpack`) and the like.
 */
const PROGRAM_KEYS: readonly string[] = [
  'core.fsmonitor',
  'core.pager',
  'core.editor',
  'core.askpass',
  'core.sshcommand',
  'core.gitproxy',
  'core.alternaterefscommand',
  'diff.external',
  'diff.*.command',
  'diff.*.textconv',
  'filter.*.clean',
  'filter.*.smudge',
  'filter.*.process',
  'merge.*.driver',
  'gpg.program',
  'gpg.*.program',
  'gpg.*.defaultkeycommand',
  'pager.*',
  'pager.*.*',
  'credential.helper',
  'credential.*.helper',
  'remote.*.uploadpack',
  'remote.*.receivepack',
  'remote.*.proxycommand',
  'sequence.editor',
  'interactive.difffilter',
  'difftool.*.cmd',
  'mergetool.*.cmd',
  'submodule.*.update',
  'man.*.cmd',
  'browser.*.cmd',
  'web.browser',
];

/** Values that turn `core.fsmonitor` off (git's false); an empty value turns any of them off. */
const FALSE = new Set(['', 'false', 'no', 'off', '0']);

/**
 * The settings that make git run a program in the repositories git may use when it runs in
 * `folder` and that are not the user's own (a nested clone, a `.git` file leading into the
 * project, a git folder unpacked from an archive): each repository found from the folder up, as
 * git looks (a `.git` folder or `gitdir:` file, a bare repository), up to the first one git surely
 * takes or one of the working directories' own; its `config`, `config.worktree` and what they
 * include (any `include.path`, any `includeIf`, whatever the condition); then the repositories of
 * the submodules the index of the repository git takes lists (git runs in each one's work tree to
 * see whether it changed), and theirs in turn.
 *
 * @param folder The absolute folder git runs in (`-C`, `cd`).
 * @param options The working directories, and what `~` stands for.
 * @returns The settings found, and the files that could not be read.
 *
 * @example
 * ```ts
 * import { gitProgramSettings } from '@toolshed/core/internal';
 *
 * gitProgramSettings('/p/vendor/lib', { workingDirectories: ['/p'] }).found;
 * // [{ repository: '/p/vendor/lib/.git', file: '/p/vendor/lib/.git/config', key: 'core.fsmonitor', value: './x.sh' }]
 * ```
 */
export function gitProgramSettings(folder: string, options: GitProgramSettingsOptions = {}): GitProgramSettings {
  const home = options.home ?? process.env['HOME'] ?? '/';
  const own = new Set<string>();
  for (const dir of options.workingDirectories ?? []) {
    const repo = gitRepositoryOf(dir);
    if (repo !== undefined) own.add(physical(commonDirOf(repo.gitDir)));
  }
  const state: Walk = { home, own, out: { found: [], unreadable: [] }, budget: MAX_FILES };
  if (options.gitDir !== undefined) {
    if (!lookAt({ gitDir: options.gitDir }, state)) submodulesOf(folder, options.gitDir, state, 0);
    return state.out;
  }
  for (let dir = folder; ; dir = dirname(dir)) {
    for (const candidate of candidatesAt(dir, options.bare ?? true)) {
      const taken = lookAt(candidate, state);
      // The repository git takes: the submodules it tracks are looked into as well.
      if (taken || candidate.surely) {
        submodulesOf(dir, candidate.gitDir, state, 0);
        return state.out;
      }
    }
    if (dir === '/' || dir === '.') return state.out;
  }
}

/** What one walk carries: the own repositories, what was found, the config files still allowed. */
interface Walk {
  home: string;
  own: ReadonlySet<string>;
  out: GitProgramSettings;
  budget: number;
}

/** Submodules inside submodules looked into at most (`git status` goes down each level). */
const MAX_SUBMODULE_DEPTH = 4;

/**
 * Reads a candidate's config files into the walk, unless it is one of the own repositories;
 * true when it is one (git surely takes it: the walk ends there).
 */
function lookAt(candidate: { gitDir: string }, state: Walk): boolean {
  const common = commonDirOf(candidate.gitDir);
  if (state.own.has(physical(common))) return true;
  for (const file of [`${common}/config`, `${candidate.gitDir}/config.worktree`]) {
    state.budget = readConfig(file, {
      repository: common,
      home: state.home,
      out: state.out,
      budget: state.budget,
      depth: 0,
    });
  }
  return false;
}

/**
 * Looks into the repositories of the submodules (gitlinks) the index of `gitDir` lists, below
 * `top`: `git status` and `git diff` run git in each one's work tree that holds a repository.
 */
function submodulesOf(top: string, gitDir: string, state: Walk, depth: number): void {
  if (statOrUndefined(`${gitDir}/index`) === undefined) return;
  const index = readGitIndex(`${gitDir}/index`);
  if (index === undefined) {
    state.out.unreadable.push(`${gitDir}/index (an index the guard cannot read, so its submodules are not known)`);
    return;
  }
  for (const link of index.gitlinks) {
    const dir = resolve(top, link);
    for (const candidate of candidatesAt(dir, false)) {
      if (depth >= MAX_SUBMODULE_DEPTH || state.budget <= 0) {
        state.out.unreadable.push(`${dir} (more submodules than the guard looks into)`);
        return;
      }
      if (!lookAt(candidate, state)) submodulesOf(dir, candidate.gitDir, state, depth + 1);
    }
  }
}

/** The git folders git may take at `dir`: its `.git` (a folder, or where a `gitdir:` file leads), then `dir` as a bare repository. */
function candidatesAt(dir: string, bare: boolean): { gitDir: string; surely: boolean }[] {
  const base = dir === '/' ? '' : dir;
  const found: { gitDir: string; surely: boolean }[] = [];
  const dotGit = `${base}/.git`;
  const stats = statOrUndefined(dotGit);
  if (stats?.isDirectory()) found.push({ gitDir: dotGit, surely: isGitFolder(dotGit) });
  else if (stats?.isFile()) {
    const target = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
    // git stops at a `.git` file it cannot follow (an error): no repository past it.
    if (target === undefined) return [{ gitDir: dotGit, surely: true }];
    const gitDir = resolve(dir, target);
    found.push({ gitDir, surely: isGitFolder(gitDir) });
  }
  if (bare && statOrUndefined(`${base}/HEAD`)?.isFile() && statOrUndefined(`${base}/config`)?.isFile())
    found.push({ gitDir: dir, surely: isGitFolder(dir) });
  return found;
}

/** Whether git surely takes the folder for a git folder: `HEAD`, `objects/` and `refs/` there. */
function isGitFolder(gitDir: string): boolean {
  return (
    (statOrUndefined(`${gitDir}/HEAD`)?.isFile() ?? false) &&
    (statOrUndefined(`${gitDir}/objects`)?.isDirectory() ?? false) &&
    (statOrUndefined(`${gitDir}/refs`)?.isDirectory() ?? false)
  );
}

/** Where a git folder's `commondir` leads (a linked worktree's shared folder), else the folder. */
function commonDirOf(gitDir: string): string {
  const common = readText(`${gitDir}/commondir`)?.trim();
  return common === undefined || common === '' ? gitDir : resolve(gitDir, common);
}

/** Reads one config file and what it includes into `out`; the files still allowed after it. */
function readConfig(
  file: string,
  state: { repository: string; home: string; out: GitProgramSettings; budget: number; depth: number },
): number {
  const { repository, home, out, depth } = state;
  let budget = state.budget;
  const stats = statOrUndefined(file);
  // git passes over a config (or an include) that does not exist.
  if (stats === undefined) return budget;
  if (budget <= 0 || depth > MAX_INCLUDE_DEPTH) {
    out.unreadable.push(`${file} (more includes than the guard follows)`);
    return budget;
  }
  budget--;
  const text = readText(file);
  if (text === undefined) {
    out.unreadable.push(`${file} (not a regular file the guard can read)`);
    return budget;
  }
  const unread: string[] = [];
  for (const setting of gitConfigSettings(text, unread)) {
    const key = keyOf(setting);
    if (runsProgram(setting, key)) out.found.push({ repository, file, key, value: setting.value });
    const include = setting.section === 'include' || setting.section === 'includeif';
    if (include && setting.key === 'path' && setting.value !== '') {
      const included = expandGitPath(setting.value, { from: dirname(file), home });
      budget = readConfig(included, { repository, home, out, budget, depth: depth + 1 });
    }
  }
  if (unread.length > 0) out.unreadable.push(`${file} (a line the guard cannot read: \`${unread[0]!.trim()}\`)`);
  return budget;
}

/** The key as git names it: `section.name.key`, the section and key in lower case. */
function keyOf(setting: GitConfigSetting): string {
  return setting.name === undefined
    ? `${setting.section}.${setting.key}`
    : `${setting.section}.${setting.name}.${setting.key}`;
}

/** Whether a setting is one of {@linkcode PROGRAM_KEYS}, with a value that runs something. */
function runsProgram(setting: GitConfigSetting, key: string): boolean {
  const off = FALSE.has(setting.value.trim().toLowerCase());
  if (off && (key === 'core.fsmonitor' || setting.section === 'pager' || setting.value.trim() === '')) return false;
  // `[diff.x]` is the old spelling of `[diff "x"]`: its section holds the name.
  const [section = '', ...inner] = setting.section.split('.');
  const parts = [section, ...(setting.name === undefined ? inner : [setting.name]), setting.key];
  return PROGRAM_KEYS.some((pattern) => {
    const want = pattern.split('.');
    return want.length === parts.length && want.every((w, i) => w === '*' || w === parts[i]);
  });
}

function readText(path: string): string | undefined {
  return readRegularFileSync(path)?.toString('utf8');
}

/** Where a path leads, or the path when it does not exist. */
function physical(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
