import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import { foldPath } from './_fold_path.ts';

/** Shell and git start-up files in the home directory: a write there runs code in later shells. */
export const PROTECTED_HOME_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.gitconfig',
];

/**
 * System-wide shell, login and git start-up files and folders (and `ld.so.preload`, loaded into
 * every program): a write there runs code in every later shell, login, git command or program, as
 * the home directory's own start-up files do for one user. Writing them needs root, which an agent
 * in a container often has.
 */
export const PROTECTED_SYSTEM_PATHS: readonly string[] = [
  '/etc/profile',
  '/etc/profile.d',
  '/etc/bash.bashrc',
  '/etc/bashrc',
  '/etc/bash_completion.d',
  '/etc/environment',
  '/etc/zsh',
  '/etc/zshenv',
  '/etc/zprofile',
  '/etc/zshrc',
  '/etc/zlogin',
  '/etc/gitconfig',
  '/etc/ld.so.preload',
];

/** Directories whose contents configure permissions, hooks or MCP servers, at any depth. */
const CONFIG_DIRS = ['.toolshed', '.claude'];
/**
 * Inside `.git/`, what git itself writes (objects); everything else there (config, hooks, refs —
 * a branch moved under the user's feet) is protected, and so is `objects/info/` (`alternates`
 * borrows objects from any repository).
 */
const GIT_DATA = ['objects'];
/** Files that run code in the project when a tool the user allowed runs (`npm test`, direnv, VS Code tasks). */
const PROJECT_EXEC_FILES: Readonly<Record<string, string>> = {
  '.envrc': 'a direnv start-up file (run on entering the folder)',
  'package.json': 'package scripts (run by an allowed `npm test` or `npm run`)',
};
/** Files that configure a program to fetch or run what they say, wherever they are (Claude Code protects them too). */
const CONFIG_FILES: Readonly<Record<string, string>> = {
  '.gitmodules': 'git submodule configuration (where an allowed `git submodule update` fetches from)',
  '.gitconfig': 'a git configuration file (a repository may include it: `include.path = ../.gitconfig`)',
  '.ripgreprc': 'a ripgrep configuration (its `--pre` runs a command on every file an allowed `rg` searches)',
  '.claude.json': "Claude Code's own configuration (its MCP servers run as programs)",
};
/** IDE folders whose files run code (run configurations, tasks), at any depth. */
const IDE_DIRS = ['.idea'];
/**
 * husky's folder of git hooks, at any depth: git runs them through `core.hooksPath` (set by
 * `husky` on install; its `.husky/_` wrappers run the scripts in `.husky/` itself).
 */
const HOOK_DIRS = ['.husky'];
// protectedPath looks only at segments that start with a dot: a name without one would never match.
for (const dir of [...CONFIG_DIRS, ...IDE_DIRS, ...HOOK_DIRS]) {
  if (!dir.startsWith('.')) throw new Error(`protected folder name ${dir} must start with a dot (see protectedPath)`);
}
/** Files inside a `.vscode` folder that run code. */
const VSCODE_EXEC_FILES = ['tasks.json', 'launch.json', 'settings.json'];
const VSCODE_DIR = '.vscode';
const GIT_DIR = '.git';
/** Below the home directory: folders whose files let others in or configure git everywhere. */
export const PROTECTED_HOME_DIRS: readonly { dir: string; what: string }[] = [
  { dir: '.ssh', what: 'SSH keys and authorized_keys' },
  { dir: '.config/git', what: 'the global git configuration' },
];

/** The names {@linkcode protectedPath} protects, for a layer that must keep the same ones (the Bash sandbox). */
export interface ProtectedNameTable {
  /** Folders protected whole, at any depth (`.toolshed`, `.claude`, `.husky`, `.idea`). */
  dirs: readonly string[];
  /** Files protected at any depth (`.mcp.json`, `.gitconfig`, …). */
  files: readonly string[];
  /** Files protected at any depth outside `node_modules` (`.envrc`, `package.json`). */
  projectFiles: readonly string[];
  /** A folder only some of whose files are protected (`.vscode`: `tasks.json`, `launch.json`, `settings.json`). */
  partial: readonly { dir: string; files: readonly string[] }[];
  /** The git folder's name: everything in it is protected but {@linkcode ProtectedNameTable.gitData}. */
  gitDir: string;
  /** Inside the git folder, what git itself writes (`objects`), but its `info/` (`alternates`). */
  gitData: readonly string[];
  /** Files directly in the home directory ({@linkcode PROTECTED_HOME_FILES}). */
  homeFiles: readonly string[];
  /** Folders below the home directory, relative to it ({@linkcode PROTECTED_HOME_DIRS}). */
  homeDirs: readonly string[];
  /** System start-up files and folders ({@linkcode PROTECTED_SYSTEM_PATHS}). */
  systemPaths: readonly string[];
}

