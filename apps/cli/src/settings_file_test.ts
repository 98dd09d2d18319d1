import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readSettingsFile } from './settings_file.ts';
import { UsageError } from './usage_error.ts';

async function settings(content: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-settings-'));
  const file = path.join(dir, 'settings.json');
  await writeFile(file, content);
  return { dir, file };
}

async function failure(content: string): Promise<UsageError> {
  const { file } = await settings(content);
  const error = await readSettingsFile(file, '/').catch((e: unknown) => e);
  if (!(error instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(error)}`);
  expect(error.message).toContain(file);
  expect(error.showUsage).toBe(false);
  return error;
}

describe('readSettingsFile', () => {
  test('readSettingsFile reads Claude Code permissions and command hooks', async () => {
    const { file } = await settings(JSON.stringify({
      model: 'ignored',
      permissions: { allow: ['Read'], deny: ['Read(./.env)'], ask: ['Bash(git push:*)'], defaultMode: 'acceptEdits', additionalDirectories: ['../shared'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] }] },
    }));
    const read = await readSettingsFile(file, '/');
    expect(read).toEqual({
      path: file,
      permissions: { allow: ['Read'], deny: ['Read(./.env)'], ask: ['Bash(git push:*)'], mode: 'acceptEdits', additionalDirectories: ['../shared'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] }] },
      warnings: [],
    });
  });

  test('readSettingsFile resolves a relative path against the base directory', async () => {
    const { dir } = await settings('{}');
    await mkdir(path.join(dir, 'nested'));
    expect((await readSettingsFile('../settings.json', path.join(dir, 'nested'))).path).toBe(path.join(dir, 'settings.json'));
  });

  test('readSettingsFile names a missing file and the flag', async () => {
    const error = (await readSettingsFile('/no/such/settings.json', '/').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('"/no/such/settings.json" does not exist');
    expect(error.message).toContain('--settings');
  });

  test('readSettingsFile gives the line and column of a JSON typo', async () => {
    const error = await failure('{\n  "permissions": {\n    "allow": ["Read",]\n  }\n}');
    expect(error.message).toContain('line 3, column 22');
    expect(error.message).toContain('not valid JSON');
  });

  test('readSettingsFile names the key, the wrong type and the fix', async () => {
    const list = await failure('{"permissions": {"deny": "Read(./.env)"}}');
    expect(list.message).toContain('"permissions.deny" is the string "Read(./.env)", not a list');
    expect(list.message).toContain('Write a list of strings');
    const item = await failure('{"permissions": {"allow": ["Read", 3]}}');
    expect(item.message).toContain('"permissions.allow[1]" is the number 3, not a string');
    const top = await failure('[]');
    expect(top.message).toContain('not an object');
  });

  test('readSettingsFile rejects a mode that does not exist, suggesting the closest', async () => {
    const error = await failure('{"permissions": {"defaultMode": "acceptedits"}}');
    expect(error.message).toContain('"permissions.defaultMode"');
    expect(error.message).toContain('Did you mean "acceptEdits"?');
  });

  test('readSettingsFile rejects a misspelled permissions key rather than dropping its rules', async () => {
    const error = await failure('{"permissions": {"denny": ["Bash"]}}');
    expect(error.message).toContain('"permissions.denny" is not a permissions key');
    expect(error.message).toContain('Did you mean "deny"?');
  });

  test('readSettingsFile rejects malformed hooks, naming the exact entry', async () => {
    const type = await failure('{"hooks": {"PreToolUse": [{"hooks": [{"type": "prompt", "command": "x"}]}]}}');
    expect(type.message).toContain('"hooks.PreToolUse[0].hooks[0].type"');
    const command = await failure('{"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command"}]}]}}');
    expect(command.message).toContain('"hooks.PostToolUse[0].hooks[0].command" is missing');
    const event = await failure('{"hooks": {"PreToolUSE": []}}');
    expect(event.message).toContain('Did you mean "PreToolUse"?');
  });

  test('readSettingsFile ignores Claude Code hook events toolshed does not run, with a warning', async () => {
    const { file } = await settings('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}');
    const read = await readSettingsFile(file, '/');
    expect(read.hooks).toEqual({});
    expect(read.warnings).toEqual([expect.stringContaining('hooks.Stop')]);
  });
});
