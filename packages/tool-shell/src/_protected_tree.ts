import { type BigIntStats, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { isPathInside, PROTECTED_NAME_TABLE, readRegularFileSync } from '@toolshed/core/internal';

const TABLE = PROTECTED_NAME_TABLE;

/**
 * The files core protects that a package manager rewrites (`npm install x` adds to
 * `package.json`): not read-only, but checked after the command, their other fields put back
 * (see `_package_json_guard.ts`).
 */
export const CHECKED_NAMES: readonly string[] = ['package.json'];
for (const name of CHECKED_NAMES) {
  if (!TABLE.projectFiles.includes(name))
    throw new Error(`${name} is checked after commands but core does not protect it`);
}

/**
 * Names kept read-only wherever they are in a writable directory (node_modules aside): what core's
 * permission layer protects at any depth (`PROTECTED_NAME_TABLE`: agent settings, husky's hooks,
 * IDE folders, `.mcp.json`, `.gitconfig`, `.envrc`…) but {@linkcode CHECKED_NAMES}, and the whole of
 * each folder only some of whose files core protects (`.vscode`: an editor reads more of it).
 *
 * @example
 * ```ts
 * import { PROTECTED_NAMES } from './_protected_tree.ts';
 *
 * PROTECTED_NAMES.includes('.vscode'); // true
 * ```
 */
export const PROTECTED_NAMES: readonly string[] = [
  ...TABLE.dirs,
  ...TABLE.files,
  ...TABLE.projectFiles.filter((name) => !CHECKED_NAMES.includes(name)),
  ...TABLE.partial.map((p) => p.dir),
];

/**
 * The home directory's shell and git start-up files (core's `PROTECTED_HOME_FILES`), kept when the
 * home is (or is in) a writable directory.
 *
 * @example
 * ```ts
 * import { PROTECTED_HOME_NAMES } from './_protected_tree.ts';
 *
 * PROTECTED_HOME_NAMES.includes('.bashrc'); // true
 * ```
 */
export const PROTECTED_HOME_NAMES: readonly string[] = TABLE.homeFiles;

// visit looks up only names that start with a dot: a protected name without one would never match.
for (const name of [...PROTECTED_NAMES, ...PROTECTED_HOME_NAMES, TABLE.gitDir]) {
  if (!name.startsWith('.')) throw new Error(`protected name ${name} must start with a dot (see visit)`);
}

/** What git runs or reads as configuration in a git folder: everything else there is git's data. */
const GIT_DIR_ENTRIES: Readonly<Record<string, ProtectedKind>> = {
  hooks: 'git-hooks',
  config: 'git-config',
  'config.worktree': 'git-config',
  commondir: 'git-commondir',
};

/**
 * Inside a git folder's data (core leaves `objects` to git), the file core protects all the same:
 * `objects/info/alternates` lends the repository another's objects. The rest of `objects/info`
 * (`packs`, `commit-graph`) git's own maintenance rewrites.
 */
const GIT_ALTERNATES = 'objects/info/alternates';

/** Folders of `.git/modules` (submodules of submodules) and `.git/worktrees` followed at most. */
const MAX_GIT_DEPTH = 8;

/** Why an entry is protected, which decides what may be left when a command made it. */
export type ProtectedKind =
  | 'name'
  | 'package-json'
  | 'git-hooks'
  | 'git-config'
  | 'git-commondir'
  | 'git-alternates'
  | 'gitfile';

/** One protected entry that exists. */
export interface ProtectedEntry {
  /** Absolute path. */
  path: string;
  kind: ProtectedKind;
  /**
   * `dev:ino:type:birth time` of what is there (and of where it leads, for a link): an entry swapped
   * for another under the same name, or a link that leads elsewhere now, is a new one.
   */
  id: string;
  /** A `package.json`'s text when the snapshot was taken (undefined when it could not be read as a file). */
  text?: string | undefined;
  /** A `package.json` that is a link: what it leads to is a file no check keeps, so a change is never judged inert. */
  link?: boolean;
}

/** The protected entries of some writable directories at one moment. */
export interface ProtectedSnapshot {
  /** The writable directories looked at. */
  writable: readonly string[];
  /** The home directory, whose shell start-up files count when it is writable. */
  home: string | undefined;
  /** The protected entries that exist, by path. */
  entries: Map<string, ProtectedEntry>;
  /** The git folders: every `.git` folder, what git would take for one (`HEAD` with `objects` and `refs`, or `commondir`), and those under `.git/modules` and `.git/worktrees`. */
  gitDirs: Set<string>;
}

interface Listing {
  ctimeMs: number;
  ino: number;
  /** What git would take for a git folder (see {@linkcode looksLikeGitDir}), found once per reading. */
  gitLike: boolean;
  /** Changed so shortly before it was read that a change right after could keep the same (coarse) ctime. */
  fresh: boolean;
  entries: { name: string; dir: boolean }[];
}

/** The last listing of each folder, reused while its ctime and inode are the same (no one can set a ctime). */
const listings = new Map<string, Listing>();
const MAX_LISTINGS = 500_000;
/** A folder changed less than this before it was read is read again next time (timestamps are coarse). */
const FRESH_MS = 1000;
/** Folders read (`readdir`) so far in this process, for tests that count the walk's steps. */
let reads = 0;

/**
 * How many folders the protected-entry walks have read (not just looked at) in this process.
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { protectedTreeReads } from './_protected_tree.ts';
 *
 * const before = protectedTreeReads();
 * // … a snapshot of a tree seen before, unchanged …
 * protectedTreeReads() - before; // 0
 * ```
 */
export function protectedTreeReads(): number {
  return reads;
}

/**
 * The protected entries of the writable directories, at any depth: {@linkcode PROTECTED_NAMES},
 * the home's {@linkcode PROTECTED_HOME_NAMES}, every `.git` file, and the hooks, config,
 * `config.worktree` and `commondir` of every git folder (nested clones, submodules under
 * `.git/modules`, linked worktrees under `.git/worktrees`, bare repositories). `node_modules` is not
 * walked (nothing there is opened as a project, and `npm ci` must be able to remove it). Each folder's
 * listing is kept and reused while the folder's ctime is the same, so a second snapshot of an
 * unchanged tree costs one `lstat` per folder.
 *
 * @param writable Absolute, normal directories.
 * @param options `home`: the home directory.
 * @returns The snapshot.
 *
 * @example
 * ```ts
 * import { protectedSnapshot } from './_protected_tree.ts';
 *
 * protectedSnapshot(['/p'], { home: '/home/u' }).entries.has('/p/vendor/lib/.git/config'); // true for a nested clone
 * ```
 */
export function protectedSnapshot(writable: readonly string[], options: { home?: string } = {}): ProtectedSnapshot {
  const snapshot: ProtectedSnapshot = {
    writable,
    home: options.home,
    entries: new Map(),
    gitDirs: new Set(),
  };
  const roots = outermost(writable);
  // No limit: a walk that stopped short would leave what lies past it writable, and a command
  // could make thousands of files to push a repository out of sight.
  for (const dir of roots) visit(dir, { snapshot });
  followLinks(snapshot, roots);
  for (const kept of keptPaths(snapshot)) add(kept, 'name', snapshot);
  if (listings.size > MAX_LISTINGS) listings.clear();
  return snapshot;
}

/**
 * The writable directories that lie in no other one, each once: where the walks start.
 *
 * @param dirs Absolute, normal directories (`/` among them, or one with a trailing `/`).
 * @returns Those not inside another.
 *
 * @example
 * ```ts
 * import { outermost } from './_protected_tree.ts';
 *
 * outermost(['/a/b', '/a', '/a/bc', '/x']); // ['/a', '/x']
 * ```
 */
export function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((d) => !unique.some((o) => o !== d && isPathInside(d, o)));
}

