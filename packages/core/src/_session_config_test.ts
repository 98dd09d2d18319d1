import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { resolveSessionConfig } from './_session_config.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-config-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('options rules sit over the settings files, each keeping its source', async () => {
  await mkdir(path.join(dir, 'home', '.toolshed'), { recursive: true });
  await writeFile(
    path.join(dir, 'home', '.toolshed', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash'] } }),
  );
  const config = await resolveSessionConfig({
    cwd: dir,
    stateDir: path.join(dir, 'state'),
    homeDir: path.join(dir, 'home'),
    settingsSources: ['user'],
    permissions: { allow: ['Read'] },
  });
  expect(config.permissions.rules.deny.map((r) => [r.raw, r.source])).toEqual([
    ['Bash', path.join(dir, 'home', '.toolshed', 'settings.json')],
  ]);
  expect(config.permissions.rules.allow.map((r) => [r.raw, r.source])).toEqual([['Read', 'options']]);
  expect(config.stateDir).toBe(path.join(dir, 'state'));
  expect(config.place).toBeUndefined();
});

test('bypassPermissions where a settings file disables it is refused, naming the file', async () => {
  await mkdir(path.join(dir, 'home', '.toolshed'), { recursive: true });
  const file = path.join(dir, 'home', '.toolshed', 'settings.json');
  await writeFile(file, JSON.stringify({ permissions: { disableBypassPermissionsMode: 'disable' } }));
  await expect(
    resolveSessionConfig({
      cwd: dir,
      stateDir: path.join(dir, 'state'),
      homeDir: path.join(dir, 'home'),
      settingsSources: ['user'],
      permissions: { mode: 'bypassPermissions' },
    }),
  ).rejects.toThrow(`"${file}" set permissions.disableBypassPermissionsMode`);
});

test('a missing cwd and a bad rule are clear errors', async () => {
  await expect(resolveSessionConfig({ cwd: '' })).rejects.toThrow('createSession needs a cwd');
  await expect(
    resolveSessionConfig({ cwd: dir, stateDir: path.join(dir, 'state'), permissions: { allow: ['Bash(npm test*:)'] } }),
  ).rejects.toMatchObject({ code: 'permission_rule_invalid' });
});
