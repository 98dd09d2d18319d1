import { utimesSync, writeFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { testContext } from './_test_context.ts';
import { decidePermission } from './decide_permission.ts';
import { deniedPathFilter } from './denied_path_filter.ts';
import { hardLinkedRuleFiles, hardLinkFolderListings } from './hard_linked_rules.ts';
import { createPermissionContext } from './permission_context.ts';
import type { PermissionOptions } from './types.ts';

let root: string;
let proj: string;
let home: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-hardlink-')));
  proj = join(root, 'proj');
  home = join(root, 'home');
  for (const dir of [join(proj, 'docs'), join(proj, 'keys'), join(home, '.aws'), join(proj, 'node_modules', 'pkg')])
    await mkdir(dir, { recursive: true });
  await writeFile(join(proj, '.env'), 'KEY=1\n');
  await writeFile(join(proj, '.env.local'), 'KEY=2\n');
  await writeFile(join(proj, 'keys', 'deploy.key'), 'k\n');
  await writeFile(join(home, '.aws', 'credentials'), 'c\n');
  await writeFile(join(proj, 'plain.txt'), 'p\n');
  await link(join(proj, '.env'), join(proj, 'docs', 'env.txt'));
  await link(join(proj, '.env.local'), join(proj, 'docs', 'local.txt'));
  await link(join(proj, 'keys', 'deploy.key'), join(proj, 'docs', 'key.txt'));
  await link(join(home, '.aws', 'credentials'), join(proj, 'docs', 'aws.txt'));
  // As pnpm installs: every file of node_modules has a second name (in the store).
  for (let i = 0; i < 200; i++) {
    await writeFile(join(proj, 'node_modules', 'pkg', `f${i}.js`), `${i}\n`);
    await link(join(proj, 'node_modules', 'pkg', `f${i}.js`), join(root, `store-${i}`));
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const readTool = buildTool({
  name: 'Read',
  description: 'reads a file',
  inputSchema: z.object({ file_path: z.string() }),
  isReadOnly: () => true,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call() {
    return { data: '' };
  },
});

function contextWith(permissions: PermissionOptions) {
  const { context, errors } = createPermissionContext(permissions, proj, { homeDir: home });
  expect(errors).toEqual([]);
  return testContext({ cwd: proj, permissions: context });
}

describe('a rule naming a file covers each of its names', () => {
  test.each([
    ['docs/env.txt', 'Read(./.env)', '.env'],
    ['docs/local.txt', 'Read(./.env.*)', '.env.local'],
    ['docs/key.txt', 'Read(./keys/*.key)', 'keys/deploy.key'],
    ['docs/aws.txt', 'Read(~/.aws/credentials)', '.aws/credentials'],
  ])('a read of %s (a hard link) is denied by %s, naming %s', async (file_path, rule, named) => {
    const ctx = contextWith({ deny: [rule] });
    const decision = await decidePermission(readTool, { file_path }, { ctx });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain(rule);
    expect(decision.reason).toContain(named);
    expect(decision.reason).toContain('hard link');
  });

  test('an ask rule naming the file asks about its other name', async () => {
    const ctx = contextWith({ ask: ['Read(./.env)'], allow: ['Read(./docs/**)'] });
    const decision = await decidePermission(readTool, { file_path: 'docs/env.txt' }, { ctx });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('Read(./.env)');
  });

  test('a search filter leaves out another name of a file a rule names, and keeps plain files', () => {
    const ctx = contextWith({ deny: ['Read(./.env)'] });
    const hidden = deniedPathFilter('Grep', ctx)!;
    expect(hidden(join(proj, 'docs', 'env.txt'))?.raw).toBe('Read(./.env)');
    expect(hidden(join(proj, 'docs', 'key.txt'))).toBeUndefined();
    expect(hidden(join(proj, 'plain.txt'))).toBeUndefined();
  });

  test('files with one name are left out of the map, so a search stats nothing more', () => {
    const ctx = contextWith({ deny: ['Read(./plain.txt)', 'Read(./keys/*.txt)'] });
    expect(hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx }).files.size).toBe(0);
  });
});