/**
 * Whether a path is one of the writable directories or lies below one.
 *
 * @param file An absolute, normal path.
 * @param writable Absolute, normal directories.
 * @returns True when a command in the sandbox can write there.
 *
 * @example
 * ```ts
 * import { inWritable } from './_protected_tree.ts';
 *
 * inWritable('/p/a', ['/p']); // true
 * inWritable('/pa', ['/p']); // false
 * inWritable('/etc/profile', ['/']); // true
 * ```
 */
export function inWritable(file: string, writable: readonly string[]): boolean {
  return writable.some((dir) => isPathInside(file, dir));
}

/**
 * What core protects by its full path that lies in the writable directories: the home's `.ssh`
 * and `.config/git` when the home is writable, and the system's start-up files when `/etc` is.
 * Each is kept read-only where it exists, and moved out when a command makes it.
 *
 * @param snapshot The writable directories and the home.
 * @returns Absolute paths, whether they exist or not.
 *
 * @example
 * ```ts
 * import { keptPaths } from './_protected_tree.ts';
 *
 * keptPaths({ writable: ['/home/u'], home: '/home/u' }); // ['/home/u/.ssh', '/home/u/.config/git']
 * ```
 */
export function keptPaths(snapshot: Pick<ProtectedSnapshot, 'writable' | 'home'>): string[] {
  const { home, writable } = snapshot;
  const homeDirs = home === undefined ? [] : TABLE.homeDirs.map((dir) => path.join(home, dir));
  return [...homeDirs, ...TABLE.systemPaths].filter((kept) => inWritable(kept, writable));
}

