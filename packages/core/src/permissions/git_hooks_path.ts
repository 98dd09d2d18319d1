import { existsSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { readRegularFileSync } from '../read_regular_file.ts';

/** What the config files of one set of working directories said, and which files they were. */
interface Found extends GitConfiguredPaths {
  key: string;
  /** Each file read (or looked for) and its modification time then (-1: missing). */
  files: { path: string; mtimeMs: number }[];
}

/** The last readings, by working directories (the oldest dropped past {@linkcode MAX_KEPT}). */
const kept = new Map<string, Found>();
const MAX_KEPT = 64;

/** Config files and `.git` entries looked at (`stat`) so far in this process: see {@linkcode gitConfigLooks}. */
let looks = 0;

/**
 * How many config files and `.git` entries the readings of git's config have looked at in this
 * process (each `stat`, to read one or to see that a kept reading still holds). A test reads it
 * around a decision to see that a folder walk's thousands of paths cost a few looks, not thousands.
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { gitConfigLooks } from './git_hooks_path.ts';
 *
 * const before = gitConfigLooks();
 * // … a decision …
 * gitConfigLooks() - before; // the files it looked at
 * ```
 */
export function gitConfigLooks(): number {
  return looks;
}

/** Includes followed at most, one inside another (git's own limit). */
export const MAX_INCLUDE_DEPTH = 10;

/** What git's config makes git run or read, for some working directories: see {@linkcode gitConfiguredPaths}. */
export interface GitConfiguredPaths {
  /** The hooks folders (`core.hooksPath`), absolute and normal, and where each leads. */
  hooks: string[];
  /** The config files beyond `.git/config` (included, or where the environment puts them), and where each leads. */
  configs: string[];
}

/**
 * What the git config of the repositories the working directories are in makes git run or read,
 * as the config files say now:
 * - `hooks`: the folders git runs hooks from instead of `.git/hooks` (`core.hooksPath`). A script
 *   there runs on an allowed `git commit` or `git push`, as one in `.git/hooks` does. A relative
 *   path is taken from the top of the working tree, `~/` from the home directory.
 * - `configs`: the files that config includes (`[include] path`, `[includeIf …] path`, whatever
 *   the condition) and the system and user config files where the environment puts them
 *   (`GIT_CONFIG_GLOBAL`, `GIT_CONFIG_SYSTEM`, `XDG_CONFIG_HOME`): git configuration as much as
 *   `.git/config` is (a hooks path, `core.fsmonitor`, aliases that run commands).
 *
 * Read are the repository's `config` (and a worktree's `config.worktree`), `~/.gitconfig`,
 * `~/.config/git/config`, `/etc/gitconfig` and what they include, the most local value winning,
 * as git reads them. Kept while none of those files changed (one `stat` each per call).
 *
 * @param workingDirectories Absolute, normal paths.
 * @param home What `~` stands for.
 * @returns The hooks folders and config files.
 *
 * @example
 * ```ts
 * import { gitConfiguredPaths } from '@toolshed/core/internal';
 *
 * gitConfiguredPaths(['/p'], '/home/u').hooks; // ['/p/.githooks'] when /p/.git/config says hooksPath = .githooks
 * ```
 */
export function gitConfiguredPaths(workingDirectories: readonly string[], home: string): GitConfiguredPaths {
  return scan(workingDirectories, home);
}

/**
 * {@linkcode gitConfiguredPaths} of the repository a folder is in, for one check that asks about
 * many paths (a folder walk): each folder's repository found once (one `stat` of its `.git`), each
 * repository's config read once.
 *
 * @param home What `~` stands for.
 * @returns The lookup: the repository's paths, or undefined outside any repository.
 *
 * @example
 * ```ts
 * import { gitPathsByFolder } from './git_hooks_path.ts';
 *
 * const pathsOf = gitPathsByFolder('/home/u');
 * pathsOf('/p/vendor/lib/src')?.hooks; // ['/p/vendor/lib/own-hooks'] for a nested repository that names it
 * ```
 */
export function gitPathsByFolder(home: string): (dir: string) => GitConfiguredPaths | undefined {
  const tops = new Map<string, string | undefined>();
  const topOf = (dir: string): string | undefined => {
    if (tops.has(dir)) return tops.get(dir);
    looks++;
    const top = existsSync(dotGitOf(dir)) ? dir : dir === '/' || dir === '.' ? undefined : topOf(dirname(dir));
    tops.set(dir, top);
    return top;
  };
  const byTop = new Map<string, GitConfiguredPaths>();
  return (dir) => {
    const top = topOf(dir);
    if (top === undefined) return undefined;
    let paths = byTop.get(top);
    if (paths === undefined) {
      paths = scan([top], home);
      byTop.set(top, paths);
    }
    return paths;
  };
}

/** A folder's `.git` entry. */
function dotGitOf(dir: string): string {
  return `${dir === '/' ? '' : dir}/.git`;
}

/** Whether a setting is `core.hooksPath` (not of a `[core "x"]` subsection). */
function isHooksPath(setting: Setting): boolean {
  return setting.section === 'core' && !setting.subsection && setting.key === 'hookspath';
}

/** Reads what {@linkcode gitConfiguredPaths} says, or reuses the last reading. */
function scan(workingDirectories: readonly string[], home: string): Found {
  const env = process.env;
  const moved = [
    env['GIT_CONFIG_GLOBAL'],
    env['GIT_CONFIG_SYSTEM'],
    env['GIT_CONFIG_NOSYSTEM'],
    env['XDG_CONFIG_HOME'],
  ];
  const key = `${home}\0${moved.join('\0')}\0${workingDirectories.join('\0')}`;
  const last = kept.get(key);
  if (last !== undefined && last.files.every((f) => mtimeOf(f.path) === f.mtimeMs)) return last;
  const files: Found['files'] = [];
  // Every file looked at is watched: one made, changed or removed later finds the folders again.
  const look = (path: string): Stats | undefined => {
    let stats: Stats | undefined;
    looks++;
    try {
      stats = statSync(path);
    } catch {
      stats = undefined;
    }
    files.push({ path, mtimeMs: stats?.mtimeMs ?? -1 });
    return stats;
  };
  const read = (path: string): string | undefined => {
    if (look(path) === undefined) return undefined;
    // A config or `.git` file that is a FIFO or a device is not read (it would hang the check).
    return readRegularFileSync(path)?.toString('utf8');
  };
  const includes = new Set<string>();
  /** The hooks path `file` (and what it includes) sets last, or `before`. */
  const hooksPathOf = (file: string, before: string | undefined, depth = 0): string | undefined => {
    let value = before;
    for (const setting of settingsOf(read(file) ?? '')) {
      if (isHooksPath(setting)) value = setting.value || undefined;
      const include = setting.section === 'include' || setting.section === 'includeif';
      if (include && setting.key === 'path' && setting.value !== '' && depth < MAX_INCLUDE_DEPTH) {
        const included = expand(setting.value, dirname(file), home);
        includes.add(included);
        value = hooksPathOf(included, value, depth + 1);
      }
    }
    return value;
  };
  let global: string | undefined;
  // The files an environment variable moves are git config the agent's commands read.
  for (const file of globalConfigFiles(home)) {
    includes.add(file);
    global = hooksPathOf(file, global);
  }
  const dirs = new Set<string>();
  const seen = new Set<string>();
  for (const dir of workingDirectories) {
    const repo = repositoryOf(dir, look, read);
    if (repo === undefined) {
      if (global !== undefined) dirs.add(expand(global, dir, home));
      continue;
    }
    if (seen.has(repo.top)) continue;
    seen.add(repo.top);
    let value = global;
    for (const file of repo.configs) value = hooksPathOf(file, value);
    if (value !== undefined) dirs.add(expand(value, repo.top, home));
  }
  const found = { key, files, hooks: withTargets(dirs), configs: withTargets(includes) };
  kept.delete(key);
  kept.set(key, found);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return found;
}

/**
 * The system and user config files git reads, in order, where the environment says they are:
 * `GIT_CONFIG_SYSTEM` (else `/etc/gitconfig`, none with `GIT_CONFIG_NOSYSTEM`), then
 * `$XDG_CONFIG_HOME/git/config` (else `~/.config/git/config`) and `~/.gitconfig`, both replaced by
 * `GIT_CONFIG_GLOBAL`.
 */
function globalConfigFiles(home: string): string[] {
  const env = process.env;
  const base = home === '/' ? '' : home;
  const files: string[] = [];
  const noSystem = env['GIT_CONFIG_NOSYSTEM'];
  if (noSystem === undefined || ['', '0', 'false', 'no', 'off'].includes(noSystem.toLowerCase())) {
    files.push(env['GIT_CONFIG_SYSTEM'] || '/etc/gitconfig');
  }
  const global = env['GIT_CONFIG_GLOBAL'];
  if (global) files.push(resolve(global));
  else files.push(`${env['XDG_CONFIG_HOME'] || `${base}/.config`}/git/config`, `${base}/.gitconfig`);
  return files;
}

/** The paths and where each leads, when it exists: the paths judged are physical. */
function withTargets(paths: Set<string>): string[] {
  const all = new Set(paths);
  for (const path of paths) {
    try {
      all.add(realpathSync.native(path));
    } catch {
      // Not made yet: judged as written.
    }
  }
  return [...all];
}

/** The repository `dir` is in: the top of its working tree and its config files, least local first. */
function repositoryOf(
  dir: string,
  look: (path: string) => Stats | undefined,
  read: (path: string) => string | undefined,
): { top: string; gitDir: string; configs: string[] } | undefined {
  for (let top = dir; ; top = dirname(top)) {
    const dotGit = dotGitOf(top);
    const stats = look(dotGit);
    if (stats === undefined) {
      if (top === '/') return undefined;
      continue;
    }
    if (stats.isDirectory()) return { top, gitDir: dotGit, configs: [`${dotGit}/config`, `${dotGit}/config.worktree`] };
    // A worktree's `.git` file: `gitdir: …`, whose `commondir` leads to the shared config.
    const gitdir = /^gitdir: (.+)$/m.exec(read(dotGit) ?? '')?.[1]?.trim();
    if (gitdir === undefined) return undefined;
    const own = resolve(top, gitdir);
    const common = read(`${own}/commondir`)?.trim();
    const shared = common === undefined ? own : resolve(own, common);
    return { top, gitDir: own, configs: [`${shared}/config`, `${own}/config.worktree`] };
  }
}

/**
 * The repository a folder is in: the top of its work tree and its git folder (for a linked
 * worktree or a submodule, where its `.git` file leads), and the work tree its config names as
 * `core.worktree` when it does (resolved from the git folder, as git reads it): git then writes
 * files there, not below `top` (a submodule names its own folder).
 *
 * @param dir An absolute folder.
 * @returns The top, the git folder and `core.worktree`, or undefined outside any repository.
 *
 * @example
 * ```ts
 * import { gitRepositoryOf } from '@toolshed/core/internal';
 *
 * gitRepositoryOf('/repo/src'); // { top: '/repo', gitDir: '/repo/.git' }
 * gitRepositoryOf('/moved'); // { top: '/moved', gitDir: '/moved/.git', worktree: '/moved/.vscode' } for core.worktree = ../.vscode
 * ```
 */
export function gitRepositoryOf(dir: string): { top: string; gitDir: string; worktree?: string } | undefined {
  const read = (path: string) => readRegularFileSync(path)?.toString('utf8');
  const found = repositoryOf(
    dir,
    (path) => {
      looks++;
      return statOrUndefined(path);
    },
    read,
  );
  if (found === undefined) return undefined;
  let worktree: string | undefined;
  for (const config of found.configs) {
    const text = read(config);
    if (text === undefined || !/worktree/i.test(text)) continue;
    for (const s of settingsOf(text)) {
      if (s.section === 'core' && !s.subsection && s.key === 'worktree') worktree = resolve(found.gitDir, s.value);
    }
  }
  return worktree === undefined
    ? { top: found.top, gitDir: found.gitDir }
    : { top: found.top, gitDir: found.gitDir, worktree };
}

/**
 * The stats of a path (links followed), or undefined when it cannot be looked at.
 *
 * @param path The path.
 * @returns Its stats, or undefined.
 *
 * @example
 * ```ts
 * import { statOrUndefined } from './git_hooks_path.ts';
 *
 * statOrUndefined('/repo/.git')?.isDirectory(); // true
 * ```
 */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `core.hooksPath` in a git config file's text, the last one set; undefined when not set (or set empty).
 *
 * @param text The config file's text (undefined: no file).
 * @returns The value, quotes and escapes undone.
 *
 * @example
 * ```ts
 * import { hooksPathIn } from './git_hooks_path.ts';
 *
 * hooksPathIn('[core]\n\thooksPath = .husky/_\n'); // '.husky/_'
 * ```
 */
export function hooksPathIn(text: string | undefined): string | undefined {
  let value: string | undefined;
  for (const setting of settingsOf(text ?? '')) {
    if (isHooksPath(setting)) value = setting.value || undefined;
  }
  return value;
}

/** A line of a git config file that sets something: its section and key in lower case, and the value. */
export interface GitConfigSetting {
  /** The section's name (`core`, `include`, `includeif`; `diff.x` for the old `[diff.x]` form). */
  section: string;
  /** It was a subsection (`[core "x"]`): not the section's own settings. */
  subsection: boolean;
  /** The subsection's name, quotes and escapes undone (`x` of `[diff "x"]`), when there is one. */
  name?: string;
  key: string;
  value: string;
}
type Setting = GitConfigSetting;

/**
 * The settings of a git config file's text, in order; a value ending in `\` goes on on the next line.
 *
 * @param text The file's text.
 * @param unread Where the lines read as neither a setting, a section, a comment nor blank are put
 *   (git refuses such a file; a reader that must not miss a setting takes the file as unreadable).
 * @returns The settings.
 *
 * @example
 * ```ts
 * import { gitConfigSettings } from '@toolshed/core/internal';
 *
 * gitConfigSettings('[diff "x"]\n\tcommand = ./x.sh\n');
 * // [{ section: 'diff', subsection: true, name: 'x', key: 'command', value: './x.sh' }]
 * ```
 */
export function gitConfigSettings(text: string, unread?: string[]): GitConfigSetting[] {
  return settingsOf(text, unread);
}

function settingsOf(text: string, unread?: string[]): Setting[] {
  const settings: Setting[] = [];
  let section = '';
  let subsection = false;
  let name: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/.exec(line);
    if (header !== null) {
      section = header[1]!.toLowerCase();
      subsection = header[2] !== undefined;
      name = subsection ? header[2]!.trim().slice(1, -1).replace(/\\(.)/g, '$1') : undefined;
      line = header[3]!;
    }
    const setting = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (setting === null) {
      if (unread !== undefined && line !== '' && !/^[#;]/.test(line)) unread.push(lines[i]!);
      continue;
    }
    let raw = setting[2] ?? '';
    let read = valueOf(raw);
    while (read.continues && i + 1 < lines.length) {
      raw = raw.slice(0, -1) + lines[++i]!.replace(/\r$/, '');
      read = valueOf(raw);
    }
    const key = setting[1]!.toLowerCase();
    settings.push(
      name === undefined
        ? { section, subsection, key, value: read.value }
        : { section, subsection, name, key, value: read.value },
    );
  }
  return settings;
}

/** Escapes git's config values know (any other makes the file invalid, and git refuse it). */
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', b: '\b', '\\': '\\', '"': '"' };

/**
 * A value as git reads it: white space at either end dropped unless quoted, quotes and escapes
 * undone, a comment cut; `continues` when it ends in a backslash (the value goes on on the next line).
 */
function valueOf(text: string): { value: string; continues: boolean } {
  let out = '';
  // Unquoted white space, kept only if more follows.
  let pending = '';
  let quoted = false;
  const add = (c: string) => {
    out += pending + c;
    pending = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\') {
      if (i + 1 === text.length) return { value: out, continues: true };
      const next = text[++i]!;
      add(ESCAPES[next] ?? next);
    } else if (!quoted && (c === '#' || c === ';')) break;
    else if (!quoted && /\s/.test(c)) {
      if (out !== '') pending += c;
    } else add(c);
  }
  return { value: out, continues: false };
}

/** A hooks path as git takes it: `~/` from home, relative from the top of the working tree. */
/**
 * A path git reads from its config (an include, a hooks path) as git takes it: `~/` from the home
 * folder, a relative one from `from` (the including file's folder, or the work tree's top).
 *
 * @param value The path as written.
 * @param where `from`: the folder a relative path is taken from; `home`: the home folder.
 * @returns The absolute path.
 *
 * @example
 * ```ts
 * import { expandGitPath } from './git_hooks_path.ts';
 *
 * expandGitPath('~/shared.cfg', { from: '/repo/.git', home: '/home/u' }); // '/home/u/shared.cfg'
 * ```
 */
export function expandGitPath(value: string, { from, home }: { from: string; home: string }): string {
  return expand(value, from, home);
}

function expand(value: string, top: string, home: string): string {
  if (value === '~' || value.startsWith('~/')) return resolve(home, value.slice(2));
  return isAbsolute(value) ? resolve(value) : resolve(top, value);
}

/** The file's modification time, -1 when it is missing. */
function mtimeOf(path: string): number {
  looks++;
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}
