/**
 * How many rules the permission checks have looked at in this process: each rule a check takes
 * from an index and judges against a call or a path counts one. A test reads it around a decision
 * to see that rules about other tools and other folders cost nothing (they are never looked at).
 */
let visits = 0;

/**
 * Counts one rule looked at.
 *
 * @example
 * ```ts
 * import { countRuleVisit } from './_rule_visits.ts';
 *
 * countRuleVisit();
 * ```
 */
export function countRuleVisit(): void {
  visits++;
}

/**
 * The rules looked at so far (see {@linkcode countRuleVisit}).
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { ruleVisits } from './_rule_visits.ts';
 *
 * const before = ruleVisits();
 * // … a decision …
 * ruleVisits() - before; // the rules it looked at
 * ```
 */
export function ruleVisits(): number {
  return visits;
}