/**
 * Every name {@linkcode protectedPath} protects, grouped by where it counts: one source for the
 * permission layer and the Bash sandbox, so that a sandboxed command approved without asking
 * cannot write what a Write or Edit would ask about.
 *
 * @example
 * ```ts
 * import { PROTECTED_NAME_TABLE } from '@toolshed/core/internal';
 *
 * PROTECTED_NAME_TABLE.projectFiles.includes('package.json'); // true
 * PROTECTED_NAME_TABLE.homeDirs.includes('.ssh'); // true
 * ```
 */
export const PROTECTED_NAME_TABLE: ProtectedNameTable = {
  dirs: [...CONFIG_DIRS, ...HOOK_DIRS, ...IDE_DIRS],
  files: ['.mcp.json', ...Object.keys(CONFIG_FILES)],
  projectFiles: Object.keys(PROJECT_EXEC_FILES),
  partial: [{ dir: VSCODE_DIR, files: VSCODE_EXEC_FILES }],
  gitDir: GIT_DIR,
  gitData: GIT_DATA,
  homeFiles: PROTECTED_HOME_FILES,
  homeDirs: PROTECTED_HOME_DIRS.map((d) => d.dir),
  systemPaths: PROTECTED_SYSTEM_PATHS,
};

/** Why a path is protected, and the name an allow rule must mention to unprotect it. */
export interface ProtectedPath {
  /** The protected name as written in the path (`.git`, `.claude`, `.bashrc`, …). */
  name: string;
  /** What it is, for the decision's reason. */
  what: string;
}

/**
 * Whether writing a path would change the agent's own permissions, hooks, MCP servers, git
 * internals or shell start-up: `.toolshed/` and `.claude/` (at any depth), `.mcp.json`, `.git/`
 * except `objects/` (but `objects/info/alternates` is protected), `.envrc`, `package.json`
 * (outside `node_modules`), `.vscode/tasks.json`, `launch.json` and `settings.json`, `.idea/`
 * (at any depth), `.husky/` (git hooks, at any depth), `.gitmodules`, `.gitconfig`, `.ripgreprc`, `.claude.json`,
 * `~/.bashrc`, `~/.zshrc`, `~/.profile`, `~/.gitconfig` and their kin, everything in
 * `~/.ssh/` and `~/.config/git/`, and the system's start-up files ({@linkcode PROTECTED_SYSTEM_PATHS}:
 * `/etc/profile`, `/etc/profile.d/`, `/etc/gitconfig`…, also under macOS's `/private/etc`). Such
 * writes always ask, in every mode, unless an allow rule names the path.
 *
 * @param path An absolute, resolved path.
 * @param options `homeDir` (default os.homedir()) and `caseInsensitive` (default false).
 * @returns What protects the path, or undefined.
 *
 * @example
 * ```ts
 * import { protectedPath } from '@toolshed/core/internal';
 *
 * protectedPath('/p/.git/hooks/pre-commit'); // { name: '.git', what: 'git internals (hooks, config)' }
 * protectedPath('/p/.git/objects/ab/cdef');  // undefined
 * protectedPath('/p/package.json');          // { name: 'package.json', what: 'package scripts (…)' }
 * protectedPath('/p/src/a.ts');              // undefined
 * protectedPath('/etc/profile.d/x.sh');      // { name: 'profile.d', what: 'a system-wide start-up file (…)' }
 * ```
 */
