import { lintRules } from '@toolshed/core';

/** The rule flags of a command line, and what `./x` in them is relative to. */
export interface RuleFlags {
  cwd: string;
  allow: readonly string[];
  deny: readonly string[];
  ask: readonly string[];
}

/**
 * What is wrong with the rules given as `--allow`, `--deny` and `--ask`, one line per problem,
 * for the commands that run with them (`call`, `check`, `run`, `mcp serve`, …): a rule naming a
 * tool the pool lacks gets the closest name (`bash(ls:*)` → `Bash(ls:*)`: tool names are
 * case-sensitive), a backslash in a path rule gets the `/` form, a malformed specifier its fix.
 * The same findings as `toolshed rules lint`, so the two never disagree; the command still runs.
 *
 * @param flags The rule flags and the working directory.
 * @param toolNames The names (and aliases) of the tools in the session's pool.
 * @returns One warning per finding, naming the flag: `--allow "bash(ls:*)": …`.
 *
 * @example
 * ```ts
 * import { flagRuleWarnings } from './_flag_rule_warnings.ts';
 *
 * flagRuleWarnings({ cwd: '/p', allow: ['bash(ls:*)'], deny: [], ask: [] }, ['Bash', 'Read']);
 * // ['--allow "bash(ls:*)": Rule "bash(ls:*)" names the tool "bash", but tool names are case-sensitive …']
 * ```
 */
export function flagRuleWarnings(flags: RuleFlags, toolNames: readonly string[]): string[] {
  const findings = lintRules([{ source: 'cli', allow: flags.allow, deny: flags.deny, ask: flags.ask }], {
    cwd: flags.cwd,
    toolNames,
  });
  return findings
    .filter((finding) => finding.source === 'cli')
    .map((finding) => `--${finding.behavior} "${finding.rule}": ${finding.message}`);
}
