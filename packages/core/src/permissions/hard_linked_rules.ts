import { readdirSync, type Stats, statSync } from 'node:fs';
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
const MAX_LISTED = 10_000;

/**
 * The files that read rules of a list name one by one and that have other names (hard links:
 * `ln .env docs/notes` makes `docs/notes` the very file `.env` is), by device and inode. A rule
 * names files one by one when it names a file (`Read(./.env)`, `Read(~/.aws/credentials)`) or the
 * files of one folder by a one-segment pattern (`Read(./.env.*)`, `Read(//etc/*.key)`: the folder
 * is listed, up to 10 000 entries). A rule with `**`, a pattern over several segments or a bare
 * name (`Read(.env)`, at any depth) would take a walk of its folder and is not looked into: a
 * hard link to a file under `Read(./secrets/**)` kept elsewhere is not found.
 *
 * A file with one name (the usual case) is left out, so a caller stats a path it is asked about
 * only when the map is not empty.
 *
 * @param rules A rule list (deny or ask).
 * @param options The tool called and the call's context.
 * @returns `dev:ino` → the rule and the file it names, in list order (the first rule wins).
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { hardLinkedRuleFiles, inodeKey } from '@toolshed/core/internal';
 * import { statSync } from 'node:fs';
 * declare const ctx: ToolContext;
 *
 * const named = hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx });
 * named.get(inodeKey(statSync('docs/notes.txt')))?.rule.raw; // 'Read(./.env)' when it is a link to .env
 * ```
 */
export function hardLinkedRuleFiles(
  rules: readonly PermissionRule[],
  options: HardLinkedRuleFilesOptions,
): Map<string, HardLinkedRuleFile> {
  const found = new Map<string, HardLinkedRuleFile>();
  const at = pathRulesFor(rules, { toolName: options.toolName, access: 'read' });
  if (at.length === 0) return found;
  const { compile } = pathRuleChecker(options.ctx);
  const { cwd, permissions } = options.ctx;
  const add = (rule: PermissionRule, file: string): void => {
    const st = statOrUndefined(file);
    if (st === undefined || !st.isFile() || st.nlink < 2) return;
    const key = inodeKey(st);
    if (!found.has(key)) found.set(key, { rule, file });
  };
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
        for (const name of listed(root)) {
          const file = `${root === '/' ? '' : root}/${name}`;
          if (safeCoversWhole(compiled, file)) add(rule, file);
        }
      }
    }
  }
  return found;
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

/**
 * The rule of `named` that names the file at `path` under another name, when it is a regular file
 * with more than one name; undefined otherwise (and for a path that cannot be looked at).
 *
 * @param path An absolute path (followed through symlinks).
 * @param named What {@linkcode hardLinkedRuleFiles} returned.
 * @returns The rule and the file it names, or undefined.
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
export function ruleNamingOtherLink(
  path: string,
  named: ReadonlyMap<string, HardLinkedRuleFile>,
): HardLinkedRuleFile | undefined {
  if (named.size === 0) return undefined;
  const st = statOrUndefined(path);
  if (st === undefined || !st.isFile() || st.nlink < 2) return undefined;
  return named.get(inodeKey(st));
}

/**
 * The first rule of a list that names, under another name, a file one of the guarded reads opens
 * (see {@linkcode hardLinkedRuleFiles}): `docs/notes` when it is a hard link to the `.env` that
 * `Read(./.env)` names. The rules' files are looked at only when a read path has more than one name.
 *
 * @param rules A rule list (deny or ask).
 * @param paths The guarded paths; only exact reads count (a folder read is judged file by file
 *   by the search's filter, see `deniedPathFilter`).
 * @param options The tool called and the call's context.
 * @returns The rule, the file it names and the guarded path, or undefined.
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
): (HardLinkedRuleFile & { path: GuardedPath }) | undefined {
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
    const found = named.get(key);
    if (found !== undefined) return { ...found, path };
  }
  return undefined;
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
 * (one per one-segment pattern rule per lookup, never a walk).
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

function listed(dir: string): string[] {
  listings++;
  try {
    const names = readdirSync(dir);
    return names.length > MAX_LISTED ? [] : names;
  } catch {
    return [];
  }
}
