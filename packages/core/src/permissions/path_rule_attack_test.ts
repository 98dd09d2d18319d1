import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { foldPath } from './_fold_path.ts';
import { testContext } from './_test_context.ts';
import { decidePermission } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import type { PermissionOptions } from './types.ts';

/**
 * An attacker's view of the compiled-rule caches: a deny rule must hold whatever the file system
 * did to its root after the rules were first compiled, and whatever case form a path is written in
 * on a case-insensitive system.
 */

let root: string;
let proj: string;
let home: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-rule-attack-')));
  proj = join(root, 'proj');
  home = join(root, 'home');
  await mkdir(proj, { recursive: true });
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), 'key');
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

function sessionWith(permissions: PermissionOptions, caseInsensitivePaths = false) {
  const { context, errors } = createPermissionContext(permissions, proj, {
    source: '/p/.toolshed/settings.json',
    homeDir: home,
    caseInsensitivePaths,
  });
  expect(errors).toEqual([]);
  return testContext({ cwd: proj, permissions: context });
}

describe('a deny rule whose root loops through symlinks when first compiled', () => {
  test('still denies once the loop is re-pointed at a secret folder, by the secret’s own path', async () => {
    const keys = join(proj, 'keys');
    await symlink(keys, keys); // keys -> keys: resolving it loops
    try {
      // Enough unrelated rules that the session indexes its rules by root.
      const deny = [...Array.from({ length: 40 }, (_, i) => `Read(//srv/unrelated${i}/**)`), 'Read(./keys/**)'];
      const ctx = sessionWith({ deny, allow: ['Read(~/.ssh/**)'] });
      const secret = join(home, '.ssh', 'id_rsa');
      // Compiled while the root loops: the secret is not below it yet, so the allow rule holds.
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('allow');
      await nextTurn();
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('allow');
      await rm(keys);
      await symlink(join(home, '.ssh'), keys);
      await nextTurn();
      const decision = await decidePermission(readTool, { file_path: secret }, { ctx });
      expect(decision.behavior).toBe('deny');
      expect(decision.reason).toContain('Read(./keys/**)');
      // And through the link as written.
      expect((await decidePermission(readTool, { file_path: 'keys/id_rsa' }, { ctx })).behavior).toBe('deny');
    } finally {
      await rm(keys, { force: true });
    }
  });

  test('a path below the loop itself cannot be resolved, so it is never allowed', async () => {
    const loop = join(proj, 'loop');
    await symlink(loop, loop);
    try {
      const ctx = sessionWith({ deny: ['Read(./loop/**)'], allow: ['Read(./**)'] });
      const decision = await decidePermission(readTool, { file_path: 'loop/x' }, { ctx });
      expect(decision.behavior).not.toBe('allow');
    } finally {
      await rm(loop, { force: true });
    }
  });
});

describe('case folding on a case-insensitive file system', () => {
  // Where a file system folds case, these name one file: a rule naming one form covers the others.
  const sameFile: [rule: string, written: string][] = [
    ['ΟΔΟΣ', 'οδοσ'], // final sigma: lower-casing the rule gives ς, the path has σ
    ['οδος', 'ΟΔΟΣ'],
    ['οδοσ', 'οδος'],
    ['ſecret', 'SECRET'], // long s upper-cases to S
    ['Kelvin', '\u212Aelvin'], // Kelvin sign
  ];

  test.each(sameFile)('deny Read(./%s/**) covers %s/key', async (ruleName, written) => {
    const ctx = sessionWith({ deny: [`Read(./${ruleName}/**)`], allow: ['Read(./**)'] }, true);
    const decision = await decidePermission(readTool, { file_path: `${written}/key` }, { ctx });
    expect(decision.behavior).toBe('deny');
  });

  test.each(sameFile)('foldPath gives %s and %s one text', (a, b) => {
    expect(foldPath(a, true)).toBe(foldPath(b, true));
  });

  test('names that differ in more than case stay apart', () => {
    expect(foldPath('straße', true)).not.toBe(foldPath('strase', true));
    expect(foldPath('σ', true)).not.toBe(foldPath('s', true));
  });
});
