import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, relative } from 'node:path';
import type { ToolContext } from '../tool.ts';
import { foldPath } from './_fold_path.ts';
import { isPathInside } from './is_path_inside.ts';
import {
  caseInsensitivePaths,
  type GuardedPath,
  pathRuleApplies,
  pathRuleChecker,
  pathRuleCompiler,
  realWorkingDirectories,
  safeCovers,
} from './path_guard.ts';
import { type CompiledPathRule, pathRuleRoots } from './path_rule.ts';
import { folderRuleCandidates } from './path_rule_index.ts';
import { countRuleVisit } from './_rule_visits.ts';
import type { ProtectedPath } from './protected_paths.ts';
import { physicalForms, type ProtectedWriteCheck, protectedWriteCheck } from './_protected_writes.ts';
import { readGitIndex } from './git_index.ts';
import { gitRepositoryOf } from './git_hooks_path.ts';
import { resolveRealPath } from './resolve_real_path.ts';
import type { PermissionRule } from './types.ts';

/** At most this many entries are looked at below one folder; past it, the folder counts as holding anything. */
export const FOLDER_WALK_LIMIT = 20_000;

/**
 * At most this many paths an index lists below a folder read as git reads it (see
 * {@linkcode walkTracked}): read from memory, not walked, so more than {@linkcode FOLDER_WALK_LIMIT}.
 */
export const TRACKED_PATHS_LIMIT = 200_000;

/** What a bounded walk of a folder found. */
export interface FolderWalk {
  /** Every entry below the folder (files, folders, links), absolute. */
  entries: string[];
  /** The symbolic links among them. */
  links: string[];
  /** More than {@linkcode FOLDER_WALK_LIMIT} entries: the lists are not the whole story. */
  truncated: boolean;
}

type Ctx = Pick<ToolContext, 'cwd' | 'permissions'>;

/**
 * What one permission check walked, by folder, so that its deny, ask and protected checks walk
 * each folder once. Make one per check: the file system changes between calls.
 */
export type FolderWalks = Map<string, FolderWalk>;

/** Options of {@linkcode folderLinks} and {@linkcode protectedUnderFolder}. */
export interface FolderWalkOptions {
  /**
   * The check's folder walks, shared by the checks of one call so that each folder is walked once.
   * @default a new map
   */
  walks?: FolderWalks;
}

/** Options of {@linkcode ruleUnderFolder} and {@linkcode findRuleUnderFolder}. */
export interface RuleUnderFolderOptions extends FolderWalkOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context. */
  ctx: Ctx;
  /**
   * Counts the work of {@linkcode findRuleUnderFolder}: `count` grows by one for each rule it
   * judges against a folder. Rules are looked up by root, so rules about other folders and other
   * tools add nothing to it.
   */
  steps?: { count: number };
}

/**
 * Walks a folder (not following links) to at most {@linkcode FOLDER_WALK_LIMIT} entries; for a
 * work tree (see `GuardedPath.worktree`), without the `.git` folders in it and with the paths the
 * indexes of the repositories it is in hold below it (a file deleted since it was staged, which
 * `git restore` brings back). An index that cannot be read, or a sparse one with a folder there, counts as a
 * walk cut short: the folder may hold anything.
 *
 * @param dir An absolute folder.
 * @param cache The check's folder walks: a folder already walked is not walked again.
 * @param options `worktree`: walk it as a work tree git writes (default false).
 * @returns What the walk found.
 *
 * @example
 * ```ts
 * import { walkFolder } from './folder_access.ts';
 *
 * walkFolder('/p/src', new Map()).entries; // ['/p/src/a.ts', '/p/src/lib', '/p/src/lib/b.ts']
 * ```
 */
export function walkFolder(
  dir: string,
  cache: FolderWalks,
  { worktree = false }: { worktree?: boolean } = {},
): FolderWalk {
  const key = worktree ? `${dir}\0worktree` : dir;
  const known = cache.get(key);
  if (known) return known;
  const walk: FolderWalk = { entries: [], links: [], truncated: false };
  const stack = [dir];
  while (stack.length > 0 && !walk.truncated) {
    const current = stack.pop()!;
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of names) {
      // git refuses a `.git` path component in any case (CVE-2014-9390), so it writes nothing there.
      if (worktree && inGitFolder(entry.name)) continue;
      const full = `${current === '/' ? '' : current}/${entry.name}`;
      walk.entries.push(full);
      if (entry.isSymbolicLink()) walk.links.push(full);
      else if (entry.isDirectory()) stack.push(full);
      if (walk.entries.length > FOLDER_WALK_LIMIT) {
        walk.truncated = true;
        break;
      }
    }
  }
  if (worktree && !walk.truncated) addTracked(dir, walk);
  cache.set(key, walk);
  return walk;
}

