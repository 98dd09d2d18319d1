import { type BigIntStats, readdirSync, type Stats, statSync } from 'node:fs';
import type { ToolContext } from '../tool.ts';
import { type GuardedPath, type PathCheckOptions, pathRuleChecker, safeCoversWhole } from './path_guard.ts';
import { pathRuleRoots } from './path_rule.ts';
import { pathRulesFor } from './path_rule_index.ts';
import type { PermissionRule } from './types.ts';

/** A file a rule names that has other names too, and the rule. */
export interface HardLinkedRuleFile {
  /** The rule. */
  rule: PermissionRule;
  /** The file's path as the rule names it (physical). */
  file: string;
}

/** Options of {@linkcode hardLinkedRuleFiles}. */
export interface HardLinkedRuleFilesOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context (rule bases). */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
}

/** Past this many entries a rule's folder is not listed for its files (see {@linkcode hardLinkedRuleFiles}). */
export const MAX_LISTED_ENTRIES = 10_000;

/** A rule whose folder holds too many entries to list: any file with several names may be one it names. */
export interface UnlistedRuleFolder {
  /** The rule. */
  rule: PermissionRule;
  /** The folder (physical) not listed. */
  folder: string;
}

/** What {@linkcode hardLinkedRuleFiles} found. */
export interface HardLinkedRules {
  /** `dev:ino` → the rule and the file it names, in list order (the first rule wins). */
  files: Map<string, HardLinkedRuleFile>;
  /** The rules whose folder was too large to list, in list order: they may name any file. */
  unlisted: UnlistedRuleFolder[];
}

/**
 * The files that read rules of a list name one by one and that have other names (hard links:
 * `ln .env docs/notes` makes `docs/notes` the very file `.env` is), by device and inode. A rule
 * names files one by one when it names a file (`Read(./.env)`, `Read(~/.aws/credentials)`) or the
 * files of one folder by a one-segment pattern (`Read(./.env.*)`, `Read(//etc/*.key)`: the folder
 * is listed, up to 10 000 entries; a larger one is returned in `unlisted`). A rule with `**`, a
 * pattern over several segments or a bare name (`Read(.env)`, at any depth) would take a walk of
 * its folder and is not looked into: a hard link to a file under `Read(./secrets/**)` kept
 * elsewhere is not found.
 *
 * A folder's listing is kept with the rule (per session: rules are the session's objects) while
 * the folder's device, inode, size, modification and change times stay the same, so the reads of
 * a session list each folder once; a folder changed within the last {@linkcode RECENT_MS} ms is
 * listed again at each lookup (a change in the same clock tick would not show). The files a
 * listing names are looked at (stat) at every lookup: a file replaced, or given a second name
 * since, counts as it is now.
 *
 * A file with one name (the usual case) is left out, so a caller stats a path it is asked about
 * only when the map is not empty.
 *
 * @param rules A rule list (deny or ask).
 * @param options The tool called and the call's context.
 * @returns The files by `dev:ino`, and the rules whose folder is too large to list.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { hardLinkedRuleFiles, inodeKey } from '@toolshed/core/internal';
 * import { statSync } from 'node:fs';
 * declare const ctx: ToolContext;
 *
 * const named = hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx });
 * named.files.get(inodeKey(statSync('docs/notes.txt')))?.rule.raw; // 'Read(./.env)' when it is a link to .env
 * ```
 */
