import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { matchWildcardSpecifier } from '../permissions/rule_matching.ts';
import { buildTool } from '../tool.ts';
import { hookConditionMatcher } from './hook_condition.ts';

/** A tool with a specifier matcher like Bash's: a compound command is split on `&&`. */
const shellLike = buildTool({
  name: 'Shell',
  aliases: ['OldShell'],
  description: 'Runs a command.',
  inputSchema: z.strictObject({ command: z.string() }),
  preparePermissionMatcher: ({ command }) => {
    const parts = command.split('&&').map((p) => p.trim());
    return (content, behavior) =>
      behavior === 'allow'
        ? parts.every((p) => matchWildcardSpecifier(content, p))
        : parts.some((p) => matchWildcardSpecifier(content, p));
  },
  async call() {
    return { data: '' };
  },
});

/** A file tool without a specifier matcher, as tool-fs's are. */
const fileLike = buildTool({
  name: 'Write',
  description: 'Writes a file.',
  inputSchema: z.strictObject({ file_path: z.string() }),
  async call() {
    return { data: '' };
  },
});

describe('hookConditionMatcher', () => {
  test('the rule must name the tool or one of its aliases, exactly', async () => {
    const holds = hookConditionMatcher(shellLike, { command: 'git push' }, { cwd: '/p' });
    expect(await holds('Shell')).toBe(true);
    expect(await holds('OldShell(git *)')).toBe(true);
    expect(await holds('Bash(git *)')).toBe(false);
    expect(await holds('Shel')).toBe(false);
  });

  test("a specifier goes through the tool's matcher as a deny rule: any part of a compound command", async () => {
    const holds = hookConditionMatcher(shellLike, { command: 'ls && git push origin main' }, { cwd: '/p' });
    expect(await holds('Shell(git push *)')).toBe(true);
    expect(await holds('Shell(npm *)')).toBe(false);
  });

  test("a file tool without a matcher: the path rule's forms, as permission rules read them, ~ expanded", async () => {
    const relative = hookConditionMatcher(fileLike, { file_path: 'src/a.ts' }, { cwd: '/p' });
    // Each of these names src/a.ts in /p (found in review: all but the bare glob were false, so a guard hook was skipped).
    for (const rule of ['Write(*.ts)', 'Write(src/**)', 'Write(./src/**)', 'Write(/src/**)', 'Write(//p/src/**)'])
      expect(await relative(rule), rule).toBe(true);
    for (const rule of ['Write(*.md)', 'Write(lib/**)', 'Write(//q/src/**)', 'Write(/p/src/*)'])
      expect(await relative(rule), rule).toBe(false);
    const home = hookConditionMatcher(fileLike, { file_path: '~/.ssh/config' }, { cwd: '/p', homeDir: '/h' });
    expect(await home('Write(~/.ssh/**)')).toBe(true);
    expect(await home('Write(//h/.ssh/*)')).toBe(true);
    const env = hookConditionMatcher(fileLike, { file_path: '/p/sub/.env' }, { cwd: '/p' });
    expect(await env('Write(.env)')).toBe(true);
    expect(await env('Write(./.env)')).toBe(false);
  });

  test('what cannot be told is undefined: a bad rule, no path to match, a matcher that throws', async () => {
    const holds = hookConditionMatcher(fileLike, { content: 'x' }, { cwd: '/p' });
    expect(await holds('Write(*.ts)')).toBeUndefined();
    expect(await holds('Write(')).toBeUndefined();
    const throwing = buildTool({
      name: 'Boom',
      description: 'Its matcher throws.',
      inputSchema: z.strictObject({}),
      preparePermissionMatcher: () => {
        throw new Error('boom');
      },
      async call() {
        return { data: '' };
      },
    });
    expect(await hookConditionMatcher(throwing, {}, { cwd: '/p' })('Boom(x)')).toBeUndefined();
    // Without a specifier the name alone decides, so a broken matcher does not matter.
    expect(await hookConditionMatcher(throwing, {}, { cwd: '/p' })('Boom')).toBe(true);
  });
});
