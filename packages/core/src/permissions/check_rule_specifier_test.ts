import { describe, expect, test } from 'vitest';
import { checkRuleSpecifier } from './check_rule_specifier.ts';
import { createPermissionContext } from './permission_context.ts';
import { parseRule } from './rule_parser.ts';

describe('checkRuleSpecifier', () => {
  const bad: [rule: string, fix: string][] = [
    ['Bash(npm test*:)', 'did you mean "Bash(npm test:*)"?'],
    ['Bash(npm test::*)', 'did you mean "Bash(npm test:*)"?'],
    ['Bash(npm test:**)', 'did you mean "Bash(npm test:*)"?'],
    ['Bash(npm test: *)', 'did you mean "Bash(npm test:*)"?'],
    [
      'Bash(npm test:* --watch)',
      'did you mean "Bash(npm test:*)"? For a wildcard in the middle write "*", as in "Bash(npm test * --watch)"',
    ],
    ['Read(!./src/**)', 'is negated'],
    ['Edit(!.env)', 'is negated'],
    [
      'Read(./.env )',
      'starts or ends with white space, so it would only match a name that does too: did you mean "./.env"?',
    ],
    ['Edit( src/**)', 'did you mean "src/**"?'],
    [
      'Read(.\\secrets\\**)',
      'uses "\\" as a path separator: permission rules use "/" on every system; did you mean "./secrets/**"?',
    ],
    ['Write(src\\a.ts)', 'did you mean "src/a.ts"?'],
    ['Grep(.\\secrets)', 'as a path separator'],
  ];
  test.each(bad)('rejects %j and says how to fix it', (raw, fix) => {
    const message = checkRuleSpecifier(parseRule(raw, { behavior: 'allow', source: 'options' }));
    expect(message).toContain(`Permission rule "${raw}"`);
    expect(message).toContain(fix);
  });

  test.each([
    'Bash',
    'Bash(npm test:*)',
    'Bash(npm test *)',
    'Bash(npm test*)',
    'Bash(git * main)',
    'Read(./src/**)',
    'Read(./literal\\*star)',
    'WebFetch(domain:*.example.com)',
    'Agent(Explore)',
    'mcp__github__create_issue',
  ])('accepts %j', (raw) => {
    expect(checkRuleSpecifier(parseRule(raw, { behavior: 'allow', source: 'options' }))).toBeUndefined();
  });

  test('createPermissionContext reports such a rule with its list and source, and leaves it out', () => {
    const { context, errors } = createPermissionContext({ allow: ['Bash(npm test:* --watch)', 'Read'] }, '/p', {
      source: '/p/.toolshed/settings.json',
    });
    expect(context.rules.allow.map((r) => r.raw)).toEqual(['Read']);
    expect(errors[0]?.code).toBe('permission_rule_invalid');
    expect(errors[0]?.message).toMatch(/\(permissions\.allow, from \/p\/\.toolshed\/settings\.json\)$/);
  });

  test('createPermissionContext sets the settings root on every rule and keeps the home directory', () => {
    const { context } = createPermissionContext(
      { deny: ['Read(/x)'], additionalDirectories: ['~/notes', 'rel'] },
      '/p',
      { source: 'f', root: '/r', homeDir: '/h', directoriesRelativeTo: '/r' },
    );
    expect(context.rules.deny[0]?.root).toBe('/r');
    expect(context.homeDir).toBe('/h');
    expect(context.workingDirectories).toEqual(['/p', '/h/notes', '/r/rel']);
  });
});
