import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDecision } from './check_command.ts';
import { cli, tempDir } from './_test_io.ts';
import { testTools as tools } from './_test_tools.ts';

/** A settings file whose PreToolUse hook leaves `hook-ran` in the cwd, so a test can tell if hooks ran. */
async function hookSettings(dir: string): Promise<string> {
  const file = path.join(dir, 'settings.json');
  await writeFile(
    file,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'touch hook-ran' }] }] },
    }),
  );
  return file;
}

describe('toolshed check', () => {
  test('check --json prints exactly behavior, reason, rule, source and suggestions', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Echo', '{"text":"x"}', '--json', '--cwd', cwd], { tools });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(['behavior', 'reason', 'rule', 'source', 'suggestions']);
    expect(out.behavior).toBe('allow');
    expect(typeof out.reason).toBe('string');
  });

  test('check does not run the tool nor its hooks, while call with the same settings runs both', async () => {
    const cwd = await tempDir();
    const settings = await hookSettings(cwd);
    const input = '{"file_path":"out.txt","content":"x"}';
    const checked = await cli(['check', 'Writer', input, '--json', '--yes', '--settings', settings, '--cwd', cwd], {
      tools,
    });
    expect(checked.code).toBe(0);
    expect(JSON.parse(checked.stdout).behavior).toBe('ask');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
    expect(existsSync(path.join(cwd, 'hook-ran'))).toBe(false);

    const called = await cli(['call', 'Writer', input, '--yes', '--settings', settings, '--cwd', cwd], { tools });
    expect(called.code).toBe(0);
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(true);
    expect(existsSync(path.join(cwd, 'hook-ran'))).toBe(true);
  });

  test('check says deny with the --deny rule that matched', async () => {
    const cwd = await tempDir();
    const r = await cli(
      [
        'check',
        'Writer',
        '{"file_path":"secret.txt","content":"x"}',
        '--deny',
        'Writer(secret*)',
        '--json',
        '--cwd',
        cwd,
      ],
      { tools },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ behavior: 'deny', rule: 'Writer(secret*)' });
    expect(out.source).toEqual(expect.any(String));
  });

  test('check names a --deny rule without a specifier, which removes the tool from the pool', async () => {
    const cwd = await tempDir();
    const r = await cli(
      ['check', 'Writer', '{"file_path":"a","content":"b"}', '--deny', 'Writer', '--json', '--cwd', cwd],
      { tools },
    );
    expect(JSON.parse(r.stdout)).toEqual({
      behavior: 'deny',
      reason: expect.stringContaining('left out of the pool'),
      rule: 'Writer',
      source: 'cli',
      suggestions: [],
    });
  });

  test('check names the settings file as the source of its blanket deny rule', async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, 'settings.json');
    await writeFile(file, JSON.stringify({ permissions: { deny: ['mcp__git'] } }));
    const r = await cli(['check', 'mcp__git__status', '{}', '--settings', file, '--json', '--cwd', cwd], { tools });
    expect(JSON.parse(r.stdout)).toMatchObject({ behavior: 'deny', rule: 'mcp__git', source: file });
  });

  test('check of a tool that does not exist and is named by no rule says so', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Nope', '{}', '--deny', 'Writer', '--json', '--cwd', cwd], { tools });
    expect(JSON.parse(r.stdout)).toMatchObject({
      behavior: 'deny',
      reason: expect.stringContaining('No such tool available: Nope'),
      rule: null,
    });
  });

  test('check of a mistyped tool name says which tool was meant', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Ecoh', '{"text":"x"}', '--cwd', cwd], { tools });
    expect(r.stdout).toContain('deny: No such tool available: Ecoh. Did you mean "Echo"?');
  });

  test('a rule flag naming a tool in the wrong case is warned about with the right name, and the fix is quiet', async () => {
    const cwd = await tempDir();
    const wrong = await cli(['check', 'Echo', '{"text":"x"}', '--allow', 'echo', '--deny', 'Writer', '--cwd', cwd], {
      tools,
    });
    expect(wrong.code).toBe(0);
    const warnings = wrong.stderr.split('\n').filter((l) => l.startsWith('toolshed: warn: --'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^toolshed: warn: --allow "echo": .*"Echo"/);
    const fixed = await cli(['check', 'Echo', '{"text":"x"}', '--allow', 'Echo', '--deny', 'Writer', '--cwd', cwd], {
      tools,
    });
    expect(fixed.stderr).not.toContain('toolshed: warn: --');
    expect(fixed.stdout).toMatch(/^allow: /);
  });

  test('a backslash in a path rule flag is warned about with the slash form', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Echo', '{"text":"x"}', '--allow', 'Edit(src\\**)', '--cwd', cwd], { tools });
    expect(r.stderr).toContain('toolshed: warn: --allow "Edit(src\\**)"');
    expect(r.stderr).toContain('write "Edit(src/**)"');
  });

  test('check says allow with the --allow rule that matched', async () => {
    const cwd = await tempDir();
    const r = await cli(
      [
        'check',
        'Writer',
        '{"file_path":"out.txt","content":"x"}',
        '--allow',
        'Writer(out.txt)',
        '--json',
        '--cwd',
        cwd,
      ],
      { tools },
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ behavior: 'allow', rule: 'Writer(out.txt)' });
  });

  test('check prints the decision as one line without --json', async () => {
    const cwd = await tempDir();
    const r = await cli(
      ['check', 'Writer', '{"file_path":"secret.txt","content":"x"}', '--deny', 'Writer(secret*)', '--cwd', cwd],
      { tools },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deny: .*rule "Writer\(secret\*\)" from cli.*\n$/);
    // Named once: the reason says the rule and its source, so they are not repeated after it.
    expect(r.stdout.split('Writer(secret*)').length - 1).toBe(1);
  });

  test('check reads the input from stdin when it is -', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Writer', '-', '--json', '--mode', 'plan', '--cwd', cwd], {
      tools,
      stdin: '{"file_path":"a","content":"b"}',
    });
    expect(JSON.parse(r.stdout).behavior).toBe('deny');
  });

  test('check of an input that fails the schema says deny and why', async () => {
    const cwd = await tempDir();
    const r = await cli(['check', 'Echo', '{}', '--json', '--cwd', cwd], { tools });
    expect(JSON.parse(r.stdout)).toMatchObject({ behavior: 'deny', rule: null });
  });

  test('check without the input argument is a usage error that shows the usage', async () => {
    const r = await cli(['check', 'Echo'], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing <json|->');
    expect(r.stderr).toContain('Usage: toolshed check <Tool> <json|->');
  });
});

