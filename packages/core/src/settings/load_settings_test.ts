import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ToolshedError } from '../errors.ts';
import { assertSettingsValid, loadSettings } from './load_settings.ts';

let root: string;
let home: string;
let proj: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-load-settings-')));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(join(home, '.toolshed'), { recursive: true });
  await mkdir(join(proj, '.toolshed'), { recursive: true });
  await mkdir(join(proj, '.claude'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, content: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(content));
}

describe('loadSettings', () => {
  test("reads ~/.claude/settings.json with the claude source, as the user's (trusted) file, below the project's files", async () => {
    await mkdir(join(home, '.claude'), { recursive: true });
    await put(join(home, '.claude', 'settings.json'), {
      env: { A: 'user', B: 'user' },
      permissions: { allow: ['Bash(make:*)'] },
    });
    await put(join(proj, '.claude', 'settings.json'), {
      env: { B: 'project' },
      permissions: { deny: ['Read(./.env)'] },
    });
    const untrusted = await loadSettings({ cwd: proj, homeDir: home, sources: ['claude'], trustedProject: false });
    expect(untrusted.files.filter((f) => f.exists).map((f) => f.path)).toEqual([
      join(home, '.claude', 'settings.json'),
      join(proj, '.claude', 'settings.json'),
    ]);
    // The user's file applies whole; the project's env waits for trust, its deny rule does not.
    expect(untrusted.env).toEqual({ A: 'user', B: 'user' });
    expect(untrusted.permissions.rules.allow.map((r) => r.raw)).toEqual(['Bash(make:*)']);
    expect(untrusted.permissions.rules.deny.map((r) => r.raw)).toEqual(['Read(./.env)']);
    expect(untrusted.projectTrusted).toBe(false);
    const trusted = await loadSettings({ cwd: proj, homeDir: home, sources: ['claude'], trustedProject: true });
    expect(trusted.env).toEqual({ A: 'user', B: 'project' });
  });

  test('collects the .mcp.json server switches; an untrusted project may only disable servers', async () => {
    await put(join(proj, '.claude', 'settings.json'), {
      enableAllProjectMcpServers: true,
      enabledMcpjsonServers: ['a'],
      disabledMcpjsonServers: ['b'],
    });
    await put(join(proj, '.claude', 'settings.local.json'), { disabledMcpjsonServers: ['c'] });
    const trusted = await loadSettings({ cwd: proj, homeDir: home, sources: ['claude'], trustedProject: true });
    expect(trusted.mcpjsonServers).toEqual({ enableAll: true, enabled: ['a'], disabled: ['b', 'c'] });
    const untrusted = await loadSettings({ cwd: proj, homeDir: home, sources: ['claude'], trustedProject: false });
    expect(untrusted.mcpjsonServers).toEqual({ enabled: [], disabled: ['b', 'c'] });
    expect(untrusted.warnings.join('\n')).toContain('enableAllProjectMcpServers; enabledMcpjsonServers');
  });

  test('reads no file unless asked', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), { permissions: { deny: ['Bash'] } });
    const settings = await loadSettings({ cwd: proj, homeDir: home });
    expect(settings.files).toEqual([]);
    expect(settings.permissions.rules.deny).toEqual([]);
  });

  test('concatenates rule lists from every file, each rule naming its file', async () => {
    const user = join(home, '.toolshed', 'settings.json');
    const project = join(proj, '.toolshed', 'settings.json');
    const local = join(proj, '.toolshed', 'settings.local.json');
    await put(user, { permissions: { allow: ['Read'], deny: ['WebFetch'] } });
    await put(project, { permissions: { allow: ['Bash(npm test:*)'], ask: ['Bash(git push:*)'] } });
    await put(local, { permissions: { deny: ['Read(./.env)'] } });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['user', 'project', 'local'],
    });
    assertSettingsValid(settings);
    expect(settings.permissions.rules.allow.map((r) => [r.raw, r.source])).toEqual([
      ['Read', user],
      ['Bash(npm test:*)', project],
    ]);
    expect(settings.permissions.rules.deny.map((r) => [r.raw, r.source])).toEqual([
      ['WebFetch', user],
      ['Read(./.env)', local],
    ]);
    expect(settings.permissions.rules.ask.map((r) => r.source)).toEqual([project]);
    expect(settings.files.map((f) => [f.source, f.exists])).toEqual([
      ['user', true],
      ['project', true],
      ['local', true],
    ]);
  });

  test('lets the highest file that sets defaultMode decide the mode', async () => {
    await put(join(home, '.toolshed', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    await put(join(proj, '.toolshed', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } });
    await put(join(proj, '.toolshed', 'settings.local.json'), { permissions: { allow: ['Read'] } });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['user', 'project', 'local'],
    });
    expect(settings.permissions.mode).toBe('acceptEdits');
    expect(settings.modeSource).toBe(join(proj, '.toolshed', 'settings.json'));
  });

  test('resolves additional directories and settings-relative rules against the settings root', async () => {
    await put(join(home, '.toolshed', 'settings.json'), {
      permissions: { additionalDirectories: ['notes'], deny: ['Read(/private/**)'] },
    });
    await put(join(proj, '.toolshed', 'settings.json'), {
      permissions: { additionalDirectories: ['../shared', '~/docs'] },
    });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['user', 'project'],
    });
    expect(settings.permissions.workingDirectories).toEqual([
      proj,
      join(home, 'notes'),
      join(root, 'shared'),
      join(home, 'docs'),
    ]);
    expect(settings.permissions.rules.deny[0]?.root).toBe(home);
    expect(settings.permissions.homeDir).toBe(home);
  });

  test('concatenates hook groups across files, lowest first', async () => {
    await put(join(home, '.toolshed', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'user.sh' }] }] },
    });
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: 'project.sh' }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'post.sh' }] }],
      },
    });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['user', 'project'],
    });
    expect(settings.hooks?.PreToolUse?.map((g) => (g.hooks[0] as { command: string }).command)).toEqual([
      'user.sh',
      'project.sh',
    ]);
    expect(settings.hooks?.PostToolUse).toHaveLength(1);
  });

  test("reads Claude Code's .claude/settings.json and settings.local.json through the claude source", async () => {
    await put(join(proj, '.claude', 'settings.json'), { permissions: { deny: ['Bash(rm:*)'] } });
    await put(join(proj, '.claude', 'settings.local.json'), { permissions: { allow: ['Bash(ls:*)'] } });
    const without = await loadSettings({ cwd: proj, homeDir: home, trustedProject: true, sources: ['project'] });
    expect(without.permissions.rules.deny).toEqual([]);
    const settings = await loadSettings({ cwd: proj, homeDir: home, trustedProject: true, sources: ['claude'] });
    expect(settings.permissions.rules.deny.map((r) => r.source)).toEqual([join(proj, '.claude', 'settings.json')]);
    expect(settings.permissions.rules.allow.map((r) => r.source)).toEqual([
      join(proj, '.claude', 'settings.local.json'),
    ]);
  });

  test('reads extra files after the sources and reports one that does not exist', async () => {
    await put(join(root, 'extra.json'), { permissions: { defaultMode: 'dontAsk' } });
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['project'],
      files: ['../extra.json', '../missing.json'],
    });
    expect(settings.permissions.mode).toBe('dontAsk');
    expect(settings.errors).toEqual([
      `Settings file "${join(root, 'missing.json')}" does not exist: check the path given with --settings.`,
    ]);
  });

  test('collects the problems of every file, and assertSettingsValid throws them all', async () => {
    await put(join(home, '.toolshed', 'settings.json'), { permissions: { defaultMode: 'acceptedits' } });
    await writeFile(join(proj, '.toolshed', 'settings.json'), '{ "permissions": ');
    const settings = await loadSettings({
      cwd: proj,
      homeDir: home,
      trustedProject: true,
      sources: ['user', 'project'],
    });
    expect(settings.errors).toHaveLength(2);
    let error: unknown;
    try {
      assertSettingsValid(settings);
    } catch (e) {
      error = e;
    }
    expect(ToolshedError.isInstance(error) && error.code).toBe('settings_invalid');
    expect((error as Error).message).toContain('The settings have 2 problems; nothing was started:');
    expect((error as Error).message).toContain('Did you mean "acceptEdits"?');
    expect((error as Error).message).toContain('the file ends too soon at line 1');
  });

  test('records disableAllHooks and disableBypassPermissionsMode with their files', async () => {
    const project = join(proj, '.toolshed', 'settings.json');
    await put(project, { disableAllHooks: true, permissions: { disableBypassPermissionsMode: 'disable' } });
    const settings = await loadSettings({ cwd: proj, homeDir: home, trustedProject: true, sources: ['project'] });
    expect(settings.disableAllHooks).toEqual({ value: true, source: project });
    expect(settings.bypassDisabledBy).toEqual([project]);
  });
});
