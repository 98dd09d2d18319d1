import { lstatSync, type Stats, statSync } from 'node:fs';
import type { ToolContext } from '../tool.ts';
import { FOLDER_WALK_LIMIT, type FolderWalks, walkFolder } from './folder_access.ts';
import {
  caseInsensitivePaths,
  type GuardedPath,
  pathRuleApplies,
  pathRuleCompiler,
  realWorkingDirectories,
  safeCovers,
} from './path_guard.ts';
import { pathRuleRoots } from './path_rule.ts';
import { countRuleVisit } from './_rule_visits.ts';
import type { PermissionRule } from './types.ts';

/** Options of {@linkcode findHardLinkRule}. */
export interface HardLinkRuleOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context. */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
  /** The check's folder walks, shared with its other checks. @default a new map */
  walks?: FolderWalks;
}

/** What {@linkcode findHardLinkRule} found. */
export interface HardLinkRule {
  /** The rule. */
  rule: PermissionRule;
  /** The path read or written: a file with more than one name. */
  path: GuardedPath;
  /** How many names (hard links) the file has. */
  links: number;
  /** Another name of the same file that the rule covers; undefined when it could not be looked for. */
  other: string | undefined;
  /** Why the other names could not be looked for, when `other` is undefined. */
  why?: string;
}

/**
 * The first Read/Edit rule of a list that covers another name of a file the call reads or writes
 * by a name the rule does not cover. A hard link (`ln secret.env x`, made before the session or
 * by a program the guard does not follow) is the same file under another name: `cat x` reads
 * secret.env, `echo > x` writes it. For an exact path that is a file with more than one link
 * (`st_nlink > 1`), each rule that applies to the access is asked for the files it covers (its
 * roots, walked to at most {@linkcode FOLDER_WALK_LIMIT} entries, only the entries it covers
 * looked at): one that is the same file (device and inode) is found with its name; a root too
 * large to walk, or a file system that gives no inode, leaves the other names unknown (`other`
 * undefined), which the caller asks about. A file with one link, a folder, and a path no rule
 * applies to cost nothing beyond one `stat`.
 *
 * @param rules A rule list (deny or ask).
 * @param paths The guarded paths; exact paths only (folders are not looked into).
 * @param options The tool called, the call's context and the check's folder walks.
 * @returns The rule, the path, the file's link count and the other name, or undefined.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import type { GuardedPath } from '@toolshed/core/internal';
 * import { findHardLinkRule } from './hard_links.ts';
 * declare const ctx: ToolContext;
 * declare const paths: GuardedPath[]; // `cat x`, where x is a hard link to secret.env
 *
 * // deny: ['Read(./secret.env)']
 * findHardLinkRule(ctx.permissions.rules.deny, paths, { toolName: 'Bash', ctx })?.other; // '/p/secret.env'
 * ```
 */
export function findHardLinkRule(
  rules: readonly PermissionRule[],
  paths: readonly GuardedPath[],
  { toolName, ctx, walks = new Map() }: HardLinkRuleOptions,
): HardLinkRule | undefined {
  if (rules.length === 0) return undefined;
  let unknown: HardLinkRule | undefined;
  for (const path of paths) {
    if (path.kind === 'folder' || path.device || path.harmless) continue;
    const applying = rules.filter((rule) => pathRuleApplies(rule, { toolName, access: path.access }));
    if (applying.length === 0) continue;
    const file = linkedFile(path.real[0] ?? path.lexical);
    if (file === undefined) continue;
    for (const rule of applying) {
      countRuleVisit();
      const found = otherName(rule, file, { ctx, walks });
      if (typeof found === 'string') return { rule, path, links: file.nlink, other: found };
      if (found !== undefined) unknown ??= { rule, path, links: file.nlink, other: undefined, why: found.why };
    }
  }
  return unknown;
}

/** The file's identity when it is a regular file with more than one name. */
function linkedFile(path: string): Stats | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.nlink > 1 ? stats : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A name the rule covers that is the same file: the name, `{ why }` when the rule's files could
 * not all be looked at, or undefined when none is.
 */
function otherName(
  rule: PermissionRule,
  file: Stats,
  { ctx, walks }: { ctx: HardLinkRuleOptions['ctx']; walks: FolderWalks },
): string | { why: string } | undefined {
  const compiled = pathRuleCompiler(ctx)(rule);
  if (compiled === undefined || rule.ruleContent === undefined) return undefined;
  // A file system without inode numbers cannot tell two names of one file apart.
  if (file.ino === 0) return { why: 'its file system gives no inode numbers to compare' };
  let roots: string[];
  try {
    roots = pathRuleRoots(rule.ruleContent, {
      cwd: ctx.cwd,
      homeDir: ctx.permissions.homeDir,
      root: rule.root ?? ctx.cwd,
      caseInsensitive: caseInsensitivePaths(ctx.permissions),
      workingDirectories: realWorkingDirectories(ctx.permissions, ctx.cwd, { asLinkedNow: true }),
    }).dirs;
  } catch {
    return undefined;
  }
  const same = (candidate: string) => {
    try {
      const stats = statSync(candidate);
      return stats.ino === file.ino && stats.dev === file.dev;
    } catch {
      return false;
    }
  };
  for (const root of roots) {
    if (safeCovers(compiled, root) && same(root)) return root;
    if (!isFolder(root)) continue;
    const walk = walkFolder(root, walks);
    for (const entry of walk.entries) if (safeCovers(compiled, entry) && same(entry)) return entry;
    if (walk.truncated)
      return {
        why: `${root}, where the rule's files are, is too large to look through (over ${FOLDER_WALK_LIMIT} entries)`,
      };
  }
  return undefined;
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Says what {@linkcode findHardLinkRule} found, for a decision's reason.
 *
 * @param found What it found.
 * @returns A clause naming the other name (or why it is not known).
 *
 * @example
 * ```ts
 * import { describeHardLinkRule, type HardLinkRule } from './hard_links.ts';
 * declare const found: HardLinkRule;
 *
 * describeHardLinkRule(found);
 * // 'a hard link to /p/secret.env (one file with 2 names), which the rule covers'
 * ```
 */
export function describeHardLinkRule(found: HardLinkRule): string {
  if (found.other !== undefined)
    return `a hard link to ${found.other} (one file with ${found.links} names), which the rule covers`;
  return `a file with ${found.links} names (hard links), another of which the rule may cover: that cannot be known, as ${found.why}`;
}
