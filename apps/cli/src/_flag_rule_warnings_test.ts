import { describe, expect, test } from 'vitest';
import { flagRuleWarnings } from './_flag_rule_warnings.ts';

const TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'Grep', 'Glob'];
const flags = (over: Partial<{ allow: string[]; deny: string[]; ask: string[] }>) => ({
  cwd: '/p',
  allow: [],
  deny: [],
  ask: [],
  ...over,
});

describe('flagRuleWarnings', () => {
  test('a rule tool name in the wrong case names the right one, and the fixed rule is clean', () => {
    const [warning, ...rest] = flagRuleWarnings(flags({ allow: ['bash(ls:*)'] }), TOOLS);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^--allow "bash\(ls:\*\)": .*case-sensitive.*write "Bash\(ls:\*\)"/);
    expect(flagRuleWarnings(flags({ allow: ['Bash(ls:*)'] }), TOOLS)).toEqual([]);
  });

  test('a typo in a tool name gets the closest name, and that name is clean', () => {
    const [warning] = flagRuleWarnings(flags({ deny: ['Raed(./.env)'] }), TOOLS);
    expect(warning).toMatch(/^--deny "Raed\(\.\/\.env\)": .*did you mean "Read"/);
    expect(flagRuleWarnings(flags({ deny: ['Read(./.env)'] }), TOOLS)).toEqual([]);
  });

  test('a backslash in a path rule gets the slash form, and that form is clean', () => {
    const [warning] = flagRuleWarnings(flags({ allow: ['Edit(src\\**)'] }), TOOLS);
    expect(warning).toContain('write "Edit(src/**)"');
    expect(flagRuleWarnings(flags({ allow: ['Edit(src/**)'] }), TOOLS)).toEqual([]);
  });

  test('no flags, no warnings', () => {
    expect(flagRuleWarnings(flags({}), TOOLS)).toEqual([]);
  });
});