interface Walk {
  snapshot: ProtectedSnapshot;
}

/**
 * The git folders that `.git` files and `commondir` files lead to, inside the writable
 * directories, kept as git folders wherever they are (in `node_modules`, deep in `.git/modules`).
 */
function followLinks(snapshot: ProtectedSnapshot, roots: readonly string[]): void {
  // No cap: each git folder is visited once (see gitDirs below), so this ends; a cap let a command
  // leave enough .git files that one leading into node_modules was never followed.
  // A Map's iterator also visits the entries added while it runs: those the visits below find.
  for (const entry of snapshot.entries.values()) {
    if (entry.kind !== 'gitfile' && entry.kind !== 'git-commondir') continue;
    const target = linkTarget(entry);
    if (target === undefined) continue;
    if (snapshot.gitDirs.has(target) || !inWritable(target, roots)) continue;
    visitGitDir(target, { snapshot }, 0);
  }
}

/**
 * The git folder a `.git` file (`gitdir: …`) or a `commondir` names, or where a `.git` link to a
 * folder leads; undefined when it names none.
 *
 * @param entry A `gitfile` or `git-commondir` entry.
 * @returns The absolute path.
 *
 * @example
 * ```ts
 * import { linkTarget } from './_protected_tree.ts';
 *
 * linkTarget({ path: '/p/lib/.git', kind: 'gitfile', id: '' }); // '/p/.git/modules/lib' for `gitdir: ../.git/modules/lib`
 * ```
 */
export function linkTarget(entry: ProtectedEntry): string | undefined {
  if (statQuiet(entry.path)?.isDirectory()) {
    try {
      return realpathSync(entry.path);
    } catch {
      return undefined;
    }
  }
  const text = readRegularText(entry.path)?.trim();
  if (text === undefined) return undefined;
  const named = entry.kind === 'gitfile' ? /^gitdir: (.+)$/.exec(text)?.[1] : text;
  return named === undefined || named === '' ? undefined : path.resolve(path.dirname(entry.path), named);
}

/** What {@linkcode readRegularText} reads at most: a git config or `.git` file is far smaller. */
const MAX_TEXT_BYTES = 1024 * 1024;

/**
 * The text of a regular file of at most 1 MB (a link to one followed), opened without waiting for a
 * writer; undefined for anything else. A command can plant a FIFO as a `.git` file or a new
 * repository's config: read plainly, it froze the whole process until some writer came.
 *
 * @param file The path.
 * @returns The text, or undefined for a FIFO, a device, a folder, a bigger or unreadable file.
 *
 * @example
 * ```ts
 * import { readRegularText } from './_protected_tree.ts';
 *
 * readRegularText('/p/lib/.git'); // 'gitdir: ../.git/modules/lib\n', or undefined for a FIFO
 * ```
 */
export function readRegularText(file: string): string | undefined {
  return readRegularFileSync(file, { maxBytes: MAX_TEXT_BYTES })?.toString('utf8');
}

/** A folder of the project: its protected entries, and the folders below it. */
function visit(dir: string, walk: Walk): void {
  const listing = listingOf(dir);
  if (listing === undefined) return;
  if (looksLikeGitDir(listing)) addGitDir(dir, listing, walk.snapshot);
  const home = walk.snapshot.home !== undefined && dir === walk.snapshot.home;
  for (const { name, dir: isDir } of listing.entries) {
    if (!isDir && CHECKED_NAMES.includes(name)) {
      add(join(dir, name), 'package-json', walk.snapshot);
      continue;
    }
    // Every other protected name starts with a dot: most entries are passed over without a lookup.
    if (name.startsWith('.')) {
      if (PROTECTED_NAMES.includes(name) || (home && PROTECTED_HOME_NAMES.includes(name))) {
        add(join(dir, name), 'name', walk.snapshot);
        continue;
      }
      if (name === TABLE.gitDir) {
        if (isDir) visitGitDir(join(dir, name), walk, 0);
        else add(join(dir, name), 'gitfile', walk.snapshot);
        continue;
      }
    }
    if (isDir && name !== 'node_modules') visit(join(dir, name), walk);
  }
}

/** A git folder: what it runs, and the git folders of its submodules and linked worktrees. */
function visitGitDir(dir: string, walk: Walk, depth: number): void {
  const listing = listingOf(dir);
  if (listing === undefined) return;
  addGitDir(dir, listing, walk.snapshot);
  for (const { name, dir: isDir } of listing.entries) {
    if (isDir && (name === 'modules' || name === 'worktrees')) visitGitFolders(join(dir, name), walk, depth + 1);
  }
}

