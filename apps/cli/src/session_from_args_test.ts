import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildTool } from '@toolshed/core';
import type { CommonArgs } from './args.ts';
import { FAMILY_NAMES } from './families.ts';
import { mergePermissions, withSession } from './session_from_args.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { closerTool, counterTool, testTools as tools, writerTool } from './_test_tools.ts';
import { UsageError } from './usage_error.ts';

function argsFor(cwd: string, extra: Partial<CommonArgs> = {}): CommonArgs {
  return { cwd, families: [...FAMILY_NAMES], mode: undefined, allow: [], deny: [], ask: [], settings: undefined, mcpConfig: undefined, yes: false, json: false, ...extra };
}

async function settingsFile(dir: string, content: unknown): Promise<string> {
  const file = path.join(dir, 'settings.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe('mergePermissions', () => {
  test('mergePermissions lets --mode win over defaultMode and appends the flags rules to the file rules', () => {
    expect(mergePermissions(
      { mode: 'plan', allow: ['Read'], deny: ['WebFetch'], additionalDirectories: ['../x'] },
      { mode: 'acceptEdits', allow: ['Bash(ls)'], deny: [], ask: ['Edit'] },
    )).toEqual({ mode: 'acceptEdits', allow: ['Read', 'Bash(ls)'], deny: ['WebFetch'], ask: ['Edit'], additionalDirectories: ['../x'] });
  });

  test('mergePermissions keeps the file mode when --mode is absent', () => {
    expect(mergePermissions({ mode: 'dontAsk' }, { mode: undefined, allow: [], deny: [], ask: [] }).mode).toBe('dontAsk');
  });
});

describe('withSession', () => {
  test('withSession closes the session even when the command throws', async () => {
    const cwd = await tempDir();
    const { io } = fakeIo({ tools: [closerTool] });
    const failing = withSession(argsFor(cwd), io, async (session) => {
      await session.run([{ type: 'tool_use', id: 'c', name: 'Closer', input: {} }]);
      throw new Error('the command broke');
    });
    await expect(failing).rejects.toThrow('the command broke');
    expect(await readFile(path.join(cwd, 'closed.txt'), 'utf8')).toBe('closed');
  });

  test('withSession turns an invalid --allow rule into a usage error', async () => {
    const cwd = await tempDir();
    const { io } = fakeIo();
    const error = (await withSession(argsFor(cwd, { allow: ['Bash(npm test'] }), io, async () => 0).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('Bash(npm test');
  });

  test('withSession prints the session notices on stderr', async () => {
    const cwd = await tempDir();
    const breaksContext = buildTool({
      name: 'BreakContext',
      description: 'Returns a context change that fails.',
      inputSchema: counterTool.inputSchema,
      isReadOnly: () => true,
      async call() {
        return { data: 'ok', contextModifier: () => { throw new Error('no such directory'); } };
      },
    });
    const { io, stderr } = fakeIo({ tools: [breaksContext] });
    await withSession(argsFor(cwd), io, (session) => session.run([{ type: 'tool_use', id: 'b', name: 'BreakContext', input: {} }]));
    expect(stderr()).toMatch(/^toolshed: warn: .*no such directory/m);
  });

  test('a --settings deny rule applies, and rules from the flags are added to it', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { permissions: { deny: ['Writer(secret*)'] } });
    const input = '{"file_path":"secret.txt","content":"x"}';
    const fromFile = await cli(['check', 'Writer', input, '--json', '--settings', file, '--cwd', cwd], { tools });
    expect(JSON.parse(fromFile.stdout)).toMatchObject({ behavior: 'deny', rule: 'Writer(secret*)' });
    const both = await cli(['check', 'Writer', '{"file_path":"out.txt","content":"x"}', '--json', '--settings', file, '--deny', 'Writer(out*)', '--cwd', cwd], { tools });
    expect(JSON.parse(both.stdout)).toMatchObject({ behavior: 'deny', rule: 'Writer(out*)' });
  });

  test('--mode wins over the settings defaultMode', async () => {
    const cwd = await tempDir();
    const file = await settingsFile(cwd, { permissions: { defaultMode: 'bypassPermissions' } });
    const input = '{"file_path":"out.txt","content":"x"}';
    const bypass = await cli(['call', 'Writer', input, '--settings', file, '--cwd', cwd], { tools: [writerTool] });
    expect(bypass.code).toBe(0);
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(true);
    const overridden = await cli(['check', 'Writer', input, '--json', '--settings', file, '--mode', 'plan', '--cwd', cwd], { tools: [writerTool] });
    expect(JSON.parse(overridden.stdout).behavior).toBe('deny');
  });

  test('a --settings file with a JSON typo fails with exit 2, naming the file, without running anything', async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, 'settings.json');
    await writeFile(file, '{"permissions": {"allow": ["Writer"],}}');
    const r = await cli(['call', 'Writer', '{"file_path":"out.txt","content":"x"}', '--settings', file, '--cwd', cwd], { tools });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"${file}"`);
    expect(r.stderr).toContain('line 1, column 38');
    expect(existsSync(path.join(cwd, 'out.txt'))).toBe(false);
  });

  test('a --mcp-config file that does not exist fails with exit 2, naming it', async () => {
    const cwd = await tempDir();
    const r = await cli(['tools', '--mcp-config', path.join(cwd, '.mcp.json'), '--cwd', cwd]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--mcp-config file');
    expect(r.stderr).toContain('.mcp.json');
  });
});
