import { parseRule } from '@toolshed/core/internal';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { isKnownProgram, ruleBehindUnknownProgram } from './_hidden_commands.ts';

const deny = (raw: string) => parseRule(raw, { behavior: 'deny', source: 'options' });
const ask = (raw: string) => parseRule(raw, { behavior: 'ask', source: 'options' });

beforeAll(async () => {
  await loadBashParser();
});

describe('ruleBehindUnknownProgram', () => {
  test('finds the command an unknown program may run, from the word a rule begins with', () => {
    const found = ruleBehindUnknownProgram('perf stat -e cycles rm -rf build', [deny('Bash(rm:*)')]);
    expect(found?.rule.raw).toBe('Bash(rm:*)');
    expect(found?.why).toBe('`perf` is a program the guard does not know, and its words may run `rm -rf build`');
  });

  test('a multi-word rule needs its whole prefix: `git push` but not `git status`', () => {
    const rules = [ask('Bash(git push:*)')];
    expect(ruleBehindUnknownProgram('ssh host git push origin', rules)?.rule.raw).toBe('Bash(git push:*)');
    expect(ruleBehindUnknownProgram('ssh host git status', rules)).toBeUndefined();
  });

  test('a word that is a command string is read as a command, and so is a here-string', () => {
    const rules = [deny('Bash(rm:*)')];
    expect(ruleBehindUnknownProgram("fish -c 'ls; rm x'", rules)?.why).toContain('`rm x`');
    expect(ruleBehindUnknownProgram("at now <<< 'rm x'", rules)?.why).toContain('`rm x`');
  });

  test('looks through known wrappers first: `nice perf stat rm x`', () => {
    expect(ruleBehindUnknownProgram('nice -n 5 perf stat rm x', [deny('Bash(rm:*)')])?.why).toContain('`perf`');
  });

  test('a program named only when it runs may be anything a rule names', () => {
    expect(ruleBehindUnknownProgram('$RUN x', [deny('Bash(rm:*)')])?.why).toContain('`$RUN`');
  });

  test('known programs are not looked into: their words are not commands', () => {
    const rules = [deny('Bash(rm:*)')];
    for (const command of ['echo rm x', 'git rm x', 'grep -r rm .', 'printf "%s" "rm x"']) {
      expect(ruleBehindUnknownProgram(command, rules), command).toBeUndefined();
    }
  });

  test('nothing to find without a rule with a specifier, or without a match', () => {
    expect(ruleBehindUnknownProgram('perf stat rm x', [deny('Bash')])).toBeUndefined();
    expect(ruleBehindUnknownProgram('perf stat ls', [deny('Bash(rm:*)')])).toBeUndefined();
  });

  test('past 64 places to look it stops and asks (fail closed), without reading them', () => {
    const many = `mytool ${Array.from({ length: 65 }, () => 'rm').join(' ')}`;
    expect(ruleBehindUnknownProgram(many, [deny('Bash(rm -rf /:*)')])?.why).toContain('65 places');
  });

  test('a long command whose words begin no rule matches nothing', () => {
    const long = `mytool ${'a '.repeat(9_000)}`;
    expect(ruleBehindUnknownProgram(long, [deny('Bash(rm:*)')])).toBeUndefined();
  });
});

describe('isKnownProgram', () => {
  test('tabled and handled programs are known; others are not', () => {
    for (const name of ['cat', 'rm', 'git', 'find', 'timeout', 'setsid', 'bash', 'eval', 'echo']) {
      expect(isKnownProgram(name), name).toBe(true);
    }
    for (const name of ['perf', 'firejail', 'ssh', 'docker', 'make']) expect(isKnownProgram(name), name).toBe(false);
  });
});
