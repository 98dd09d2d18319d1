import { homedir } from 'node:os';
import type { ToolContext } from '../tool.ts';
import type { PermissionRule } from './types.ts';
import { foldPath } from './_fold_path.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { isPathInside } from './is_path_inside.ts';
import { caseInsensitivePaths, type GuardedPath, pathRuleApplies, safeCovers } from './path_guard.ts';
import { compilePathRule, pathRuleRoots } from './path_rule.ts';
import { physicalRootOf, pinnedPhysicalRoot } from './real_path_cache.ts';

/** Options of {@linkcode repointedRootsNote}. */
export interface RepointedRootsNoteOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context. */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
}

/**
 * Why a call that asks would not have asked before a link was re-pointed, for the ask's reason:
 * a working directory or an allow rule's root keeps the physical path it had when the
 * permissions were made ({@linkcode pinnedPhysicalRoot}), so a folder replaced by a link (a git
 * checkout, a deploy that re-points `current`) no longer carries them to the link's new target.
 * Says which path moved, where it led and leads now, and what to do. Run on asks only: it looks
 * at every working directory and allow rule.
 *
 * @param paths The guarded paths of the call that asks.
 * @param options The tool called and the call's context.
 * @returns A sentence to add to the reason (with a leading space), or `''` when no moved root explains the ask.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { resolveResources } from './path_guard.ts';
 * import { repointedRootsNote } from './_repointed_roots.ts';
 * declare const ctx: ToolContext;
 *
 * repointedRootsNote(resolveResources([{ path: 'docs/a.md', access: 'write' }], ctx), { toolName: 'Edit', ctx });
 * // ' Rule "Edit(./docs/**)" does not cover it: "/p/docs" led to "/p/docs" when the session began …'
 * ```
 */
export function repointedRootsNote(paths: readonly GuardedPath[], options: RepointedRootsNoteOptions): string {
  const { ctx, toolName } = options;
  const homeDir = ctx.permissions.homeDir ?? homedir();
  const nocase = caseInsensitivePaths(ctx.permissions);
  const inside = (dir: string) =>
    paths.some((p) => p.real.every((real) => isPathInside(foldPath(real, nocase), foldPath(dir, nocase))));
  for (const dir of ctx.permissions.workingDirectories) {
    if (!isNormalAbsolute(dir)) continue;
    const pinned = pinnedPhysicalRoot(dir, homeDir);
    const now = physicalRootOf(dir, homeDir);
    if (pinned !== now && inside(now)) {
      return ` The working directory "${dir}" led to "${pinned}" when the session began and leads to "${now}" now: a link on its way was re-pointed, and a working directory keeps the folder it had, so that a swapped link cannot widen it. To work in "${now}", start a new session there, or allow the path with the rule offered.`;
    }
  }
  for (const rule of ctx.permissions.rules.allow) {
    const content = rule.ruleContent;
    if (content === undefined || !paths.some((p) => pathRuleApplies(rule, { toolName, access: p.access }))) continue;
    try {
      const bases = ruleBases(rule, { cwd: ctx.cwd, homeDir, nocase });
      const roots = pathRuleRoots(content, { ...bases, pinnedRoots: true });
      if (roots.anywhere) continue;
      const lexical = roots.dirs[0]!;
      const pinned = pinnedPhysicalRoot(lexical, homeDir);
      const now = physicalRootOf(lexical, homeDir);
      if (pinned === now) continue;
      // As the rule would match if it followed the link now (its roots as a deny rule's are).
      const followed = compilePathRule(content, bases);
      if (!paths.some((p) => p.real.every((real) => safeCovers(followed, real)))) continue;
      return ` Rule "${rule.raw}" does not cover it: "${lexical}" led to "${pinned}" when the session began and leads to "${now}" now, and an allow rule keeps the target it had, so that a swapped link cannot widen it. If the link was changed on purpose, start a new session to follow it, or allow the path itself.`;
    } catch {
      // A malformed specifier is reported where rules are parsed.
    }
  }
  return '';
}

/** Options of {@linkcode keptRootNote}. */
export interface KeptRootNoteOptions {
  /** The call's context. */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
}

/**
 * For a deny or ask rule that covers a path only through the target its root had when the
 * permissions were made (its link re-pointed since), the sentence that says so: a deny or ask rule
 * keeps what it covered then, so that re-pointing a link cannot narrow it, and a person who moved
 * the link on purpose is told why the old target is still covered and what to do.
 *
 * @param rule The deny or ask rule that matched.
 * @param path The guarded path it covers.
 * @param options The call's context.
 * @returns A sentence to add to the reason (with a leading space), or `''`.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { parseRule } from './rule_parser.ts';
 * import { resolveResources } from './path_guard.ts';
 * import { keptRootNote } from './_repointed_roots.ts';
 * declare const ctx: ToolContext;
 * const rule = parseRule('Read(./vault/**)', { behavior: 'deny', source: 'options' });
 *
 * keptRootNote(rule, resolveResources([{ path: '/data/vault/key', access: 'read' }], ctx)[0]!, { ctx });
 * // ' "/p/vault" led to "/data/vault" when the session began and leads to "/p/empty" now; …'
 * ```
 */
export function keptRootNote(rule: PermissionRule, path: GuardedPath, options: KeptRootNoteOptions): string {
  const { ctx } = options;
  if (rule.ruleContent === undefined) return '';
  const homeDir = ctx.permissions.homeDir ?? homedir();
  const nocase = caseInsensitivePaths(ctx.permissions);
  try {
    const bases = ruleBases(rule, { cwd: ctx.cwd, homeDir, nocase });
    const roots = pathRuleRoots(rule.ruleContent, { ...bases, pinnedRoots: true });
    if (roots.anywhere) return '';
    const lexical = roots.dirs[0]!;
    const pinned = pinnedPhysicalRoot(lexical, homeDir);
    const now = physicalRootOf(lexical, homeDir);
    const under = (dir: string) =>
      [path.lexical, ...path.real].some((p) => isPathInside(foldPath(p, nocase), foldPath(dir, nocase)));
    if (pinned === now || !under(pinned) || under(now) || under(lexical)) return '';
    return ` "${lexical}" led to "${pinned}" when the session began and leads to "${now}" now: a ${rule.behavior} rule keeps covering what it covered then, so that re-pointing a link cannot narrow it. If the link was moved on purpose, a new session follows it.`;
  } catch {
    return '';
  }
}

/** Where a path rule's `./`, `~/` and `/` start, as its roots are worked out here (no working directories). */
function ruleBases(rule: PermissionRule, where: { cwd: string; homeDir: string; nocase: boolean }) {
  return {
    cwd: where.cwd,
    homeDir: where.homeDir,
    root: rule.root ?? where.cwd,
    caseInsensitive: where.nocase,
    workingDirectories: [],
  };
}
