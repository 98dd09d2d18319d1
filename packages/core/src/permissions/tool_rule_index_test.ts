import { describe, expect, test } from 'vitest';
import { parseRule } from './rule_parser.ts';
import { ruleMatchesTool } from './rule_matching.ts';
import { toolRuleCandidates } from './tool_rule_index.ts';
import type { PermissionRule } from './types.ts';

const NAMES = [
  'Bash',
  'Read',
  'Edit',
  'Grep',
  'Write',
  'WebFetch',
  'Task',
  'mcp__gh',
  'mcp__gh__*',
  'mcp__gh__create_issue',
  'mcp__ghx',
  'mcp__a_',
  'mcp__a',
  'mcp__a__b__*',
  'mcp____*',
  'mcp__',
];

const TOOLS = [
  { name: 'Bash', aliases: [] },
  { name: 'Grep', aliases: [] },
  { name: 'Write', aliases: [] },
  { name: 'Agent', aliases: ['Task'] },
  { name: 'mcp__gh__create_issue', aliases: [] },
  { name: 'mcp__ghx__list', aliases: [] },
  { name: 'mcp__a___b', aliases: [] },
  { name: 'mcp__a__b__c', aliases: [] },
  { name: 'mcp____x', aliases: [] },
  { name: 'mcp__gh__', aliases: [] },
  { name: 'mcp__gh', aliases: [] },
];

describe('toolRuleCandidates', () => {
  test('gives exactly the rules ruleMatchesTool accepts, in list order', () => {
    // Built by hand: the parser refuses some of these names, the matcher must still agree on them.
    const rules: PermissionRule[] = [...NAMES, ...NAMES].map((name) => ({
      toolName: name,
      behavior: 'deny',
      source: 'options',
      raw: name,
    }));
    for (const tool of TOOLS) {
      const expected = rules.flatMap((rule, i) => (ruleMatchesTool(rule, tool) ? [i] : []));
      const got = toolRuleCandidates(rules, tool).filter((i) => ruleMatchesTool(rules[i]!, tool));
      expect(got, tool.name).toEqual(expected);
    }
  });

  test('looks at no rule about another tool, however many there are', () => {
    const rules = [
      ...Array.from({ length: 1000 }, (_, i) =>
        parseRule(`mcp__server${i}__tool`, { behavior: 'deny', source: 'options' }),
      ),
      parseRule('Bash(rm:*)', { behavior: 'deny', source: 'options' }),
    ];
    expect(toolRuleCandidates(rules, { name: 'Bash', aliases: [] })).toEqual([1000]);
    expect(toolRuleCandidates(rules, { name: 'Read', aliases: [] })).toEqual([]);
  });

  test('leaves out the rules with a specifier when asked to', () => {
    const rules = ['Read(./a/**)', 'Read', 'Grep(x)', 'mcp__gh__*', 'mcp__gh'].map((r) =>
      parseRule(r, { behavior: 'deny', source: 'options' }),
    );
    expect(toolRuleCandidates(rules, { name: 'Grep', aliases: [] })).toEqual([0, 1, 2]);
    expect(toolRuleCandidates(rules, { name: 'Grep', aliases: [] }, { specifiers: false })).toEqual([1]);
    expect(toolRuleCandidates(rules, { name: 'mcp__gh__x', aliases: [] }, { specifiers: false })).toEqual([3, 4]);
  });

  test('sees a rule pushed into a list it indexed before', () => {
    const rules: PermissionRule[] = [parseRule('Bash', { behavior: 'deny', source: 'options' })];
    expect(toolRuleCandidates(rules, { name: 'WebFetch', aliases: [] })).toEqual([]);
    rules.push(parseRule('WebFetch', { behavior: 'deny', source: 'options' }));
    expect(toolRuleCandidates(rules, { name: 'WebFetch', aliases: [] })).toEqual([1]);
  });
});
