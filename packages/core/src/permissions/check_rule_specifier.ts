import { PATH_RULE_COVERAGE } from './path_guard.ts';
import { parsePathSpecifier } from './path_rule.ts';
import { formatRule } from './rule_parser.ts';
import type { PermissionRule } from './types.ts';

/**
 * Checks what the grammar alone cannot: a rule that parses but can never mean what it says.
 * A Bash specifier with `:*` anywhere but at its end (`Bash(npm test:* --watch)`), or a
 * mangled prefix (`npm test*:`, `npm test::*`, `npm test:**`); a negated path pattern
 * (`Read(!./src/**)`). Settings with such a rule are rejected, since the rule would silently
 * match something else.
 *
 * @param rule A parsed rule.
 * @returns A message naming the rule and the fix, or undefined when the rule is fine.
 *
 * @example
 * ```ts
 * import { checkRuleSpecifier, parseRule } from '@toolshed/core/internal';
 *
 * checkRuleSpecifier(parseRule('Bash(npm test*:)', { behavior: 'allow', source: 'options' }));
 * // 'Permission rule "Bash(npm test*:)" … did you mean "Bash(npm test:*)"?'
 * ```
 */
export function checkRuleSpecifier(rule: Pick<PermissionRule, 'toolName' | 'ruleContent' | 'raw'>): string | undefined {
  const content = rule.ruleContent;
  if (content === undefined) return undefined;
  if (rule.toolName === 'Bash') {
    const typo = /^(.*?)\s*(?:\*:|::\*|:\*\*+|:\s+\*)$/s.exec(content);
    if (typo && typo[1] !== undefined && typo[1] !== '') {
      const fixed = formatRule({ toolName: rule.toolName, ruleContent: `${typo[1]}:*` });
      return `Permission rule "${rule.raw}" has a mangled prefix wildcard: did you mean "${fixed}"? (":*" at the end means "this command, then anything")`;
    }
    const at = content.indexOf(':*');
    if (at !== -1 && at !== content.length - 2) {
      const head = content.slice(0, at);
      const fixed = formatRule({ toolName: rule.toolName, ruleContent: `${head}:*` });
      const wildcard = formatRule({ toolName: rule.toolName, ruleContent: content.replace(':*', ' *') });
      return `Permission rule "${rule.raw}" has ":*" before its end, where it is not a prefix wildcard: ":*" only works at the end; did you mean "${fixed}"? For a wildcard in the middle write "*", as in "${wildcard}"`;
    }
  }
  if (PATH_RULE_COVERAGE.Read.includes(rule.toolName) || PATH_RULE_COVERAGE.Edit.includes(rule.toolName)) {
    try {
      parsePathSpecifier(content);
    } catch (e) {
      return `Permission rule "${rule.raw}": ${(e as Error).message}`;
    }
  }
  return undefined;
}

/**
 * A Bash rule whose specifier ends in a word and `*` with no boundary (`Bash(npm test*)`): valid,
 * and in Claude Code it means what it says, but it also matches `npm testx`, which is rarely
 * meant. Settings load it with a warning; `lintRules` reports it as a warning.
 *
 * @param rule A parsed rule.
 * @returns The warning with the `:*` form to use instead, or undefined.
 *
 * @example
 * ```ts
 * import { loosePrefixHint, parseRule } from '@toolshed/core/internal';
 *
 * loosePrefixHint(parseRule('Bash(npm test*)', { behavior: 'allow', source: 'options' }));
 * // 'Rule "Bash(npm test*)" also matches commands that merely start with the same letters (such as "npm testx"): did you mean "Bash(npm test:*)"?'
 * ```
 */
export function loosePrefixHint(rule: Pick<PermissionRule, 'toolName' | 'ruleContent' | 'raw'>): string | undefined {
  if (rule.toolName !== 'Bash' || rule.ruleContent === undefined) return undefined;
  const loose = /^(.*[A-Za-z0-9_])\*$/s.exec(rule.ruleContent);
  if (!loose || loose[1]!.includes('*')) return undefined;
  const fixed = formatRule({ toolName: rule.toolName, ruleContent: `${loose[1]}:*` });
  return `Rule "${rule.raw}" also matches commands that merely start with the same letters (such as "${loose[1]}x"): did you mean "${fixed}"?`;
}
