import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import { foldPath } from './_fold_path.ts';
import { type GitConfiguredPaths, gitConfiguredPaths, gitPathsByFolder } from './git_hooks_path.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import {
  atOrBelow,
  PROTECTED_HOME_DIRS,
  PROTECTED_HOME_FILES,
  protectedPath,
  type ProtectedPath,
} from './protected_paths.ts';
import { physicalRootOf, pinnedPhysicalRoot, rootCacheEpoch } from './real_path_cache.ts';

/**
 * Why a path is protected, or undefined; `folder`, the folder whose repository the path is in when
 * not its parent (a copy's landing below a folder that does not exist yet: the first that does, so
 * that the folders it will make are not looked up one by one).
 */
export type ProtectedWriteCheck = (path: string, folder?: string) => ProtectedPath | undefined;

/** Options of {@linkcode protectedWriteCheck}. */
export interface ProtectedWriteCheckOptions {
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /** Compare without regard to case. @default false */
  caseInsensitive?: boolean | undefined;
  /** The working directories as given (their top-level protected entries may be links). @default [] */
  workingDirectories?: readonly string[] | undefined;
}

/** The protected entries at the top of a working directory that are often links to elsewhere. */
const PROJECT_ENTRIES = ['.toolshed', '.claude', '.git', '.vscode', '.idea', '.mcp.json', '.envrc', 'package.json'];

/** A protected place that is a link: where it leads, and the path it stands for there. */
interface Alias {
  /** The physical path it leads to (folded). */
  target: string;
  /** The path as the protection rules know it (`~/.ssh`, `/p/.claude`). */
  lexical: string;
}

/**
 * {@linkcode protectedPath}, made for one check, that also knows where protected places that are
 * links lead: dotfile managers keep `~/.ssh`, `~/.bashrc` or the home directory itself elsewhere
 * (`~/.ssh -> ~/dotfiles/ssh`), and a project may keep `.claude`, `.git` or `.vscode` elsewhere
 * (`.claude -> config/claude`); a write to that place is a write to them, and is judged as the
 * same path through the link would be (`config/claude/settings.json` as `.claude/settings.json`,
 * `repo.git/objects/…` as `.git/objects/…`). Each link is resolved through the root cache, as it
 * leads now and as first resolved, once per check; a path is then a few string compares. The
 * protection's `name` is a segment of the path written (`ssh`, `claude`): an allow rule that names
 * it unprotects it. Links at other depths are judged by the names on their own way only. The
 * folders git's config names as `core.hooksPath` for the working directories' repositories and the
 * repository of the path written ({@linkcode gitConfiguredPaths}: `.githooks`, `.husky/_`) are
 * protected as `.git/hooks` is, the files that config includes as `.git/config` is.
 *
 * @param options The home directory, case folding and the working directories.
 * @returns The check: why a path is protected, or undefined.
 *
 * @example
 * ```ts
 * import { protectedWriteCheck } from './_protected_writes.ts';
 *
 * const isProtected = protectedWriteCheck({ homeDir: '/home/u', workingDirectories: ['/p'] });
 * isProtected('/home/u/dotfiles/ssh/authorized_keys'); // { name: 'ssh', … } when ~/.ssh -> ~/dotfiles/ssh
 * isProtected('/p/config/claude/settings.json'); // { name: 'claude', … } when /p/.claude -> config/claude
 * ```
 */
export function protectedWriteCheck(options: ProtectedWriteCheckOptions = {}): ProtectedWriteCheck {
  const home = options.homeDir ?? homedir();
  const nocase = options.caseInsensitive === true;
  const fold = (text: string) => foldPath(text, nocase);
  const aliases = aliasesOf(home, nocase, options.workingDirectories ?? []);
  const ownPaths = gitConfiguredPaths(options.workingDirectories ?? [], home);
  const ownGit = gitKept(ownPaths, fold);
  const check = { homeDir: home, caseInsensitive: nocase };
  // A folder walk asks about thousands of paths: each folder's repository is found once.
  const pathsOf = gitPathsByFolder(home);
  // The working directories' own repository, most often (a reading is reused as the same object): looked at already.
  const keptOf = new Map<GitConfiguredPaths, GitKept>([[ownPaths, ownGit]]);
  return (path, folder) => {
    const own = protectedPath(path, check);
    if (own !== undefined) return own;
    const folded = fold(path);
    const git = gitProtection(path, folded, ownGit);
    if (git !== undefined) return git;
    // The repository the path is in, when it is another (a nested one, a submodule): its own hooks and config.
    const near = pathsOf(folder ?? dirname(path));
    if (near !== undefined) {
      let kept = keptOf.get(near);
      if (kept === undefined) keptOf.set(near, (kept = gitKept(near, fold)));
      const nested = kept === ownGit ? undefined : gitProtection(path, folded, kept);
      if (nested !== undefined) return nested;
    }
    for (const { target, lexical } of aliases) {
      if (!atOrBelow(folded, target)) continue;
      const protection = protectedPath(`${lexical}${path.slice(target.length)}`, check);
      if (protection === undefined) continue;
      // Named as the path written names it: the protected name where it has it, else the target's own.
      const segments = path.split('/');
      const name = segments.includes(protection.name) ? protection.name : basename(path.slice(0, target.length));
      return { name, what: `${protection.what}, as ${lexical} leads here` };
    }
    return undefined;
  };
}