export function hardLinkedRuleFiles(
  rules: readonly PermissionRule[],
  options: HardLinkedRuleFilesOptions,
): HardLinkedRules {
  const found: HardLinkedRules = { files: new Map(), unlisted: [] };
  const at = pathRulesFor(rules, { toolName: options.toolName, access: 'read' });
  if (at.length === 0) return found;
  const { compile, bases } = pathRuleChecker(options.ctx);
  const { cwd, permissions } = options.ctx;
  const add = (rule: PermissionRule, file: string): void => {
    const st = statOrUndefined(file);
    if (st === undefined || !st.isFile() || st.nlink < 2) return;
    const key = inodeKey(st);
    if (!found.files.has(key)) found.files.set(key, { rule, file });
  };
  // Folders listed by this lookup, for the rules sharing one (`./.env.*` and `./*.pem`).
  const listedNow = new Map<string, Listing>();
  for (const i of at) {
    const rule = rules[i]!;
    const compiled = compile(rule);
    if (compiled === undefined || rule.ruleContent === undefined) continue;
    let shape: { dirs: string[]; glob: string; anywhere: boolean };
    try {
      // The roots as written and through links, not case-folded: they are looked at on disk.
      shape = pathRuleRoots(rule.ruleContent, {
        cwd,
        homeDir: permissions.homeDir,
        root: rule.root ?? cwd,
        workingDirectories: [],
      });
    } catch {
      continue;
    }
    if (shape.anywhere) continue;
    for (const root of shape.dirs) {
      if (shape.glob === '') add(rule, root);
      else if (!shape.glob.includes('/') && !shape.glob.includes('**')) {
        const files = namedIn(root, { rule, key: bases.key, listedNow, covers: (f) => safeCoversWhole(compiled, f) });
        if (files === undefined) found.unlisted.push({ rule, folder: root });
        else for (const file of files) add(rule, file);
      }
    }
  }
  return found;
}

/**
 * Past this age (ms) a folder's modification time is trusted to show a change to its entries; a
 * younger one may share its clock tick (up to 2 s on FAT) with a change made after the listing.
 */
export const RECENT_MS = 3_000;

/** A folder's entries, or undefined when it holds more than {@linkcode MAX_LISTED_ENTRIES}. */
type Listing = { stamp: string | undefined; names: string[] | undefined };

/** What a rule's folder was found to name: the stamp of the folder then, and the files. */
interface NamedFiles {
  stamp: string;
  files: string[] | undefined;
}

/** Per rule (a session's object), per bases and folder: the files it names there. */
const namedByRule = new WeakMap<PermissionRule, Map<string, NamedFiles>>();

/** The files a one-segment rule names in a folder, from the kept listing while the folder is unchanged. */
function namedIn(
  dir: string,
  o: { rule: PermissionRule; key: string; listedNow: Map<string, Listing>; covers: (file: string) => boolean },
): string[] | undefined {
  const stamp = folderStamp(dir);
  let kept = namedByRule.get(o.rule);
  const at = `${o.key}\0${dir}`;
  if (stamp === null) {
    // No folder there (yet): it names nothing, and is looked at again at the next lookup.
    kept?.delete(at);
    return [];
  }
  const known = kept?.get(at);
  if (stamp !== undefined && known?.stamp === stamp) return known.files;
  let listing = o.listedNow.get(dir);
  if (listing === undefined || listing.stamp !== stamp) {
    listing = { stamp, names: listed(dir) };
    o.listedNow.set(dir, listing);
  }
  const prefix = dir === '/' ? '' : dir;
  const files = listing.names?.map((name) => `${prefix}/${name}`).filter(o.covers);
  if (stamp !== undefined) {
    if (kept === undefined) namedByRule.set(o.rule, (kept = new Map()));
    kept.set(at, { stamp, files });
  } else kept?.delete(at);
  return files;
}

/**
 * What changes with a folder's entries (device, inode, size, modification and change times, in
 * ns); undefined when it was changed within {@linkcode RECENT_MS} ms; null when it cannot be
 * looked at (missing, or not a folder).
 */