export function protectedPath(
  path: string,
  options: { homeDir?: string | undefined; caseInsensitive?: boolean | undefined } = {},
): ProtectedPath | undefined {
  const fold = (text: string) => foldPath(text, options.caseInsensitive);
  // Every protected folder name starts with a dot (which folding keeps): only such segments are
  // looked at, found without splitting the path, as a folder walk asks about thousands of paths.
  let at = path.startsWith('.') ? 0 : path.indexOf('/.');
  while (at !== -1) {
    const start = path[at] === '/' ? at + 1 : at;
    const end = path.indexOf('/', start);
    const raw = path.slice(start, end === -1 ? undefined : end);
    at = end === -1 ? -1 : path.indexOf('/.', end);
    const segment = fold(raw);
    if (CONFIG_DIRS.includes(segment)) return { name: raw, what: 'permission and hook configuration' };
    if (HOOK_DIRS.includes(segment)) return { name: raw, what: 'git hooks (run by git commit or push)' };
    if (IDE_DIRS.includes(segment)) return { name: raw, what: 'JetBrains IDE settings (run configurations run code)' };
    if (segment === GIT_DIR) {
      const [next, after] =
        end === -1
          ? []
          : path
              .slice(end + 1)
              .split('/')
              .filter((s) => s !== '');
      if (next !== undefined && GIT_DATA.includes(fold(next)) && fold(after ?? '') !== 'info') continue;
      return { name: raw, what: 'git internals (config, hooks)' };
    }
  }
  // The last segment and the folder above it, sliced (a trailing `/` aside, which basename handles).
  const slash = path.lastIndexOf('/');
  const trailing = slash === path.length - 1 && path.length > 1;
  const name = trailing ? basename(path) : path.slice(slash + 1);
  const parent = trailing ? dirname(path) : slash <= 0 ? (slash === 0 ? '/' : '.') : path.slice(0, slash);
  const foldedName = fold(name);
  if (foldedName === '.mcp.json') return { name, what: 'MCP server configuration' };
  // Own keys only: a file named `constructor` or `toString` is no configuration.
  const config = Object.hasOwn(CONFIG_FILES, foldedName) ? CONFIG_FILES[foldedName] : undefined;
  if (config !== undefined) return { name, what: config };
  const exec = Object.hasOwn(PROJECT_EXEC_FILES, foldedName) ? PROJECT_EXEC_FILES[foldedName] : undefined;
  if (exec !== undefined && !parent.split('/').some((s) => fold(s) === 'node_modules')) return { name, what: exec };
  if (VSCODE_EXEC_FILES.includes(foldedName) && fold(basename(parent)) === VSCODE_DIR)
    return { name, what: 'VS Code tasks and settings (which run code)' };
  const home = options.homeDir ?? homedir();
  const folded = fold(path);
  const foldedHome = fold(home);
  // The home directory's own protected places, looked at only for a path below it.
  if (atOrBelow(folded, foldedHome)) {
    for (const { dir, what } of PROTECTED_HOME_DIRS) {
      if (atOrBelow(folded, fold(`${home === '/' ? '' : home}/${dir}`))) return { name: dir.split('/').pop()!, what };
    }
    if (fold(parent) === foldedHome && PROTECTED_HOME_FILES.includes(foldedName)) {
      return { name, what: 'a shell or git start-up file' };
    }
  }
  return systemStartUp(folded, fold);
}

/** The system start-up file or folder `path` (folded) is or lies in, if any; `/private/etc` is macOS's `/etc`. */
function systemStartUp(path: string, fold: (text: string) => string): ProtectedPath | undefined {
  const etc = path.startsWith('/private/etc/') ? path.slice('/private'.length) : path;
  // Each system path is below /etc.
  if (!etc.startsWith('/etc/')) return undefined;
  for (const system of PROTECTED_SYSTEM_PATHS) {
    const folded = fold(system);
    if (atOrBelow(etc, folded)) {
      return { name: basename(system), what: 'a system-wide start-up file (run by every later shell, login or git)' };
    }
  }
  return undefined;
}

/**
 * Whether `path` is `dir` or below it, compared as they are (no folding), without making a string:
 * a folder walk asks about thousands of paths.
 *
 * @param path An absolute path.
 * @param dir An absolute folder, without a trailing `/` (but `/` itself).
 * @returns True at or below the folder.
 *
 * @example
 * ```ts
 * import { atOrBelow } from './protected_paths.ts';
 *
 * atOrBelow('/home/u/.ssh/id', '/home/u/.ssh'); // true
 * atOrBelow('/home/u/.sshx', '/home/u/.ssh'); // false
 * ```
 */
export function atOrBelow(path: string, dir: string): boolean {
  if (!path.startsWith(dir)) return false;
  return path.length === dir.length || dir.endsWith('/') || path.charCodeAt(dir.length) === 47;
}
