import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
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

describe('a working directory or results folder that is a symlink, swapped after it was resolved', () => {
  // Both are resolved through the root cache: a decision must see a swap made before it began,
  // even one made synchronously within the same turn of the event loop.
  test('a file of the old target is outside the working directories at the very next decision', async () => {
    const a = join(root, 'wd-a');
    const b = join(root, 'wd-b');
    const link = join(root, 'wd-link');
    for (const d of [a, b]) mkdirSync(d, { recursive: true });
    await writeFile(join(a, 'x.txt'), 'x');
    symlinkSync(a, link);
    try {
      const { context } = createPermissionContext({}, link, { homeDir: home });
      const ctx = testContext({ cwd: link, permissions: context });
      const file = join(a, 'x.txt');
      expect((await decidePermission(readTool, { file_path: file }, { ctx })).behavior).toBe('allow');
      await nextTurn();
      expect((await decidePermission(readTool, { file_path: file }, { ctx })).behavior).toBe('allow'); // cached
      // Swapped with no turn in between: the next decision looks at the folders again.
      rmSync(link);
      symlinkSync(b, link);
      const after = await decidePermission(readTool, { file_path: file }, { ctx });
      expect(after.behavior).toBe('ask');
      expect(after.reason).toContain('outside the working directories');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a results folder re-pointed elsewhere no longer lets its old target be read without a rule', async () => {
    const state = join(root, 'state-swap');
    const results = join(state, 'tool-results');
    const moved = join(root, 'saved-results');
    const other = join(root, 'other-results');
    for (const d of [results, other]) mkdirSync(d, { recursive: true });
    await writeFile(join(results, 't1.txt'), 'result');
    await writeFile(join(other, 't2.txt'), 'not a result');
    const ctx = { ...sessionWith({}), stateDir: state };
    const first = await decidePermission(readTool, { file_path: join(results, 't1.txt') }, { ctx });
    expect(first.behavior).toBe('allow');
    expect(first.source).toBe('session');
    await nextTurn();
    expect((await decidePermission(readTool, { file_path: join(results, 't1.txt') }, { ctx })).source).toBe('session'); // cached
    // Moved away and replaced by a link, with no turn in between: neither its old files nor what
    // the link leads to are the session's results (a results folder that is a link allows nothing).
    renameSync(results, moved);
    symlinkSync(other, results);
    for (const file of [join(moved, 't1.txt'), join(results, 't2.txt')]) {
      const after = await decidePermission(readTool, { file_path: file }, { ctx });
      expect(after.source).not.toBe('session');
      expect(after.behavior).toBe('ask'); // outside the working directories, and not the session's results
    }
  });

  test('a deny rule root swapped within the same turn is followed by the next decision', async () => {
    const keys = join(proj, 'keys2');
    mkdirSync(join(proj, 'keys2-real'), { recursive: true });
    symlinkSync(join(proj, 'keys2-real'), keys);
    try {
      const deny = [...Array.from({ length: 40 }, (_, i) => `Read(//srv/unrelated${i}/**)`), 'Read(./keys2/**)'];
      const ctx = sessionWith({ deny, allow: ['Read(~/.ssh/**)'] });
      const secret = join(home, '.ssh', 'id_rsa');
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('allow');
      rmSync(keys);
      symlinkSync(join(home, '.ssh'), keys);
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('deny');
    } finally {
      rmSync(keys, { force: true });
    }
  });
});

describe('an allow rule whose root is swapped for a link', () => {
  // Design decision, not fixed here: allow rules match physical paths, and a rule's root is
  // resolved through its links (so `/tmp` -> `/private/tmp` still matches). A call inside the
  // project that replaces the allow rule's folder with a link (`rm -rf docs && ln -s ~/.ssh docs`,
  // one write in the working directory) then widens the rule to wherever the link points: the
  // user allowed `./docs/**` and ~/.ssh is read without asking. The same holds for a working
  // directory given as a link inside another one (additionalDirectories: ['./libs'], libs -> /q,
  // re-pointed at /). A fix would pin a rule root's (and a working directory's) physical path at
  // the session's start, or make a write to a root or a link on its way a protected write that asks.
  test.fails('still asks for a file of the link’s new target', async () => {
    const docs = join(proj, 'docs-allow');
    mkdirSync(docs, { recursive: true });
    try {
      const ctx = sessionWith({ allow: ['Read(./docs-allow/**)'] });
      const secret = join(home, '.ssh', 'id_rsa');
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('ask');
      rmSync(docs, { recursive: true });
      symlinkSync(join(home, '.ssh'), docs);
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('ask');
    } finally {
      rmSync(docs, { recursive: true, force: true });
    }
  });
});
