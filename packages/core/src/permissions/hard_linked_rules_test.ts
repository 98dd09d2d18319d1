import { link, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
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
    expect(hardLinkedRuleFiles(ctx.permissions.rules.deny, { toolName: 'Read', ctx }).size).toBe(0);
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

  test('a one-segment pattern lists its one folder once per read, never a walk, and never asks', async () => {
    const ctx = contextWith({ deny: ['Read(./.env.*)', 'Read(./keys/*.key)'] });
    const before = hardLinkFolderListings();
    for (let i = 0; i < 20; i++) {
      const decision = await decidePermission(readTool, { file_path: `node_modules/pkg/f${i}.js` }, { ctx });
      expect(decision.behavior).toBe('allow');
    }
    expect(hardLinkFolderListings() - before).toBe(2 * 20);
  });

  test('a file with one name lists no folder', async () => {
    const ctx = contextWith({ deny: ['Read(./.env.*)'] });
    const before = hardLinkFolderListings();
    expect((await decidePermission(readTool, { file_path: 'plain.txt' }, { ctx })).behavior).toBe('allow');
    expect(hardLinkFolderListings() - before).toBe(0);
  });
});