/**
 * What git reads of a folder as a work tree (`git diff`, `git grep`; see `ResourceAccess.tracked`):
 * the paths the indexes of the repositories it is in list below it (and the folders above them),
 * and everything inside each submodule below it (walked as {@linkcode walkFolder} walks, since a
 * submodule's files are in its own index, which `--submodule=diff` and `--recurse-submodules`
 * read). Nothing is walked but the submodules: the index says what is there. An index that
 * cannot be read, or past {@linkcode TRACKED_PATHS_LIMIT} paths, cuts it short: the folder may
 * hold anything.
 *
 * @param dir An absolute folder (a repository's top, or a folder in one).
 * @param cache The check's folder walks: a folder already read is not read again.
 * @returns The entries git reads below the folder; `links` is empty (git shows a link's text, not
 *   what it points to).
 *
 * @example
 * ```ts
 * import { walkTracked } from './folder_access.ts';
 *
 * // `.env` is git-ignored and not tracked.
 * walkTracked('/repo', new Map()).entries; // ['/repo/README.md', '/repo/src', '/repo/src/a.ts']
 * ```
 */
export function walkTracked(dir: string, cache: FolderWalks): FolderWalk {
  const key = `${dir}\0tracked`;
  const known = cache.get(key);
  if (known) return known;
  const walk: FolderWalk = { entries: [], links: [], truncated: false };
  const submodules: string[] = [];
  addTracked(dir, walk, { limit: TRACKED_PATHS_LIMIT, submodules });
  for (const submodule of walk.truncated ? [] : submodules) {
    const inside = walkFolder(submodule, cache);
    walk.entries.push(...inside.entries);
    walk.truncated ||= inside.truncated;
  }
  cache.set(key, walk);
  return walk;
}

/**
 * Adds to a work tree's walk the paths its repository's index holds below it. git writes from the
 * index of the repository it runs in, which may be one above the folder's own (a repository nested
 * in it, a `.git` that is not one): the index of every repository the folder is in is read.
 */
function addTracked(dir: string, walk: FolderWalk, options: IndexPathsOptions = {}): void {
  for (let at = dir; ; at = dirname(at)) {
    const repository = exists(`${at === '/' ? '' : at}/.git`) ? gitRepositoryOf(at) : undefined;
    if (repository?.top === at && !addIndexPaths(dir, repository, walk, options)) return;
    if (at === '/') return;
  }
}

/** How {@linkcode addIndexPaths} adds an index's paths. */
interface IndexPathsOptions {
  /** Entries past which the walk is cut short. @default FOLDER_WALK_LIMIT */
  limit?: number;
  /** Receives the absolute paths of the submodules (gitlinks) listed below the folder. */
  submodules?: string[];
}

/**
 * Adds the paths one repository's index holds below `dir`; false when the walk is cut short. The
 * index's paths are relative to the work tree: the repository's folder, or the one its config
 * names as `core.worktree` (`../.vscode`: `git restore .` writes `.vscode/tasks.json`).
 */
