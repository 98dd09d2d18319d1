import { beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { classifyCommand } from './classify_command.ts';
import { READ_ONLY_PROGRAMS } from './read_only_rules.ts';
import { NOT_READ_ONLY_EXAMPLES as NOT_READ_ONLY, READ_ONLY_EXAMPLES as READ_ONLY } from './classification_examples.ts';

beforeAll(async () => {
  await loadBashParser();
});

describe('read-only classification', () => {
  test(`${NOT_READ_ONLY.length} adversarial commands are not read-only`, () => {
    expect(NOT_READ_ONLY.length).toBeGreaterThanOrEqual(100);
    const wronglyReadOnly = NOT_READ_ONLY.filter((c) => classifyCommand(c).readOnly);
    expect(wronglyReadOnly).toEqual([]);
  });

  test(`${READ_ONLY.length} everyday commands are read-only`, () => {
    expect(READ_ONLY.length).toBeGreaterThanOrEqual(40);
    const refused = READ_ONLY.map((c) => ({ c, ...classifyCommand(c) })).filter((r) => !r.readOnly);
    expect(refused).toEqual([]);
  });

  test('a refusal names what is not read-only', () => {
    expect(classifyCommand('find . -delete').reason).toContain('-delete');
    expect(classifyCommand('PAGER=x git log').reason).toContain('PAGER=x');
    expect(classifyCommand('ls > out.txt').reason).toContain('out.txt');
    expect(classifyCommand('echo ${x@P}').reason).toContain('@P');
    expect(classifyCommand('rm x').reason).toContain('`rm` is not in the read-only allowlist');
    expect(classifyCommand('ls (').reason).toContain('could not be fully parsed');
  });

  test('every allowlisted program has a one-line reason', () => {
    for (const [name, rule] of Object.entries(READ_ONLY_PROGRAMS)) {
      expect(rule.reason, name).toMatch(/^[^\n]{5,160}$/);
    }
  });
});
