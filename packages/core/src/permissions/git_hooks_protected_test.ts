// A repository whose config names another hooks folder (`core.hooksPath = .githooks`, or husky's
// `.husky/_`) runs the scripts there on every allowed `git commit`, as it would run `.git/hooks`:
// a write there is a protected write, asked in every mode unless an allow rule names it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { gitConfigLooks } from './git_hooks_path.ts';
import { testContext } from './_test_context.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import type { PermissionOptions } from './types.ts';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-hooks-guard-')));
const home = join(root, 'home');
const project = join(root, 'project');
mkdirSync(home);
mkdirSync(join(project, '.git'), { recursive: true });
mkdirSync(join(project, '.githooks'));
writeFileSync(join(project, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\thooksPath = .githooks\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const writeTool = buildTool({
  name: 'Write',
  description: 'writes a file',
  inputSchema: z.object({ file_path: z.string() }),
  resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
  async call() {
    return { data: '' };
  },
});

async function decide(file: string, options: PermissionOptions) {
  const { context } = createPermissionContext(options, project, { homeDir: home });
  return decidePermission(writeTool, { file_path: file }, { ctx: testContext({ cwd: project, permissions: context }) });
}

describe('the hooks folder a repository’s config names', () => {
  test.each(['default', 'acceptEdits', 'bypassPermissions'] as const)(
    'a write to .githooks/pre-commit asks in %s mode',
    async (mode) => {
      const decision = await decide('.githooks/pre-commit', { mode, allow: ['Edit', 'Edit(./**)'] });
      expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
      expect(decision.reason).toContain('git hooks (core.hooksPath');
    },
  );

  test('an allow rule that names the folder unprotects it', async () => {
    const decision = await decide('.githooks/pre-commit', { allow: ['Edit(./.githooks/**)'] });
    expect(decision).toMatchObject({ behavior: 'allow', rule: 'Edit(./.githooks/**)' });
  });

  test('husky’s folder is protected wherever it is, set or not', async () => {
    const decision = await decide('.husky/pre-commit', { mode: 'bypassPermissions' });
    expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
  });

  test('a folder above the hooks folder is protected: moved or linked into place, it brings other hooks', async () => {
    const config = join(project, '.git', 'config');
    writeFileSync(config, '[core]\n\thooksPath = scripts/hooks\n');
    try {
      const decision = await decide('scripts', { mode: 'bypassPermissions' });
      expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
      expect(decision.reason).toContain('a folder that holds git hooks or config');
      expect((await decide('scripts-other/x', { mode: 'bypassPermissions' })).behavior).toBe('allow');
    } finally {
      writeFileSync(config, '[core]\n\thooksPath = .githooks\n');
    }
  });

  test('a nested repository’s own hooks folder is protected too (a submodule, a vendored repository)', async () => {
    const nested = join(project, 'vendor', 'lib');
    mkdirSync(join(nested, '.git'), { recursive: true });
    writeFileSync(join(nested, '.git', 'config'), '[core]\n\thooksPath = own-hooks\n');
    try {
      const decision = await decide('vendor/lib/own-hooks/pre-commit', { mode: 'bypassPermissions' });
      expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
      expect((await decide('vendor/lib/src/x.ts', { mode: 'bypassPermissions' })).behavior).toBe('allow');
    } finally {
      rmSync(join(project, 'vendor'), { recursive: true, force: true });
    }
  });

  test('the folder of a repository that names none is not protected', async () => {
    const decision = await decide('githooks-not/pre-commit', { mode: 'bypassPermissions' });
    expect(decision.behavior).toBe('allow');
  });

  test('a hooks path set while the session runs is protected from the next decision on', async () => {
    const config = join(project, '.git', 'config');
    writeFileSync(config, '[core]\n\thooksPath = .githooks\n\thooksPath = later-hooks\n');
    try {
      expect(await decide('later-hooks/pre-push', { mode: 'bypassPermissions' })).toMatchObject({ behavior: 'ask' });
      expect((await decide('.githooks/pre-commit', { mode: 'bypassPermissions' })).behavior).toBe('allow');
    } finally {
      writeFileSync(config, '[core]\n\thooksPath = .githooks\n');
    }
  });
});

describe('a file the repository’s git config includes', () => {
  test('is protected as .git/config is, and so is a .gitconfig anywhere', async () => {
    const config = join(project, '.git', 'config');
    writeFileSync(config, '[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../tools/shared.cfg\n');
    try {
      const included = await decide('tools/shared.cfg', { mode: 'bypassPermissions' });
      expect(included).toMatchObject({ behavior: 'ask', source: 'safety' });
      expect(included.reason).toContain("git configuration (read by the repository's git");
      expect(await decide('.gitconfig', { mode: 'bypassPermissions' })).toMatchObject({ behavior: 'ask' });
      expect((await decide('tools/other.cfg', { mode: 'bypassPermissions' })).behavior).toBe('allow');
      // The folder above it, moved or linked into place, brings another file in its stead.
      expect(await decide('tools', { mode: 'bypassPermissions' })).toMatchObject({ behavior: 'ask' });
    } finally {
      writeFileSync(config, '[core]\n\thooksPath = .githooks\n');
    }
  });
});

describe('the cost of reading git’s config', () => {
  test('a folder write over a thousand entries looks at git’s config files a few times, not once per entry', async () => {
    for (let d = 0; d < 40; d++) {
      mkdirSync(join(project, 'many', `d${d}`), { recursive: true });
      for (let f = 0; f < 25; f++) writeFileSync(join(project, 'many', `d${d}`, `f${f}`), '');
    }
    const folderWrite = buildTool({
      name: 'Clean',
      description: 'removes a folder',
      inputSchema: z.object({ path: z.string() }),
      resources: ({ path }) => [{ path, access: 'write' as const, kind: 'folder' as const }],
      async call() {
        return { data: '' };
      },
    });
    try {
      const { context } = createPermissionContext({ mode: 'bypassPermissions' }, project, { homeDir: home });
      const ctx = testContext({ cwd: project, permissions: context });
      const before = gitConfigLooks();
      const decision = await decidePermission(folderWrite, { path: 'many' }, { ctx });
      expect(decision.behavior).toBe('allow');
      // The working directories' repository, read (or its reading checked) a few times per check,
      // whatever the number of entries (1 040 here; about 50 looks in all, where one per entry made thousands).
      expect(gitConfigLooks() - before).toBeLessThan(100);
    } finally {
      rmSync(join(project, 'many'), { recursive: true, force: true });
    }
  });
});
