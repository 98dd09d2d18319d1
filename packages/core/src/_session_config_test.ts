import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { resolveSessionConfig } from './_session_config.ts';
import { openChildSession } from './child_session.ts';
import { contentToText } from './blocks.ts';
import { createSession } from './session.ts';
import type { Session } from './session_types.ts';
import { trustProject } from './settings/project_trust.ts';
import { buildTool } from './tool.ts';

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

test("tools see whether the user trusts the project folder, settings files or not, and a child keeps its parent's", async () => {
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'cloned');
  await mkdir(project, { recursive: true });
  const probe = buildTool({
    name: 'Probe',
    description: 'Says whether the project is trusted.',
    inputSchema: z.object({ child: z.boolean() }),
    isReadOnly: () => true,
    call: async (input, ctx) => {
      if (!input.child) return { data: String(ctx.projectTrusted) };
      // A child in a folder of its own (a worktree outside the project) keeps the parent's answer.
      const child = await openChildSession(ctx, { cwd: home });
      try {
        return { data: await ask(child, false) };
      } finally {
        await child.close();
      }
    },
  });
  const ask = async (s: Session, child: boolean) =>
    contentToText((await s.run([{ type: 'tool_use', id: 'p', name: 'Probe', input: { child } }]))[0]!.content);
  const seen = async (options: { trustedProject?: boolean } = {}) => {
    const session = await createSession({
      cwd: project,
      homeDir: home,
      stateDir: path.join(dir, 'state'),
      tools: [probe],
      ...options,
    });
    try {
      return [await ask(session, false), await ask(session, true)];
    } finally {
      await session.close();
    }
  };
  await mkdir(home, { recursive: true });
  // No settings file in the project: still not trusted until the user says so.
  expect(await seen()).toEqual(['false', 'false']);
  expect(await seen({ trustedProject: true })).toEqual(['true', 'true']);
  await trustProject(project, { homeDir: home });
  expect(await seen()).toEqual(['true', 'true']);
  expect(await seen({ trustedProject: false })).toEqual(['false', 'false']);
});
