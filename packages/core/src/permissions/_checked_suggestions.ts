import type { ToolContext } from '../tool.ts';
import { PATH_RULE_COVERAGE } from './path_guard.ts';
import { parseRule } from './rule_parser.ts';
import type { PermissionDecision, PermissionRule } from './types.ts';

/**
 * Rules as a reason names them: `"A"`, `"A" and "B"`, `"A", "B" and "C"`.
 *
 * @example
 * ```ts
 * import { quotedRules } from '@toolshed/core/internal';
 *
 * quotedRules(['Bash(npm test:*)', 'Edit(//opt/x/**)']); // '"Bash(npm test:*)" and "Edit(//opt/x/**)"'
 * ```
 */
export function quotedRules(rules: readonly string[]): string {
  const quoted = rules.map((r) => `"${r}"`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** What {@linkcode checkedSuggestions} needs besides the decision. */
export interface CheckedSuggestionsOptions {
  ctx: ToolContext;
  /** The rules the tool itself suggests for the call (its `permissionSuggestions`). */
  toolSuggestions: () => readonly string[];
  /** The same decision again, made under another context (no suggestions checked there). */
  redecide: (ctx: ToolContext) => Promise<PermissionDecision>;
}

/**
 * An ask's suggestions, tried before they are offered: added to the allow rules, they must allow
 * the very call. Where they do not (a path rule for a shell command that also needs the command's
 * own rule), the tool's own suggestions are added and tried — not its path rules: the paths are
 * the decision's. Where that does not allow it either, nothing is suggested and the reason says a
 * person must approve. Advice that leaves the call asking only teaches the user to widen rules
 * that do not help.
 *
 * @example
 * ```ts
 * import type { PermissionDecision, ToolContext } from '@toolshed/core';
 * import { checkedSuggestions } from './_checked_suggestions.ts';
 * declare const ctx: ToolContext;
 * declare const ask: PermissionDecision;
 * declare function decideUnder(ctx: ToolContext): Promise<PermissionDecision>;
 *
 * const offered = await checkedSuggestions(ask, { ctx, toolSuggestions: () => ['Bash(cp a.txt:*)'], redecide: decideUnder });
 * ```
 */
export async function checkedSuggestions(
  decision: PermissionDecision,
  { ctx, toolSuggestions, redecide }: CheckedSuggestionsOptions,
): Promise<PermissionDecision> {
  const offered = decision.suggestions ?? [];
  if (decision.behavior !== 'ask' || offered.length === 0) return decision;
  if (await allowsWith(offered, { ctx, redecide })) return decision;
  // The tool adds rules for itself only: the paths are the decision's (a tool's own `Edit(//**)`
  // or bare `Edit` would allow writes far past the paths the call names).
  const extra = safely(toolSuggestions).filter((s) => !offered.includes(s) && !isPathRule(s));
  if (extra.length > 0) {
    const both = [...offered, ...extra];
    if (await allowsWith(both, { ctx, redecide }))
      return {
        ...decision,
        reason: decision.reason.replace(quotedRules(offered), quotedRules(both)),
        suggestions: both,
      };
  }
  return { ...decision, reason: withoutAdvice(decision.reason, offered), suggestions: [] };
}

/** Whether the call is allowed once `rules` are added to the allow rules. */
async function allowsWith(
  rules: readonly string[],
  { ctx, redecide }: Pick<CheckedSuggestionsOptions, 'ctx' | 'redecide'>,
): Promise<boolean> {
  let parsed: PermissionRule[];
  try {
    parsed = rules.map((raw) => parseRule(raw, { behavior: 'allow', source: 'suggestion' }));
  } catch {
    return false; // a suggestion that does not even parse helps nobody
  }
  const { permissions } = ctx;
  const tried: ToolContext = {
    ...ctx,
    permissions: { ...permissions, rules: { ...permissions.rules, allow: [...permissions.rules.allow, ...parsed] } },
  };
  try {
    return (await redecide(tried)).behavior === 'allow';
  } catch {
    return false;
  }
}

const PATH_TOOLS = new Set<string>(['Read', 'Edit', ...PATH_RULE_COVERAGE.Read, ...PATH_RULE_COVERAGE.Edit]);

/** Whether a rule is about paths (`Edit(…)`, `Read`, `Write(…)`); one that does not parse is dropped later. */
function isPathRule(raw: string): boolean {
  try {
    return PATH_TOOLS.has(parseRule(raw, { behavior: 'allow', source: 'suggestion' }).toolName);
  } catch {
    return false;
  }
}

function safely(list: () => readonly string[]): readonly string[] {
  try {
    return list();
  } catch {
    return [];
  }
}

/** The reason without the rule it offered: the phrases the decision steps write around a suggestion. */
function withoutAdvice(reason: string, offered: readonly string[]): string {
  const rules = quotedRules(offered);
  const cut = reason
    .replace(`; allow it with ${rules} or add its directory to permissions.additionalDirectories`, '')
    .replace(`; allow it with ${rules}`, '')
    .replace(` (such as ${rules})`, '');
  return `${cut}; no rule is suggested: no rule for this call alone would allow it, so a person must approve it`;
}
