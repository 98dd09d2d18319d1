import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, type ResourceAccess } from '../tool.ts';
import { decidePermission } from './decide_permission.ts';
import { findRuleAtLanding } from './landing_rules.ts';
import { resolveResources } from './path_guard.ts';
import { createPermissionContext } from './permission_context.ts';
import { testContext } from './_test_context.ts';

let proj: string;

beforeAll(async () => {
  proj = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-landing-rules-')));
  await mkdir(join(proj, 'stuff/deep/er'), { recursive: true });
  await writeFile(join(proj, 'stuff/deep/er/prod.json'), '{}');
  await writeFile(join(proj, 'stuff/a.txt'), 'a');
  await mkdir(join(proj, 'elsewhere'), { recursive: true });
  await writeFile(join(proj, 'elsewhere/.env'), 'T=1');
  await symlink(join(proj, 'elsewhere'), join(proj, 'stuff/link'));
});
afterAll(() => rm(proj, { recursive: true, force: true }));

function context(rules: { deny?: string[]; ask?: string[]; mode?: 'default' | 'bypassPermissions' }) {
  const { context } = createPermissionContext(
    { mode: rules.mode ?? 'default', deny: rules.deny ?? [], ask: rules.ask ?? [], allow: [] },
    proj,
  );
  return testContext({ cwd: proj, permissions: context });
}

/** `cp -r stuff dest` as a tool declares it: the source read, `dest` written with what stuff holds landing below. */
function copy(dest = 'dest'): ResourceAccess[] {
  return [
    { path: join(proj, 'stuff'), access: 'read', kind: 'folder' },
    { path: join(proj, dest), access: 'write', from: join(proj, 'stuff') },
  ];
}

async function decide(resources: ResourceAccess[], rules: Parameters<typeof context>[0]) {
  const tool = buildTool({
    name: 'Copy',
    description: 'declares resources',
    inputSchema: z.object({}),
    resources: () => resources,
    checkPermissions: () => ({ behavior: 'allow' as const }),
    async call() {
      return { data: '' };
    },
  });
  return decidePermission(tool, {}, { ctx: context(rules) });
}

describe('rules where a folder’s entries land', () => {
  test('an Edit deny rule that covers where an entry lands, at any depth, denies over the tool’s allow and the mode', async () => {
    const decision = await decide(copy(), { deny: ['Edit(./dest/deep/er/prod.json)'], mode: 'bypassPermissions' });
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'Edit(./dest/deep/er/prod.json)' });
    expect(decision.reason).toContain(`puts ${proj}/stuff/deep/er/prod.json at ${proj}/dest/deep/er/prod.json`);
  });

  test('an entry reached through a link below the source lands below the link’s name', async () => {
    for (const rule of ['Edit(**/.env)', 'Edit(.env)']) {
      const decision = await decide(copy(), { deny: [rule] });
      expect(decision).toMatchObject({ behavior: 'deny', rule });
      expect(decision.reason).toContain(`at ${proj}/dest/link/.env`);
    }
  });

  test('an ask rule where an entry lands asks, naming the rule', async () => {
    const decision = await decide(copy(), { ask: ['Edit(./dest/**/*.json)'], mode: 'bypassPermissions' });
    expect(decision).toMatchObject({ behavior: 'ask', rule: 'Edit(./dest/**/*.json)' });
  });

  test('rules that cover nothing that lands, Read rules and rules about the source do not decide the landing', async () => {
    for (const deny of [['Edit(./dest/other.json)'], ['Read(./dest/**)'], ['Edit(./other/**)']]) {
      expect((await decide(copy(), { deny })).behavior, deny.join()).toBe('allow');
    }
    const ctx = context({ deny: ['Edit(./dest/deep/er/prod.json)'] });
    const paths = resolveResources(copy('dest2'), ctx);
    expect(findRuleAtLanding(ctx.permissions.rules.deny, paths, { toolName: 'Copy', ctx })).toBeUndefined();
  });
});
