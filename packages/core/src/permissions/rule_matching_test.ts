import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { createPermissionContext } from './permission_context.ts';
import { parseRule } from './rule_parser.ts';
import {
  findBlanketDenyRule,
  matchDomainSpecifier,
  matchWildcardSpecifier,
  ruleMatchesCall,
  ruleMatchesTool,
} from './rule_matching.ts';
import type { PermissionBehavior } from './types.ts';

function tool(name: string, extra: { aliases?: string[]; isMcp?: boolean } = {}) {
  return buildTool({
    name,
    description: 'test tool',
    inputSchema: z.object({ command: z.string() }),
    async call() {
      return { data: '' };
    },
    ...extra,
  });
}

const seen: [string, PermissionBehavior][] = [];
const shell = buildTool({
  name: 'Shell',
  aliases: ['OldShell'],
  description: 'runs a command',
  inputSchema: z.object({ command: z.string() }),
  preparePermissionMatcher:
    ({ command }) =>
    (content, behavior) => {
      seen.push([content, behavior]);
      return matchWildcardSpecifier(content, command);
    },
  async call() {
    return { data: '' };
  },
});

describe('matchWildcardSpecifier', () => {
  const table: [pattern: string, value: string, matches: boolean][] = [
    // `prefix:*`: the prefix at a word boundary, then anything.
    ['npm test:*', 'npm test', true],
    ['npm test:*', 'npm test -- --watch', true],
    ['npm test:*', 'npm test\t--ci', true],
    ['npm test:*', 'npm testx', false],
    ['npm test:*', 'npm tes', false],
    ['npm test:*', 'xnpm test', false],
    ['npm test:*', ' npm test', false],
    ['rm:*', 'rm -rf /', true],
    ['rm:*', 'rmdir x', false],
    [':*', 'anything at all', true],
    // A trailing ` *` is the same word-boundary prefix.
    ['git diff *', 'git diff', true],
    ['git diff *', 'git diff HEAD~1 -- src', true],
    ['git diff *', 'git diffx', false],
    ['git diff *', 'git dif', false],
    ['ls *', 'lsof', false],
    // Other stars: any run of characters.
    ['git * main', 'git push origin main', true],
    ['git * main', 'git main', false],
    ['git * main', 'git push origin main --force', false],
    ['*.test.ts', 'src/a.test.ts', true],
    ['*.test.ts', 'src/a.test.tsx', false],
    ['docker * run *', 'docker compose run web', true],
    ['docker * run *', 'docker compose run', true],
    ['docker * run *', 'docker compose runx', false],
    ['*', '', true],
    ['*', 'rm -rf /', true],
    ['echo *', 'echo a\nrm -rf /', true],
    // `\*` is a literal star.
    ['echo \\*', 'echo *', true],
    ['echo \\*', 'echo hello', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    // Exact match, with regular-expression characters taken literally.
    ['npm test', 'npm test', true],
    ['npm test', 'npm test --watch', false],
    ['npm test', 'npm tes', false],
    ['a.b', 'axb', false],
    ['(x)+[y]$', '(x)+[y]$', true],
    ['', '', true],
    ['', 'x', false],
  ];
  test.each(table)('pattern %j against %j is %s', (pattern, value, matches) => {
    expect(matchWildcardSpecifier(pattern, value)).toBe(matches);
  });

  test('answers for a pattern of many stars against a long value that does not match (no backtracking blow-up)', () => {
    const pattern = `${'a*'.repeat(30)}b`;
    const value = 'a'.repeat(20_000);
    expect(matchWildcardSpecifier(pattern, value)).toBe(false);
  });
});

describe('ruleMatchesTool', () => {
  const cases: [rule: string, toolName: string, aliases: string[], matches: boolean][] = [
    ['Bash', 'Bash', [], true],
    ['Bash', 'bash', [], false],
    ['Bash', 'BashOutput', [], false],
    ['Task', 'Agent', ['Task'], true],
    ['Agent', 'Agent', ['Task'], true],
    ['mcp__github', 'mcp__github__create_issue', [], true],
    ['mcp__github', 'mcp__github', [], true],
    ['mcp__github', 'mcp__githubx__list', [], false],
    ['mcp__github', 'mcp__git__list', [], false],
    ['mcp__github__*', 'mcp__github__create_issue', [], true],
    ['mcp__github__*', 'mcp__github__', [], false],
    ['mcp__github__*', 'mcp__gitlab__create_issue', [], false],
    ['mcp__github__create_issue', 'mcp__github__create_issue', [], true],
    ['mcp__github__create_issue', 'mcp__github__create_issue_comment', [], false],
    ['mcp__github__create_issue', 'mcp__github__list', [], false],
  ];
  test.each(cases)('rule %j names tool %j (aliases %j): %s', (raw, name, aliases, matches) => {
    expect(ruleMatchesTool(parseRule(raw, { behavior: 'deny', source: 'options' }), tool(name, { aliases }))).toBe(
      matches,
    );
  });

  test('judges MCP server-wide rules by the name, with or without isMcp', () => {
    const rule = parseRule('mcp__fs', { behavior: 'deny', source: 'options' });
    expect(ruleMatchesTool(rule, tool('mcp__fs__read', { isMcp: true }))).toBe(true);
    expect(ruleMatchesTool(rule, tool('mcp__fs__read', { isMcp: false }))).toBe(true);
    expect(ruleMatchesTool(rule, tool('Read', { isMcp: true }))).toBe(false);
  });

  test('works on a bare name and aliases, as the pool asks before loading a tool', () => {
    expect(
      ruleMatchesTool(parseRule('WebFetch', { behavior: 'deny', source: 'options' }), {
        name: 'WebFetch',
        aliases: [],
      }),
    ).toBe(true);
  });
});

describe('ruleMatchesCall', () => {
  test('a rule without a specifier matches every call of the tool it names', async () => {
    expect(
      await ruleMatchesCall(parseRule('Shell', { behavior: 'allow', source: 'options' }), shell, {
        input: { command: 'anything' },
      }),
    ).toBe(true);
    expect(
      await ruleMatchesCall(parseRule('Other', { behavior: 'allow', source: 'options' }), shell, {
        input: { command: 'anything' },
      }),
    ).toBe(false);
  });

  test('a rule with a specifier matches through the matcher, which gets the content and the behaviour', async () => {
    seen.length = 0;
    expect(
      await ruleMatchesCall(parseRule('Shell(npm test:*)', { behavior: 'deny', source: 'options' }), shell, {
        input: { command: 'npm test -w' },
      }),
    ).toBe(true);
    expect(
      await ruleMatchesCall(parseRule('Shell(npm test:*)', { behavior: 'allow', source: 'options' }), shell, {
        input: { command: 'npm testx' },
      }),
    ).toBe(false);
    expect(seen).toEqual([
      ['npm test:*', 'deny'],
      ['npm test:*', 'allow'],
    ]);
  });

  test('an alias with a specifier matches through the tool matcher', async () => {
    expect(
      await ruleMatchesCall(parseRule('OldShell(git diff *)', { behavior: 'allow', source: 'options' }), shell, {
        input: { command: 'git diff HEAD' },
      }),
    ).toBe(true);
  });

  test('uses the matcher it is given instead of preparing one', async () => {
    const rule = parseRule('Shell(anything)', { behavior: 'allow', source: 'options' });
    expect(await ruleMatchesCall(rule, shell, { input: { command: 'npm test' }, matcher: () => true })).toBe(true);
    expect(await ruleMatchesCall(rule, shell, { input: { command: 'anything' }, matcher: () => false })).toBe(false);
  });

  test('a tool without a matcher never matches a rule with a specifier', async () => {
    const plain = tool('Plain');
    expect(
      await ruleMatchesCall(parseRule('Plain(x)', { behavior: 'deny', source: 'options' }), plain, {
        input: { command: 'x' },
      }),
    ).toBe(false);
    expect(
      await ruleMatchesCall(parseRule('Plain', { behavior: 'deny', source: 'options' }), plain, {
        input: { command: 'x' },
      }),
    ).toBe(true);
  });

  test('counts only a true answer of the matcher as a match', async () => {
    const rule = parseRule('Shell(x)', { behavior: 'allow', source: 'options' });
    expect(await ruleMatchesCall(rule, shell, { input: {}, matcher: (() => 'yes') as unknown as () => boolean })).toBe(
      false,
    );
  });

  test('lets a throwing matcher throw, for the permission layer to deny', async () => {
    const rule = parseRule('Shell(x)', { behavior: 'deny', source: 'options' });
    await expect(
      ruleMatchesCall(rule, shell, {
        input: {},
        matcher: () => {
          throw new Error('bad matcher');
        },
      }),
    ).rejects.toThrow('bad matcher');
  });
});

describe('findBlanketDenyRule', () => {
  test('finds a deny rule without a specifier that names the tool, by name, alias or MCP server', () => {
    const { context } = createPermissionContext({ deny: ['Shell(rm:*)', 'OldShell', 'mcp__github'] }, '/p');
    expect(findBlanketDenyRule(shell, context)?.raw).toBe('OldShell');
    expect(findBlanketDenyRule({ name: 'mcp__github__list', aliases: [] }, context)?.raw).toBe('mcp__github');
    expect(findBlanketDenyRule({ name: 'Read', aliases: [] }, context)).toBeUndefined();
  });

  test('ignores deny rules with a specifier, which only deny some calls', () => {
    const { context } = createPermissionContext({ deny: ['Shell(rm:*)'] }, '/p');
    expect(findBlanketDenyRule(shell, context)).toBeUndefined();
  });
});

describe('matchDomainSpecifier', () => {
  const table: [content: string, url: string, matches: boolean][] = [
    ['domain:example.com', 'https://example.com/docs', true],
    ['domain:example.com', 'https://docs.example.com/x', true],
    ['domain:example.com', 'http://a.b.example.com:8080/', true],
    ['domain:example.com', 'https://EXAMPLE.com./', true],
    ['domain:example.com', 'example.com', true],
    ['domain:example.com', 'https://example.com.evil.test/', false],
    ['domain:example.com', 'https://notexample.com/', false],
    ['domain:example.com', 'https://evil.test/?u=example.com', false],
    ['domain:example.com', 'https://example.com@evil.test/', false],
    ['domain:*.example.com', 'https://docs.example.com/', true],
    ['domain:*.example.com', 'https://example.com/', false],
    ['domain:bücher.de', 'https://xn--bcher-kva.de/', true],
    ['example.com', 'https://example.com/', false],
    ['domain:example.com', 'not a url at all', false],
  ];
  test.each(table)('%j covers %j: %s', (content, url, matches) => {
    expect(matchDomainSpecifier(content, url)).toBe(matches);
  });
});

describe('path-rule coverage', () => {
  test('a blanket Edit rule names Write and NotebookEdit, a blanket Read rule names Glob and Grep', () => {
    for (const name of ['Edit', 'Write', 'NotebookEdit'])
      expect(ruleMatchesTool(parseRule('Edit', { behavior: 'deny', source: 'options' }), { name, aliases: [] })).toBe(
        true,
      );
    for (const name of ['Read', 'Glob', 'Grep'])
      expect(ruleMatchesTool(parseRule('Read', { behavior: 'deny', source: 'options' }), { name, aliases: [] })).toBe(
        true,
      );
    expect(
      ruleMatchesTool(parseRule('Edit', { behavior: 'deny', source: 'options' }), { name: 'Bash', aliases: [] }),
    ).toBe(false);
    expect(
      ruleMatchesTool(parseRule('Write', { behavior: 'deny', source: 'options' }), { name: 'Edit', aliases: [] }),
    ).toBe(false);
  });

  test('a blanket Edit deny rule takes Write out of the pool', () => {
    const { context } = createPermissionContext({ deny: ['Edit'] }, '/p');
    expect(findBlanketDenyRule({ name: 'Write', aliases: [] }, context)?.raw).toBe('Edit');
  });

  test("a Read rule with a path is the path guard's to match, not Grep's matcher", async () => {
    const grep = buildTool({
      name: 'Grep',
      description: 'searches',
      inputSchema: z.object({ command: z.string() }),
      preparePermissionMatcher: () => () => true,
      async call() {
        return { data: '' };
      },
    });
    expect(
      await ruleMatchesCall(parseRule('Read(./src/**)', { behavior: 'allow', source: 'options' }), grep, {
        input: { command: 'x' },
      }),
    ).toBe(false);
    expect(
      await ruleMatchesCall(parseRule('Grep(anything)', { behavior: 'allow', source: 'options' }), grep, {
        input: { command: 'x' },
      }),
    ).toBe(true);
  });
});
