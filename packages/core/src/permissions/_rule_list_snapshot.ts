import type { PermissionRule } from './types.ts';

/**
 * A rule list as it was when something was derived from it (an index): the rules and the fields
 * an index reads. A frozen list of frozen rules cannot change; any other is compared rule by
 * rule, by identity and fields, which costs a few comparisons per rule and no match.
 */
export interface RuleListSnapshot {
  rules: readonly PermissionRule[];
  names: readonly string[];
  contents: readonly (string | undefined)[];
  roots: readonly (string | undefined)[];
  frozen: boolean;
}

/**
 * Takes a snapshot of a rule list.
 *
 * @param rules The list.
 * @returns Its snapshot.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { ruleListSnapshot, sameRuleList } from './_rule_list_snapshot.ts';
 * declare const ctx: ToolContext;
 *
 * const snap = ruleListSnapshot(ctx.permissions.rules.deny);
 * sameRuleList(snap, ctx.permissions.rules.deny); // true
 * ```
 */
export function ruleListSnapshot(rules: readonly PermissionRule[]): RuleListSnapshot {
  return {
    rules: [...rules],
    names: rules.map((rule) => rule.toolName),
    contents: rules.map((rule) => rule.ruleContent),
    roots: rules.map((rule) => rule.root),
    frozen: Object.isFrozen(rules) && rules.every((rule) => Object.isFrozen(rule)),
  };
}

/**
 * Whether a list is as its snapshot: the same rules with the same tool names, specifiers and roots.
 *
 * @param snap The snapshot.
 * @param rules The list now.
 * @returns True when nothing an index reads has changed.
 *
 * @example
 * ```ts
 * import type { PermissionRule } from '@toolshed/core';
 * import { ruleListSnapshot, sameRuleList } from './_rule_list_snapshot.ts';
 * declare const rules: PermissionRule[];
 *
 * let snap = ruleListSnapshot(rules);
 * rules.push({ toolName: 'Bash', ruleContent: 'rm:*', behavior: 'deny', source: 'cli', raw: 'Bash(rm:*)' });
 * if (!sameRuleList(snap, rules)) snap = ruleListSnapshot(rules); // taken again: the list grew
 * ```
 */
export function sameRuleList(snap: RuleListSnapshot, rules: readonly PermissionRule[]): boolean {
  if (snap.frozen) return true;
  if (snap.rules.length !== rules.length) return false;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (
      snap.rules[i] !== rule ||
      snap.names[i] !== rule.toolName ||
      snap.contents[i] !== rule.ruleContent ||
      snap.roots[i] !== rule.root
    )
      return false;
  }
  return true;
}