describe('formatDecision', () => {
  test('formatDecision names the rule and its source when a rule decided', () => {
    expect(formatDecision({ behavior: 'deny', reason: 'Denied', rule: 'Bash', source: 'cli' })).toBe(
      'deny: Denied (rule "Bash" from cli)',
    );
  });

  test('formatDecision does not repeat the rule and source that the reason names already', () => {
    const reason = 'Denied by rule "Read(./.env)" from /p/.claude/settings.json: it covers the read of "/p/.env"';
    expect(formatDecision({ behavior: 'deny', reason, rule: 'Read(./.env)', source: '/p/.claude/settings.json' })).toBe(
      `deny: ${reason}`,
    );
    // The rule named, but not where it came from: the source is added.
    expect(formatDecision({ behavior: 'allow', reason: 'Allowed by rule "Read"', rule: 'Read', source: 'cli' })).toBe(
      'allow: Allowed by rule "Read" (rule "Read" from cli)',
    );
  });

  test('formatDecision names only the source when no rule decided', () => {
    expect(formatDecision({ behavior: 'allow', reason: 'Read-only', rule: null, source: 'mode' })).toBe(
      'allow: Read-only (from mode)',
    );
    expect(formatDecision({ behavior: 'ask', reason: 'Needs approval', rule: null, source: null })).toBe(
      'ask: Needs approval',
    );
  });
});