describe('the cost of a read of a file with several names (pnpm node_modules)', () => {
  test('no folder is listed for a rule over a tree or a bare name, whatever the project holds', async () => {
    const ctx = contextWith({ deny: ['Read(**/.env)', 'Read(.env)', 'Read(./secrets/**)'] });
    const before = hardLinkFolderListings();
    for (let i = 0; i < 20; i++) {
      const decision = await decidePermission(readTool, { file_path: `node_modules/pkg/f${i}.js` }, { ctx });
      expect(decision.behavior).toBe('allow');
    }
    expect(hardLinkFolderListings() - before).toBe(0);
  });

  test('a one-segment pattern lists its one folder, never a walk, and never asks', async () => {
    const ctx = contextWith({ deny: ['Read(./.env.*)', 'Read(./keys/*.key)'] });
    const before = hardLinkFolderListings();
    for (let i = 0; i < 20; i++) {
      const decision = await decidePermission(readTool, { file_path: `node_modules/pkg/f${i}.js` }, { ctx });
      expect(decision.behavior).toBe('allow');
    }
    // A folder changed within the last seconds is listed again at each read (its time may not show a change).
    expect(hardLinkFolderListings() - before).toBeLessThanOrEqual(2 * 20);
  });

  test('a file with one name lists no folder', async () => {
    const ctx = contextWith({ deny: ['Read(./.env.*)'] });
    const before = hardLinkFolderListings();
    expect((await decidePermission(readTool, { file_path: 'plain.txt' }, { ctx })).behavior).toBe('allow');
    expect(hardLinkFolderListings() - before).toBe(0);
  });
});

/** Sets a folder's modification time back, so a listing of it is trusted (not just changed). */
function settle(...dirs: string[]): void {
  const old = new Date(Date.now() - 60_000);
  for (const dir of dirs) utimesSync(dir, old, old);
}

describe('a listing is kept while its folder is unchanged', () => {
  const rules = ['Read(./.env)', 'Read(./.env.*)', 'Read(./keys/*)', 'Read(./*.pem)'];

  test('200 reads of a file with several names list each rule folder at most once', async () => {
    settle(proj, join(proj, 'keys'));
    const ctx = contextWith({ deny: rules });
    const before = hardLinkFolderListings();
    for (let i = 0; i < 200; i++) {
      const decision = await decidePermission(readTool, { file_path: `node_modules/pkg/f${i % 20}.js` }, { ctx });
      expect(decision.behavior).toBe('allow');
      // The open check of tool-fs asks the same of the deny and the ask rules.
      hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx });
      hardLinkedRuleFiles(ctx.permissions.rules.ask, { toolName: 'Read', ctx });
      deniedPathFilter('Grep', ctx)?.(join(proj, 'node_modules', 'pkg', 'f0.js'));
    }
    // proj (for `.env.*` and `*.pem` both) and keys.
    expect(hardLinkFolderListings() - before).toBeGreaterThan(0);
    expect(hardLinkFolderListings() - before).toBeLessThanOrEqual(2);
  });

  test('a file a pattern names, made after the first read, is covered at the next read', async () => {
    settle(proj);
    const ctx = contextWith({ deny: rules });
    expect((await decidePermission(readTool, { file_path: 'node_modules/pkg/f1.js' }, { ctx })).behavior).toBe('allow');
    await writeFile(join(proj, '.env.staging'), 'KEY=3\n');
    await link(join(proj, '.env.staging'), join(proj, 'docs', 'staging.txt'));
    try {
      const decision = await decidePermission(readTool, { file_path: 'docs/staging.txt' }, { ctx });
      expect(decision.behavior).toBe('deny');
      expect(decision.reason).toContain('.env.staging');
    } finally {
      await rm(join(proj, 'docs', 'staging.txt'));
      await rm(join(proj, '.env.staging'));
    }
  });

  test('a file a rule names, replaced after the first read by another with several names, is covered', async () => {
    settle(proj);
    const ctx = contextWith({ deny: rules });
    await writeFile(join(proj, 'server.pem'), 'old\n');
    expect((await decidePermission(readTool, { file_path: 'node_modules/pkg/f2.js' }, { ctx })).behavior).toBe('allow');
    // Same folder, same name: the listing stays right, the file it names is looked at again.
    await writeFile(join(proj, 'next.pem.tmp'), 'new\n');
    await rename(join(proj, 'next.pem.tmp'), join(proj, 'server.pem'));
    settle(proj);
    await link(join(proj, 'server.pem'), join(proj, 'docs', 'server.txt'));
    try {
      expect((await decidePermission(readTool, { file_path: 'docs/server.txt' }, { ctx })).behavior).toBe('deny');
    } finally {
      await rm(join(proj, 'docs', 'server.txt'));
      await rm(join(proj, 'server.pem'));
    }
  });

  test('a hard link made after the first read to a file a pattern named with one name is covered', async () => {
    settle(proj);
    const ctx = contextWith({ deny: rules });
    await writeFile(join(proj, 'solo.pem'), 'solo\n');
    settle(proj);
    expect((await decidePermission(readTool, { file_path: 'node_modules/pkg/f3.js' }, { ctx })).behavior).toBe('allow');
    // The link lands in docs: the folder of `*.pem` does not change, only the file's link count.
    await link(join(proj, 'solo.pem'), join(proj, 'docs', 'solo.txt'));
    try {
      expect((await decidePermission(readTool, { file_path: 'docs/solo.txt' }, { ctx })).behavior).toBe('deny');
    } finally {
      await rm(join(proj, 'docs', 'solo.txt'));
      await rm(join(proj, 'solo.pem'));
    }
  });
});

