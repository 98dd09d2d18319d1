import { describe, expect, test } from 'vitest';
import { ToolshedError } from '../errors.ts';
import { formatRule, parseRule, parseRules } from './rule_parser.ts';

describe('parseRule', () => {
  const valid: [raw: string, toolName: string, ruleContent: string | undefined][] = [
    ['Bash', 'Bash', undefined],
    ['  Bash  ', 'Bash', undefined],
    ['Bash(npm test:*)', 'Bash', 'npm test:*'],
    ['  Bash(npm test:*)\n', 'Bash', 'npm test:*'],
    ['Bash(git diff *)', 'Bash', 'git diff *'],
    ['Bash()', 'Bash', undefined],
    ['Bash(*)', 'Bash', undefined],
    ['Bash(python -c "print(1)")', 'Bash', 'python -c "print(1)"'],
    ['Bash(echo "\\(")', 'Bash', 'echo "("'],
    ['Bash(echo \\) done)', 'Bash', 'echo ) done'],
    ['Bash(echo \\*)', 'Bash', 'echo \\*'],
    ['Bash(printf a\\\\b)', 'Bash', 'printf a\\b'],
    ['Read(./src/**)', 'Read', './src/**'],
    ['Edit(//etc/**)', 'Edit', '//etc/**'],
    ['WebFetch(domain:example.com)', 'WebFetch', 'domain:example.com'],
    ['Agent(Explore)', 'Agent', 'Explore'],
    ['my-tool_2', 'my-tool_2', undefined],
    ['mcp__github', 'mcp__github', undefined],
    ['mcp__github__*', 'mcp__github__*', undefined],
    ['mcp__github__create_issue', 'mcp__github__create_issue', undefined],
    ['mcp__my-server__list_files', 'mcp__my-server__list_files', undefined],
  ];
  test.each(valid)('parses %j as tool %j with specifier %j', (raw, toolName, ruleContent) => {
    const rule = parseRule(raw, { behavior: 'allow', source: 'options' });
    expect(rule.toolName).toBe(toolName);
    expect(rule.ruleContent).toBe(ruleContent);
    expect('ruleContent' in rule).toBe(ruleContent !== undefined);
  });

  test('keeps the behaviour, the source and the trimmed rule as written', () => {
    expect(parseRule(' Bash(rm:*) ', { behavior: 'deny', source: '/p/.toolshed/settings.json' })).toEqual({
      toolName: 'Bash',
      ruleContent: 'rm:*',
      behavior: 'deny',
      source: '/p/.toolshed/settings.json',
      raw: 'Bash(rm:*)',
    });
  });

  const malformed: [raw: string, messagePart: string][] = [
    ['', 'Permission rule "" is empty: write a tool name such as "Bash"'],
    ['   ', 'Permission rule "" is empty'],
    [
      'Bash(npm test',
      'Permission rule "Bash(npm test" is missing its closing ")": write "Bash(npm test)" or "Bash(npm test:*)"',
    ],
    ['Bash(npm test:*', 'Permission rule "Bash(npm test:*" is missing its closing ")": write "Bash(npm test:*)"'],
    [
      'Bash(python -c "print(1)"',
      'is missing its closing ")": close it, or escape parentheses inside the specifier as \\( and \\): for example "Bash(python -c "print(1)")"',
    ],
    [
      'Bash(echo "(")',
      'is missing its closing ")": close it, or escape parentheses inside the specifier as \\( and \\): for example "Bash(echo "\\(")"',
    ],
    ['Bash(ls) -la', 'Permission rule "Bash(ls) -la" has text after its closing ")" (` -la`)'],
    ['Bash(ls) -la', 'for example "Bash(ls -la)"'],
    ['Bash(echo ")")', 'has text after its closing ")" (`")`)'],
    ['Bash(echo ")")', 'for example "Bash(echo "\\)")"'],
    ['Bash)', 'Permission rule "Bash)" has a ")" without an opening "("'],
    ['(npm test)', 'Permission rule "(npm test)" has no tool name before "(": write the tool first'],
    ['Bash (ls)', 'Permission rule "Bash (ls)" has a space between the tool name and "(": write "Bash(ls)"'],
    ['Web Fetch', 'has an invalid tool name "Web Fetch" (bad characters: " ")'],
    ['Bash.exe(ls)', 'has an invalid tool name "Bash.exe" (bad characters: ".")'],
    ['*', 'has an invalid tool name "*"'],
    ['mcp__*', 'has an invalid tool name "mcp__*"'],
    ['Bäsh', 'bad characters: "ä"'],
  ];
  test.each(malformed)('rejects %j with a message that says %j', (raw, messagePart) => {
    let error: unknown;
    try {
      parseRule(raw, { behavior: 'allow', source: 'options' });
    } catch (e) {
      error = e;
    }
    expect(ToolshedError.isInstance(error)).toBe(true);
    expect((error as ToolshedError).code).toBe('permission_rule_invalid');
    expect((error as ToolshedError).message).toContain(messagePart);
  });

  test('names the list and the source of a malformed rule', () => {
    expect(() => parseRule('Bash(x', { behavior: 'deny', source: '/p/.toolshed/settings.json' })).toThrow(
      '(permissions.deny, from /p/.toolshed/settings.json)',
    );
  });

  test('rejects a rule that is not a string, saying what it got', () => {
    expect(() => parseRule(42 as unknown as string, { behavior: 'allow', source: 'options' })).toThrow(
      'Permission rule 42 (a number) is not a string',
    );
  });

  test('suggests a fix that itself parses, for every fixable malformed rule', () => {
    for (const raw of ['Bash(npm test', 'Bash(echo "("', 'Bash(echo "(")', 'Bash(ls) -la', 'Bash(a) b)', 'Bash (ls)']) {
      let message = '';
      try {
        parseRule(raw, { behavior: 'allow', source: 'options' });
      } catch (e) {
        message = (e as Error).message;
      }
      const fix = /(?:write|for example) "(.*?)"(?: or | \(permissions)/.exec(message)?.[1];
      expect(fix, message).toBeDefined();
      expect(() => parseRule(fix!, { behavior: 'allow', source: 'options' }), `${raw} → ${fix}`).not.toThrow();
    }
  });
});

describe('parseRules', () => {
  test('collects every malformed rule instead of stopping at the first', () => {
    const { rules, errors } = parseRules(['Read', 'Bash(npm test', 'Bash(git diff *)', 'Web Fetch'], {
      behavior: 'allow',
      source: 'cli',
    });
    expect(rules.map((r) => r.raw)).toEqual(['Read', 'Bash(git diff *)']);
    expect(rules.every((r) => r.behavior === 'allow' && r.source === 'cli')).toBe(true);
    expect(errors.map((e) => e.code)).toEqual(['permission_rule_invalid', 'permission_rule_invalid']);
    expect(errors[0]!.message).toContain('"Bash(npm test"');
    expect(errors[1]!.message).toContain('"Web Fetch"');
  });

  test('returns no rules and no errors for an empty list', () => {
    expect(parseRules([], { behavior: 'deny', source: 'options' })).toEqual({ rules: [], errors: [] });
  });
});

describe('formatRule', () => {
  const cases: [toolName: string, ruleContent: string | undefined, expected: string][] = [
    ['WebFetch', undefined, 'WebFetch'],
    ['Bash', 'npm test:*', 'Bash(npm test:*)'],
    ['Bash', 'python -c "print(1)"', 'Bash(python -c "print(1)")'],
    ['Bash', 'echo ")"', 'Bash(echo "\\)")'],
    ['Bash', 'echo (', 'Bash(echo \\()'],
    ['Bash', 'echo \\*', 'Bash(echo \\*)'],
    ['Bash', 'a\\', 'Bash(a\\\\)'],
    ['Bash', '*', 'Bash(*)'],
    ['mcp__github__*', undefined, 'mcp__github__*'],
  ];
  test.each(cases)('writes %j with specifier %j as %j', (toolName, ruleContent, expected) => {
    expect(formatRule({ toolName, ruleContent })).toBe(expected);
  });

  const contents = [
    'npm test:*',
    'python -c "print(1)"',
    'echo ")"',
    'echo (',
    ')(',
    'a\\',
    'a\\(b',
    'x\\\\)',
    'echo \\*',
    'say \\n',
    '((a)',
  ];
  test.each(contents)('writes specifier %j so that parseRule reads it back unchanged', (ruleContent) => {
    const text = formatRule({ toolName: 'Bash', ruleContent });
    expect(parseRule(text, { behavior: 'allow', source: 'options' }).ruleContent).toBe(ruleContent);
  });
});