function addIndexPaths(
  dir: string,
  repository: { top: string; gitDir: string; worktree?: string },
  walk: FolderWalk,
  { limit = FOLDER_WALK_LIMIT, submodules }: IndexPathsOptions,
): boolean {
  // Another index file than the repository's own (GIT_INDEX_FILE) is not the one read here.
  const index = process.env.GIT_INDEX_FILE ? undefined : readGitIndex(`${repository.gitDir}/index`);
  const base = repository.worktree ?? repository.top;
  const top = base === '/' ? '' : base;
  const under = dir === '/' ? '/' : `${dir}/`;
  if (
    index === undefined ||
    index.sparseFolders.some((f) => `${top}/${f}`.startsWith(under) || under.startsWith(`${top}/${f}`))
  ) {
    walk.truncated = true;
    return false;
  }
  const seen = new Set(walk.entries);
  if (submodules !== undefined) {
    for (const link of index.gitlinks) if (`${top}/${link}`.startsWith(under)) submodules.push(`${top}/${link}`);
  }
  for (const path of index.paths) {
    const full = `${top}/${path}`;
    if (!full.startsWith(under)) continue;
    // The file and the folders above it below `dir`: a folder git makes is written too.
    const parts = full.slice(under.length).split('/');
    for (let i = 1; i <= parts.length; i++) {
      const entry = `${under}${parts.slice(0, i).join('/')}`;
      if (seen.has(entry)) continue;
      seen.add(entry);
      walk.entries.push(entry);
      if (walk.entries.length > limit) {
        walk.truncated = true;
        return false;
      }
    }
  }
  return true;
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether a Read/Edit rule covers some path under a folder: `covers` when it surely does (it
 * covers the folder itself, its own root is an existing path under the folder, or an entry found
 * by walking the folder matches it), `maybe` when that cannot be known (the folder is too large
 * to walk, or a repository's history is read, which may hold what the folder no longer does),
 * `false` when it does not.
 *
 * @param rule The rule.
 * @param folder A guarded path of kind `folder`.
 * @param options The tool called, the call's context and the check's folder walks.
 * @returns `covers`, `maybe` or false.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { parseRule, resolveResources } from '@toolshed/core/internal';
 * import { ruleUnderFolder } from './folder_access.ts';
 * declare const ctx: ToolContext;
 * const rule = parseRule('Read(./secrets/**)', { behavior: 'deny', source: 'session' });
 * const [folder] = resolveResources([{ path: '/p', access: 'read', kind: 'folder' }], ctx);
 *
 * // deny: ['Read(./secrets/**)']; `grep -r key .` declares { path: '/p', kind: 'folder' }
 * ruleUnderFolder(rule, folder!, { toolName: 'Bash', ctx }); // 'covers'
 * ```
 */
export function ruleUnderFolder(
  rule: PermissionRule,
  folder: GuardedPath,
  { toolName, ctx, walks = new Map() }: RuleUnderFolderOptions,
): 'covers' | 'maybe' | false {
  if (!pathRuleApplies(rule, { toolName, access: folder.access }) || rule.ruleContent === undefined) return false;
  const compile = pathRuleCompiler(ctx);
  const compiled = compile(rule);
  if (compiled === undefined) return false;
  const nocase = caseInsensitivePaths(ctx.permissions);
  const fold = (text: string) => foldPath(text, nocase);
  const forms = [folder.lexical, ...folder.real].filter((f, i, all) => all.indexOf(f) === i);
  if (forms.some((f) => safeCovers(compiled, f))) return 'covers';
  // Names and metadata: no file below is opened (as a plain read of the folder lists its entries).
  if (folder.names) return false;
  // Read as git reads a work tree: what its index lists, whatever else lies in the folder.
  if (folder.tracked) return trackedUnderRule(compiled, forms, walks);
  let roots: { dirs: string[]; glob: string; anywhere: boolean };
  try {
    roots = pathRuleRoots(rule.ruleContent, {
      cwd: ctx.cwd,
      homeDir: ctx.permissions.homeDir,
      root: rule.root ?? ctx.cwd,
      caseInsensitive: nocase,
      // Deny and ask rules: below the working directories as pinned and as their links lead now.
      workingDirectories: realWorkingDirectories(ctx.permissions, ctx.cwd, { asLinkedNow: true }),
    });
  } catch {
    return false;
  }
  let reaches = roots.anywhere;
  if (!roots.anywhere) {
    for (const form of forms) {
      for (const dir of roots.dirs) {
        // The rule's own folder or file lies under the folder (not in a `.git` of a work tree).
        if (isPathInside(fold(dir), fold(form))) {
          if (folder.worktree && inGitFolder(relative(form, dir))) continue;
          // (A history is judged by what git tracks, below: an ignored file beside it may never be in it.)
          if (exists(dir) && !folder.history) return 'covers';
          reaches = true;
        } else if (roots.glob !== '' && isPathInside(fold(form), fold(dir))) {
          // The folder lies under the rule's root, and its glob may reach below the folder.
          const depth = relative(dir, form)
            .split('/')
            .filter((s) => s !== '').length;
          if (roots.glob.includes('**') || roots.glob.split('/').length > depth) reaches = true;
        }
      }
    }
  }
  if (!reaches) return false;
  // A history surely holds what git tracks now; anything else it may or may not hold (an ignored
  // `.env` beside it, never committed, or one committed once and removed): that asks.
  if (folder.history) return trackedUnderRule(compiled, forms, walks) === 'covers' ? 'covers' : 'maybe';
  let truncated = false;
  for (const form of forms) {
    // A work tree's path that is no folder now may be one the index holds (git makes it).
    if (!folder.worktree && !isFolder(form)) continue;
    const walk = walkFolder(form, walks, { worktree: folder.worktree === true });
    if (walk.entries.some((entry) => safeCovers(compiled, entry))) return 'covers';
    truncated ||= walk.truncated;
  }
  return truncated ? 'maybe' : false;
}

/** Whether a rule covers a path git reads below a folder read as a work tree (see {@linkcode walkTracked}). */
function trackedUnderRule(
  compiled: CompiledPathRule,
  forms: readonly string[],
  walks: FolderWalks,
): 'covers' | 'maybe' | false {
  let truncated = false;
  for (const form of forms) {
    const walk = walkTracked(form, walks);
    if (walk.entries.some((entry) => safeCovers(compiled, entry))) return 'covers';
    truncated ||= walk.truncated;
  }
  return truncated ? 'maybe' : false;
}

/** Whether a relative path goes through a folder named `.git` (in any case, as git refuses it). */
function inGitFolder(rel: string): boolean {
  return rel.split('/').some((part) => part.toLowerCase() === '.git');
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first rule of a list that covers (or may cover) a path under one of the call's folder
 * entries (see {@linkcode ruleUnderFolder}); a rule that surely covers one comes first.
 *
 * @param rules A rule list (deny or ask).
 * @param paths The guarded paths; only those of kind `folder` are looked at.
 * @param options The tool called, the call's context and the check's folder walks.
 * @returns The rule, the folder, and whether the rule surely covers a path under it.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import type { GuardedPath } from '@toolshed/core/internal';
 * import { findRuleUnderFolder } from './folder_access.ts';
 * declare const ctx: ToolContext;
 * declare const paths: GuardedPath[];
 *
 * findRuleUnderFolder(ctx.permissions.rules.deny, paths, { toolName: 'Bash', ctx })?.rule.raw; // 'Read(./secrets/**)'
 * ```
 */
export function findRuleUnderFolder(
  rules: readonly PermissionRule[],
  paths: readonly GuardedPath[],
  options: RuleUnderFolderOptions,
): { rule: PermissionRule; path: GuardedPath; surely: boolean } | undefined {
  if (rules.length === 0 || !paths.some((p) => p.kind === 'folder')) return undefined;
  // One walk map for every rule and folder of the check.
  const shared = options.walks === undefined ? { ...options, walks: new Map() } : options;
  const { bases } = pathRuleChecker(options.ctx);
  let maybe: { rule: PermissionRule; path: GuardedPath; surely: boolean } | undefined;
  for (const path of paths) {
    if (path.kind !== 'folder') continue;
    // Only rules rooted at the folder, above or below it, and bare names, can cover a path
    // under it (ruleUnderFolder says false of every other): looked up by root, in list order.
    const forms = [path.lexical, ...path.real];
    for (const i of folderRuleCandidates(rules, forms, { toolName: options.toolName, access: path.access, bases })) {
      const rule = rules[i]!;
      countRuleVisit();
      if (options.steps) options.steps.count++;
      const verdict = ruleUnderFolder(rule, path, shared);
      if (verdict === 'covers') return { rule, path, surely: true };
      if (verdict === 'maybe') maybe ??= { rule, path, surely: false };
    }
  }
  return maybe;
}

/**
 * The symbolic links found below the call's folder entries, as guarded paths of the same access:
 * a recursive reader that follows links (or a reader of what one names) may leave the folder
 * through them, so the guard checks where each one leads like any declared path.
 *
 * @param paths The guarded paths.
 * @param ctx The call's context.
 * @param options The check's folder walks.
 * @returns One guarded path per link (lexical: the link; real: its target).
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import type { GuardedPath } from '@toolshed/core/internal';
 * import { folderLinks } from './folder_access.ts';
 * declare const ctx: ToolContext;
 * declare const paths: GuardedPath[];
 *
 * folderLinks(paths, ctx); // [{ declared: '/p/out', real: ['/etc'], … }] for /p/out -> /etc
 * ```
 */
export function folderLinks(
  paths: readonly GuardedPath[],
  ctx: Ctx,
  { walks = new Map() }: FolderWalkOptions = {},
): GuardedPath[] {
  const out: GuardedPath[] = [];
  if (!paths.some((p) => p.kind === 'folder')) return out;
  const homeDir = ctx.permissions.homeDir ?? homedir();
  for (const path of paths) {
    // git reads a tracked link as the text of its target, never through it.
    if (path.kind !== 'folder' || path.tracked) continue;
    for (const form of path.real) {
      if (!isFolder(form)) continue;
      for (const link of walkFolder(form, walks, { worktree: path.worktree === true }).links) {
        let real: string;
        try {
          real = resolveRealPath(link, { cwd: ctx.cwd, homeDir });
        } catch {
          real = link;
        }
        out.push({ access: path.access, declared: link, lexical: link, real: [real], device: false, harmless: false });
      }
    }
  }
  return out;
}

/**
 * The first folder write that may touch a protected path: the folder is protected itself, lies
 * above a protected start-up file of the home directory, holds a protected entry, or is too large
 * to walk; or the first write whose `from` folder (see `ResourceAccess.from`) holds an entry that
 * is protected where it lands, or is too large to walk.
 *
 * @param paths The guarded paths; only writes of kind `folder` are looked at.
 * @param ctx The call's context.
 * @param options The check's folder walks.
 * @returns The folder and the protection, or undefined.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import type { GuardedPath } from '@toolshed/core/internal';
 * import { protectedUnderFolder } from './folder_access.ts';
 * declare const ctx: ToolContext;
 * declare const paths: GuardedPath[];
 *
 * protectedUnderFolder(paths, ctx); // `rm -r .` in a repository: { protection: { name: '.git', … } }
 * ```
 */
export function protectedUnderFolder(
  paths: readonly GuardedPath[],
  ctx: Ctx,
  { walks = new Map() }: FolderWalkOptions = {},
): { path: GuardedPath; protection: ProtectedPath } | undefined {
  if (!paths.some((p) => p.access === 'write' && (p.kind === 'folder' || p.from !== undefined))) return undefined;
  const home = ctx.permissions.homeDir ?? homedir();
  // Also where the home directory and its protected entries lead, when they are links (dotfiles).
  const isProtected = protectedWriteCheck({
    homeDir: home,
    caseInsensitive: caseInsensitivePaths(ctx.permissions),
    workingDirectories: ctx.permissions.workingDirectories,
  });
  const homes = [home, ...physicalForms(home, home)];
  for (const path of paths) {
    if (path.access !== 'write') continue;
    const landing = path.from === undefined ? undefined : protectedLanding(path, isProtected, walks);
    if (landing) return { path, protection: landing };
    if (path.kind !== 'folder') continue;
    for (const form of [path.lexical, ...path.real]) {
      const folder = isFolder(form);
      // A work tree's path that is no folder now (a file, or nothing) stands for what the index
      // holds below it, which git makes a folder of; the path itself is checked as any write is.
      if (folder || !path.worktree) {
        const own = isProtected(form) ?? isProtected(`${form}/.`);
        if (own) return { path, protection: own };
        if (homes.some((h) => isPathInside(h, form)))
          return { path, protection: { name: home, what: 'the home directory and its start-up files' } };
      }
      if (!folder && !path.worktree) continue;
      const walk = walkFolder(form, walks, { worktree: path.worktree === true });
      if (walk.truncated)
        return {
          path,
          protection: {
            name: form,
            what: `a folder too large to check (over ${FOLDER_WALK_LIMIT} entries) for protected files`,
          },
        };
      for (const entry of walk.entries) {
        const protection = isProtected(entry);
        if (protection) return { path, protection };
      }
    }
  }
  return undefined;
}

/**
 * The first protected path among the places the entries of a landing's folders land (see
 * {@linkcode visitLanding}); a source too large to walk counts as protected.
 */
function protectedLanding(
  path: GuardedPath,
  isProtected: ProtectedWriteCheck,
  walks: FolderWalks,
): ProtectedPath | undefined {
  // Where the landing is no folder yet, neither are those below it: their repository is the one
  // the landing is in, looked up once rather than for every folder the copy makes.
  const within = landingForms(path).map((form) => (isFolder(form) ? undefined : form));
  const found = visitLanding(path, {
    walks,
    visit: (at, entry, form) => {
      const protection = isProtected(at, within[form]);
      return protection && { ...protection, what: `${protection.what}, at ${at}, where ${entry} lands` };
    },
  });
  if (found === undefined) return undefined;
  if ('value' in found) return found.value;
  return {
    name: found.tooLarge,
    what: `what lands at ${path.lexical} from ${found.tooLarge}, a folder too large to check (over ${FOLDER_WALK_LIMIT} entries, links below it followed) for protected files`,
  };
}

/** Options of {@linkcode visitLanding}. */
export interface VisitLandingOptions<T> {
  /** The check's folder walks. */
  walks: FolderWalks;
  /**
   * Called with the landing place, the entry and the index of the landing's form (in
   * {@linkcode landingForms}); a value other than undefined ends the visit.
   */
  visit: (at: string, entry: string, form: number) => T | undefined;
}

/** What {@linkcode visitLanding} found: the first answer of the visitor, or a source too large to walk. */
export type LandingVisit<T> = { value: T; source: string } | { tooLarge: string } | undefined;

/**
 * Visits every place an entry of a landing's source folders lands (see `ResourceAccess.from`):
 * each entry below a `from` folder, at any depth, rebased below each form of the landing's path
 * (as written and through links), until the visitor answers. The walk is the check's own (a move
 * or copy declares its source as a folder too, walked once for both). A link below the folder
 * that leads to a folder is walked too (`cp -rL` copies what it leads to; `cp -r`, `mv` and
 * `ln -s` put it where its entries are reached below the landing), each folder once; past
 * {@linkcode FOLDER_WALK_LIMIT} entries in all, what lands there is not known: `tooLarge`.
 *
 * @param path A guarded write with `from`.
 * @param options The check's folder walks, and the visitor.
 * @returns The first answer and its source, `{ tooLarge: source }`, or undefined.
 *
 * @example
 * ```ts
 * import type { GuardedPath } from './path_guard.ts';
 * import { visitLanding } from './folder_access.ts';
 * declare const landing: GuardedPath; // /p/dest from /p/stuff, which holds prod.json
 *
 * visitLanding(landing, { walks: new Map(), visit: (at) => (at.endsWith('/prod.json') ? at : undefined) });
 * // { value: '/p/dest/prod.json', source: '/p/stuff' }
 * ```
 */
export function visitLanding<T>(path: GuardedPath, { walks, visit }: VisitLandingOptions<T>): LandingVisit<T> {
  const forms = landingForms(path);
  for (const source of path.from ?? []) {
    if (!isFolder(source)) continue;
    const cut = source === '/' ? 0 : source.length;
    const pending = [source];
    const seen = new Set<string>();
    let total = 0;
    while (pending.length > 0) {
      const folder = pending.pop()!;
      const walk = walkFolder(folder, walks);
      total += walk.entries.length;
      if (walk.truncated || total > FOLDER_WALK_LIMIT) return { tooLarge: source };
      for (let f = 0; f < forms.length; f++) {
        const base = forms[f] === '/' ? '' : forms[f]!;
        for (const entry of walk.entries) {
          const value = visit(`${base}${entry.slice(cut)}`, entry, f);
          if (value !== undefined) return { value, source };
        }
      }
      for (const link of walk.links) {
        const target = folderTarget(link);
        if (target !== undefined && !seen.has(target)) {
          seen.add(target);
          pending.push(link);
        }
      }
    }
  }
  return undefined;
}

/**
 * The forms of a landing's path its entries are rebased below: as written, then through links,
 * each once.
 *
 * @param path A guarded path.
 * @returns The forms.
 *
 * @example
 * ```ts
 * import type { GuardedPath } from './path_guard.ts';
 * import { landingForms } from './folder_access.ts';
 * declare const landing: GuardedPath;
 *
 * landingForms(landing); // ['/p/dest'] (or ['/p/link/dest', '/p/real/dest'])
 * ```
 */
export function landingForms(path: GuardedPath): string[] {
  return [path.lexical, ...path.real].filter((f, i, all) => all.indexOf(f) === i);
}

/** Where a link leads, physically, when it leads to a folder. */
function folderTarget(link: string): string | undefined {
  try {
    return statSync(link).isDirectory() ? realpathSync(link) : undefined;
  } catch {
    return undefined;
  }
}