describe('a rule folder that is not there', () => {
  test('is not listed, and a file made in it later is covered', async () => {
    const ctx = contextWith({ deny: ['Read(./vault/*)'] });
    const before = hardLinkFolderListings();
    for (let i = 0; i < 20; i++) {
      expect((await decidePermission(readTool, { file_path: `node_modules/pkg/f${i}.js` }, { ctx })).behavior).toBe(
        'allow',
      );
    }
    expect(hardLinkFolderListings() - before).toBe(0);
    await mkdir(join(proj, 'vault'));
    await writeFile(join(proj, 'vault', 'token'), 't\n');
    await link(join(proj, 'vault', 'token'), join(proj, 'docs', 'token.txt'));
    try {
      const decision = await decidePermission(readTool, { file_path: 'docs/token.txt' }, { ctx });
      expect(decision.behavior).toBe('deny');
      expect(decision.reason).toContain('vault/token');
    } finally {
      await rm(join(proj, 'vault'), { recursive: true });
      await rm(join(proj, 'docs', 'token.txt'));
    }
  });
});

describe('a rule folder too large to list', () => {
  let big: string;
  beforeAll(async () => {
    big = join(proj, 'big');
    await mkdir(big);
    for (let i = 0; i <= 10_000; i++) writeFileSync(join(big, `e${i}`), '');
    await writeFile(join(big, 'id.key'), 'k\n');
    await link(join(big, 'id.key'), join(proj, 'docs', 'big-key.txt'));
  }, 60_000);

  test('a read of a file with several names asks, saying why, under a deny rule', async () => {
    const ctx = contextWith({ deny: ['Read(./big/*.key)'] });
    const decision = await decidePermission(readTool, { file_path: 'node_modules/pkg/f4.js' }, { ctx });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('Read(./big/*.key)');
    expect(decision.reason).toContain(big);
    expect(decision.reason).toContain('10000');
    expect(decision.reason).toContain('hard link');
  });

  test('it asks under an ask rule too, even when an allow rule covers the file', async () => {
    const ctx = contextWith({ ask: ['Read(./big/*.key)'], allow: ['Read(./docs/**)'] });
    const decision = await decidePermission(readTool, { file_path: 'docs/big-key.txt' }, { ctx });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('Read(./big/*.key)');
  });

  test('it asks in bypassPermissions mode too (a deny rule may cover the file)', async () => {
    const ctx = contextWith({ mode: 'bypassPermissions', deny: ['Read(./big/*.key)'] });
    const decision = await decidePermission(readTool, { file_path: 'docs/big-key.txt' }, { ctx });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('in every mode');
  });

  test('a file with one name is read as before', async () => {
    const ctx = contextWith({ deny: ['Read(./big/*.key)'] });
    expect((await decidePermission(readTool, { file_path: 'plain.txt' }, { ctx })).behavior).toBe('allow');
  });

  test('a search leaves out a file with several names, naming the rule', () => {
    const ctx = contextWith({ deny: ['Read(./big/*.key)'] });
    const hidden = deniedPathFilter('Grep', ctx)!;
    expect(hidden(join(proj, 'docs', 'big-key.txt'))?.raw).toBe('Read(./big/*.key)');
    expect(hidden(join(proj, 'plain.txt'))).toBeUndefined();
  });
});

describe('known gap (README "The path guard"): rules matching anywhere are not looked into', () => {
  test.each(['Read(**/.env)', 'Read(.env)'])('a hard link to .env is read under %s', async (rule) => {
    const ctx = contextWith({ deny: [rule] });
    // The rule covers `.env` itself, not its other name: finding it would take a walk of the project.
    expect((await decidePermission(readTool, { file_path: '.env' }, { ctx })).behavior).toBe('deny');
    expect((await decidePermission(readTool, { file_path: 'docs/env.txt' }, { ctx })).behavior).toBe('allow');
  });
});
