import type { ToolContext } from '../tool.ts';
import { FOLDER_WALK_LIMIT, type FolderWalks, landingForms, visitLanding } from './folder_access.ts';
import { type GuardedPath, pathRuleApplies, pathRuleChecker, safeCovers } from './path_guard.ts';
import { folderRuleCandidates } from './path_rule_index.ts';
import { countRuleVisit } from './_rule_visits.ts';
import type { PermissionRule } from './types.ts';

/** Options of {@linkcode findRuleAtLanding}. */
export interface RuleAtLandingOptions {
  /** The tool called. */
  toolName: string;
  /** The call's context. */
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>;
  /** The check's folder walks, shared with its other checks. @default a new map */
  walks?: FolderWalks;
}

/** What {@linkcode findRuleAtLanding} found. */
export interface RuleAtLanding {
  /** The rule. */
  rule: PermissionRule;
  /** The landing: a write with `from`. */
  path: GuardedPath;
  /** Where an entry lands that the rule covers; undefined when the source is too large to walk. */
  at: string | undefined;
  /** The entry of the source folder that lands there, or the source too large to walk. */
  entry: string;
  /** The rule surely covers a place an entry lands (false: the source was too large to walk). */
  surely: boolean;
}

/**
 * The first `Edit` rule of a list that covers a place where an entry of a landing's source
 * folder lands (see `ResourceAccess.from`): `cp -r stuff dest` writes `dest/prod.json` when
 * `stuff/prod.json` exists, which `Edit(dest/prod.json)` covers though the call declares only
 * `dest`. Each entry below the source, at any depth, is judged where it lands (as written and
 * through links); a source too large to walk may hold anything, which any rule that could reach
 * below the landing may cover (`surely: false`). Rules are looked up by root: rules about other
 * folders cost nothing, and with none that could apply the source is not walked.
 *
 * @param rules A rule list (deny or ask).
 * @param paths The guarded paths; only writes with `from` are looked at.
 * @param options The tool called, the call's context and the check's folder walks.
 * @returns The rule, the landing, where the entry lands and which entry, or undefined.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import type { GuardedPath } from '@toolshed/core/internal';
 * import { findRuleAtLanding } from './landing_rules.ts';
 * declare const ctx: ToolContext;
 * declare const paths: GuardedPath[]; // `cp -r stuff dest`: /p/dest from /p/stuff
 *
 * // deny: ['Edit(./dest/prod.json)'], and /p/stuff/prod.json exists
 * findRuleAtLanding(ctx.permissions.rules.deny, paths, { toolName: 'Bash', ctx })?.at; // '/p/dest/prod.json'
 * ```
 */
export function findRuleAtLanding(
  rules: readonly PermissionRule[],
  paths: readonly GuardedPath[],
  { toolName, ctx, walks = new Map() }: RuleAtLandingOptions,
): RuleAtLanding | undefined {
  if (rules.length === 0) return undefined;
  const { compile, bases } = pathRuleChecker(ctx);
  for (const path of paths) {
    if (path.access !== 'write' || path.from === undefined) continue;
    const forms = landingForms(path);
    // Only rules rooted at the landing, above or below it, and bare names can cover a place below it.
    const candidates = folderRuleCandidates(rules, forms, { toolName, access: 'write', bases })
      .map((i) => rules[i]!)
      .filter((rule) => pathRuleApplies(rule, { toolName, access: 'write' }));
    const compiled = candidates.flatMap((rule) => {
      const c = compile(rule);
      return c === undefined ? [] : [{ rule, c }];
    });
    if (compiled.length === 0) continue;
    const found = visitLanding(path, {
      walks,
      visit: (at, entry) => {
        for (const { rule, c } of compiled) {
          countRuleVisit();
          if (safeCovers(c, at)) return { rule, at, entry };
        }
        return undefined;
      },
    });
    if (found === undefined) continue;
    if ('value' in found) return { ...found.value, path, surely: true };
    return { rule: compiled[0]!.rule, path, at: undefined, entry: found.tooLarge, surely: false };
  }
  return undefined;
}

/**
 * Says what {@linkcode findRuleAtLanding} found, for a decision's reason.
 *
 * @param found What it found.
 * @returns A clause: what lands where, which the rule covers (or may).
 *
 * @example
 * ```ts
 * import { describeRuleAtLanding, type RuleAtLanding } from './landing_rules.ts';
 * declare const found: RuleAtLanding;
 *
 * describeRuleAtLanding(found);
 * // 'the write to "/p/dest" puts /p/stuff/prod.json at /p/dest/prod.json, which the rule covers'
 * ```
 */
export function describeRuleAtLanding(found: RuleAtLanding): string {
  const to = `the write to "${found.path.declared}"`;
  if (found.at !== undefined) return `${to} puts ${found.entry} at ${found.at}, which the rule covers`;
  return `${to} puts what ${found.entry} holds below it, a folder too large to check (over ${FOLDER_WALK_LIMIT} entries), which the rule may cover`;
}