/** A repository's hooks folders and the config files its git reads (folded), and both together. */
interface GitKept {
  hooks: readonly string[];
  includes: readonly string[];
  all: readonly string[];
}

/** The paths of {@linkcode gitConfiguredPaths}, folded for comparing. */
function gitKept(paths: GitConfiguredPaths, fold: (text: string) => string): GitKept {
  const hooks = paths.hooks.map(fold);
  const includes = paths.configs.map(fold);
  return { hooks, includes, all: [...hooks, ...includes] };
}

/**
 * Why `path` is protected as git's: a config file git reads, in a hooks folder, or a folder above
 * either (moved, linked or replaced, it puts other hooks or config in their place).
 */
function gitProtection(path: string, folded: string, { hooks, includes, all }: GitKept): ProtectedPath | undefined {
  if (includes.includes(folded)) {
    return {
      name: basename(path),
      what: "git configuration (read by the repository's git: included, or where the environment puts it)",
    };
  }
  for (const dir of hooks) {
    if (atOrBelow(folded, dir)) {
      return {
        name: basename(path.slice(0, dir.length)),
        what: 'git hooks (core.hooksPath: run by git commit, merge or push)',
      };
    }
  }
  if (all.length === 0 || folded === '/') return undefined;
  const below = all.find((kept) => kept.startsWith(folded) && kept[folded.length] === '/');
  if (below !== undefined) return { name: basename(path), what: `a folder that holds git hooks or config (${below})` };
  return undefined;
}

/** The aliases last found, and what they hold for: kept while the root cache's epoch stands. */
let lastAliases: { key: string; epoch: number; aliases: Alias[] } | undefined;

/**
 * The protected places that are links, for one home, case folding and list of working
 * directories: found again only when the root cache's epoch moved (a link on a watched way
 * changed), so a write decision costs a map probe, not some forty root lookups.
 */
function aliasesOf(home: string, nocase: boolean, workingDirectories: readonly string[]): Alias[] {
  const key = `${nocase ? 'i' : 's'}\0${home}\0${workingDirectories.join('\0')}`;
  const epoch = rootCacheEpoch();
  if (lastAliases !== undefined && lastAliases.key === key && lastAliases.epoch === epoch) return lastAliases.aliases;
  const aliases: Alias[] = [];
  const add = (lexical: string) => {
    for (const target of physicalForms(lexical, home)) aliases.push({ target: foldPath(target, nocase), lexical });
  };
  add(home);
  for (const { dir } of PROTECTED_HOME_DIRS) add(`${home}/${dir}`);
  for (const name of PROTECTED_HOME_FILES) add(`${home}/${name}`);
  for (const dir of workingDirectories) {
    if (isNormalAbsolute(dir)) for (const entry of PROJECT_ENTRIES) add(`${dir === '/' ? '' : dir}/${entry}`);
  }
  // The epoch after the lookups: one that moved while they ran is not taken as theirs.
  lastAliases = { key, epoch: rootCacheEpoch(), aliases };
  return aliases;
}

/**
 * Where a path leads now and where it led when first resolved, other than the path itself: the
 * places a write to it lands (for the home directory, a folder write there reaches it).
 *
 * @param lexical The path, absolute and normal.
 * @param home What `~` stands for.
 * @returns Up to two physical paths.
 *
 * @example
 * ```ts
 * import { physicalForms } from './_protected_writes.ts';
 *
 * physicalForms('/home/u', '/home/u'); // ['/data/home/u'] when /home -> /data/home
 * ```
 */
export function physicalForms(lexical: string, home: string): string[] {
  const forms: string[] = [];
  for (const form of [physicalRootOf(lexical, home), pinnedPhysicalRoot(lexical, home)])
    if (form !== lexical && !forms.includes(form)) forms.push(form);
  return forms;
}