function folderStamp(dir: string): string | undefined | null {
  let st: BigIntStats;
  try {
    st = statSync(dir, { bigint: true });
  } catch {
    return null;
  }
  if (!st.isDirectory()) return null;
  if (Number(st.mtimeNs / 1_000_000n) > Date.now() - RECENT_MS) return undefined;
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * The key {@linkcode hardLinkedRuleFiles} files are kept under: device and inode.
 *
 * @param st A file's stats.
 * @returns `dev:ino`.
 *
 * @example
 * ```ts
 * import { inodeKey } from '@toolshed/core/internal';
 * import { statSync } from 'node:fs';
 *
 * inodeKey(statSync('.env')); // '2049:1234567'
 * ```
 */
export function inodeKey(st: Pick<Stats, 'dev' | 'ino'>): string {
  return `${st.dev}:${st.ino}`;
}

/** A rule that covers a file read under another name, or may: its folder is too large to list. */
export type HardLinkMatch = HardLinkedRuleFile | (UnlistedRuleFolder & { file?: undefined });

/**
 * The rule of `named` that names the file at `path` under another name, when it is a regular file
 * with more than one name: the first rule naming that very file, else the first rule whose folder
 * was too large to list (it may); undefined otherwise (and for a path that cannot be looked at).
 *
 * @param path An absolute path (followed through symlinks).
 * @param named What {@linkcode hardLinkedRuleFiles} returned.
 * @returns The rule and the file it names (or the folder not listed), or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { hardLinkedRuleFiles, ruleNamingOtherLink } from './hard_linked_rules.ts';
 * declare const ctx: ToolContext;
 *
 * ruleNamingOtherLink('/p/docs/notes.txt', hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx }));
 * ```
 */
export function ruleNamingOtherLink(path: string, named: HardLinkedRules): HardLinkMatch | undefined {
  if (named.files.size === 0 && named.unlisted.length === 0) return undefined;
  const st = statOrUndefined(path);
  if (st === undefined || !st.isFile() || st.nlink < 2) return undefined;
  return named.files.get(inodeKey(st)) ?? named.unlisted[0];
}

/**
 * The first rule of a list that names, under another name, a file one of the guarded reads opens
 * (see {@linkcode hardLinkedRuleFiles}): `docs/notes` when it is a hard link to the `.env` that
 * `Read(./.env)` names. The rules' files are looked at only when a read path has more than one
 * name. When none names it but a rule's folder was too large to list, that rule is returned with
 * the folder (no `file`): the caller cannot tell, and asks.
 *
 * @param rules A rule list (deny or ask).
 * @param paths The guarded paths; only exact reads count (a folder read is judged file by file
 *   by the search's filter, see `deniedPathFilter`).
 * @param options The tool called and the call's context.
 * @returns The rule, the file it names (or the folder not listed) and the guarded path, or undefined.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { resolveResources } from '@toolshed/core/internal';
 * import { findRuleByHardLink } from './hard_linked_rules.ts';
 * declare const ctx: ToolContext;
 *
 * findRuleByHardLink(ctx.permissions.rules.deny, resolveResources([{ path: 'docs/notes', access: 'read' }], ctx), { toolName: 'Read', ctx });
 * ```
 */
export function findRuleByHardLink(
  rules: readonly PermissionRule[],
  paths: readonly GuardedPath[],
  options: PathCheckOptions,
): (HardLinkMatch & { path: GuardedPath }) | undefined {
  if (rules.length === 0) return undefined;
  const linked: { path: GuardedPath; key: string }[] = [];
  for (const path of paths) {
    if (path.access !== 'read' || path.kind !== undefined || path.device) continue;
    for (const real of path.real) {
      const st = statOrUndefined(real);
      if (st !== undefined && st.isFile() && st.nlink >= 2) linked.push({ path, key: inodeKey(st) });
    }
  }
  if (linked.length === 0) return undefined;
  const named = hardLinkedRuleFiles(rules, options);
  for (const { path, key } of linked) {
    const found = named.files.get(key);
    if (found !== undefined) return { ...found, path };
  }
  const unlisted = named.unlisted[0];
  return unlisted === undefined ? undefined : { ...unlisted, path: linked[0]!.path };
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Folders listed so far by {@linkcode hardLinkedRuleFiles}, for a test that counts the work. */
let listings = 0;

/**
 * How many folders {@linkcode hardLinkedRuleFiles} has listed in this process: a test's step count
 * (one per one-segment pattern rule's folder when it changed, never a walk).
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { hardLinkFolderListings } from './hard_linked_rules.ts';
 *
 * const before = hardLinkFolderListings();
 * // ... decide a read ...
 * hardLinkFolderListings() - before; // folders listed for it
 * ```
 */
export function hardLinkFolderListings(): number {
  return listings;
}

/** A folder's entries; undefined past {@linkcode MAX_LISTED_ENTRIES}; none when it cannot be listed. */
function listed(dir: string): string[] | undefined {
  listings++;
  try {
    const names = readdirSync(dir);
    return names.length > MAX_LISTED_ENTRIES ? undefined : names;
  } catch {
    return [];
  }
}