/** Below `.git/modules` or `.git/worktrees`: git folders, or folders of them (a submodule named `a/b`). */
function visitGitFolders(dir: string, walk: Walk, depth: number): void {
  if (depth > MAX_GIT_DEPTH) return;
  const listing = listingOf(dir);
  if (listing === undefined) return;
  for (const { name, dir: isDir } of listing.entries) {
    if (!isDir) continue;
    const full = join(dir, name);
    const inner = listingOf(full);
    if (inner !== undefined && looksLikeGitDir(inner)) visitGitDir(full, walk, depth);
    else visitGitFolders(full, walk, depth + 1);
  }
}

/** git's own test of a git folder: `HEAD`, and `objects` and `refs` or a `commondir` naming where they are. */
function looksLikeGitDir(listing: Listing): boolean {
  return listing.gitLike;
}

function addGitDir(dir: string, listing: Listing, snapshot: ProtectedSnapshot): void {
  snapshot.gitDirs.add(dir);
  for (const { name } of listing.entries) {
    const kind = Object.hasOwn(GIT_DIR_ENTRIES, name) ? GIT_DIR_ENTRIES[name] : undefined;
    if (kind !== undefined) add(join(dir, name), kind, snapshot);
  }
  add(join(dir, GIT_ALTERNATES), 'git-alternates', snapshot);
}

function add(full: string, kind: ProtectedKind, snapshot: ProtectedSnapshot): void {
  const st = lstatQuiet(full, true);
  if (st === undefined) return;
  // Inode numbers are reused at once (`rm .vscode && mkdir .vscode`): the type and birth time tell them apart.
  let id = `${st.dev}:${st.ino}:${st.mode & 0o170000n}:${st.birthtimeNs}`;
  // A link is as safe as what it leads to, which a command can change without touching the link: by
  // renaming a folder above it, or by writing through a link to nowhere.
  const to = st.isSymbolicLink() ? statQuiet(full) : undefined;
  if (st.isSymbolicLink()) id += to === undefined ? '->nothing' : `->${to.dev}:${to.ino}:${to.birthtimeNs}`;
  if (kind !== 'package-json') {
    snapshot.entries.set(full, { path: full, kind, id });
    return;
  }
  // A package.json is rewritten in place (`npm install x`): its content is what is compared.
  id += `:${st.ctimeNs}:${st.mtimeNs}:${st.size}`;
  // Through a link, the file written is the target: its times say when.
  if (to !== undefined) id += `:${to.ctimeNs}:${to.mtimeNs}:${to.size}`;
  const last = texts.get(full);
  const text = last?.id === id ? last.text : readRegularText(full);
  texts.set(full, { id, text });
  if (texts.size > MAX_LISTINGS) texts.clear();
  snapshot.entries.set(full, { path: full, kind, id, text, ...(st.isSymbolicLink() ? { link: true } : {}) });
}

/** The text of each package.json read, reused while its id (times and size included) is the same. */
const texts = new Map<string, { id: string; text: string | undefined }>();

/** The folder's entries, read again only when its ctime or inode changed. */
function listingOf(dir: string): Listing | undefined {
  const st = lstatQuiet(dir, false);
  if (st === undefined || !st.isDirectory()) {
    listings.delete(dir);
    return undefined;
  }
  const last = listings.get(dir);
  if (last !== undefined && !last.fresh && last.ctimeMs === st.ctimeMs && last.ino === st.ino) return last;
  let entries: { name: string; dir: boolean }[];
  try {
    reads++;
    entries = readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return undefined;
  }
  const fresh = Date.now() - st.ctimeMs < FRESH_MS;
  const names = new Set(entries.map((e) => e.name));
  const gitLike = names.has('HEAD') && (names.has('commondir') || (names.has('objects') && names.has('refs')));
  const listing = { ctimeMs: st.ctimeMs, ino: st.ino, gitLike, fresh, entries };
  listings.set(dir, listing);
  return listing;
}

/**
 * `lstat`, undefined for what cannot be looked at: gone, or past PATH_MAX (ENAMETOOLONG), which a
 * command reaches by `cd`-ing down folder by folder. Thrown, that ended the check after the command
 * and left all it planted; no one opens such a path by name later either.
 */
function lstatQuiet(file: string, big: true): BigIntStats | undefined;
function lstatQuiet(file: string, big: false): Stats | undefined;
function lstatQuiet(file: string, big: boolean): Stats | BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: big, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function statQuiet(file: string): BigIntStats | undefined {
  try {
    return statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}${path.sep}${name}`;
}
