import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, type ResourceAccess } from '../tool.ts';
import { decidePermission } from './decide_permission.ts';
import { FOLDER_WALK_LIMIT } from './folder_access.ts';
import { findHardLinkRule } from './hard_links.ts';
import { resolveResources } from './path_guard.ts';
import { createPermissionContext } from './permission_context.ts';
import { testContext } from './_test_context.ts';

let proj: string;

beforeAll(async () => {
  proj = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-hard-links-')));
  mkdirSync(join(proj, 'big'));
  for (let i = 0; i <= FOLDER_WALK_LIMIT; i++) writeFileSync(join(proj, 'big', String(i)), '');
  writeFileSync(join(proj, 'key.pem'), 'KEY');
  linkSync(join(proj, 'key.pem'), join(proj, 'copy.txt'));
  writeFileSync(join(proj, 'one.txt'), 'one');
});
afterAll(() => rm(proj, { recursive: true, force: true }));

function context(rules: { deny?: string[]; ask?: string[] }) {
  const { context } = createPermissionContext(
    { mode: 'bypassPermissions', deny: rules.deny ?? [], ask: rules.ask ?? [], allow: [] },
    proj,
  );
  return testContext({ cwd: proj, permissions: context });
}

async function decide(resources: ResourceAccess[], rules: { deny?: string[]; ask?: string[] }) {
  const tool = buildTool({
    name: 'Read',
    description: 'declares resources',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    resources: () => resources,
    async call() {
      return { data: '' };
    },
  });
  return decidePermission(tool, {}, { ctx: context(rules) });
}

const read = (file: string): ResourceAccess[] => [{ path: join(proj, file), access: 'read' }];

describe('a file with more than one name', () => {
  test('an ask rule covering another name of the file asks, naming that name', async () => {
    const decision = await decide(read('copy.txt'), { ask: ['Read(./key.pem)'] });
    expect(decision).toMatchObject({ behavior: 'ask', rule: 'Read(./key.pem)' });
    expect(decision.reason).toContain(`opens a hard link to ${proj}/key.pem (one file with 2 names)`);
  });

  test('a deny rule whose files are too many to look through asks, in every mode, saying why', async () => {
    const decision = await decide(read('copy.txt'), { deny: ['Read(./big/**)'] });
    expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
    expect(decision.reason).toContain('2 names');
    expect(decision.reason).toContain('too large to look through');
    // A file with one name is not looked into: the same rule leaves it alone.
    expect((await decide(read('one.txt'), { deny: ['Read(./big/**)'] })).behavior).toBe('allow');
  });

  test('an Edit rule holds for a write through another name; a Read rule does not judge it', async () => {
    const write: ResourceAccess[] = [{ path: join(proj, 'copy.txt'), access: 'write' }];
    expect(await decide(write, { deny: ['Edit(./key.pem)'] })).toMatchObject({
      behavior: 'deny',
      rule: 'Edit(./key.pem)',
    });
    const ctx = context({ deny: ['Read(./key.pem)'] });
    const paths = resolveResources(write, ctx);
    expect(findHardLinkRule(ctx.permissions.rules.deny, paths, { toolName: 'Write', ctx })).toBeUndefined();
  });
});
