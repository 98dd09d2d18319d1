import { mkdirSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
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
import { SavedResults, savedFileStats } from '../results/saved_results.ts';

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
  // A decision must see a swap made before it began, even one made synchronously within the same
  // turn of the event loop; a working directory keeps the target it had when the session began.
  test('a working directory that is a link keeps the target it had: a swap makes the new one no working directory', async () => {
    const a = join(root, 'wd-a');
    const b = join(root, 'wd-b');
    const link = join(root, 'wd-link');
    for (const d of [a, b]) mkdirSync(d, { recursive: true });
    await writeFile(join(a, 'x.txt'), 'x');
    await writeFile(join(b, 'y.txt'), 'y');
    symlinkSync(a, link);
    try {
      const { context } = createPermissionContext({}, link, { homeDir: home });
      const ctx = testContext({ cwd: link, permissions: context });
      const file = join(a, 'x.txt');
      expect((await decidePermission(readTool, { file_path: file }, { ctx })).behavior).toBe('allow');
      expect((await decidePermission(readTool, { file_path: join(b, 'y.txt') }, { ctx })).behavior).toBe('ask');
      await nextTurn();
      // Swapped with no turn in between: the next decision sees the link's new target, and
      // does not take it for the working directory the session began in.
      rmSync(link);
      symlinkSync(b, link);
      for (const file_path of [join(b, 'y.txt'), join(link, 'y.txt')]) {
        const after = await decidePermission(readTool, { file_path }, { ctx });
        expect(after.behavior).toBe('ask');
        expect(after.reason).toContain('outside the working directories');
      }
      expect((await decidePermission(readTool, { file_path: file }, { ctx })).behavior).toBe('allow');
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
    // As the session records a result it saved.
    SavedResults.of(ctx.fileState).record(join(results, 't1.txt'), savedFileStats(statSync(join(results, 't1.txt'))));
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
  // Allow rules match physical paths, and a rule's root is resolved through its links (so `/tmp`
  // -> `/private/tmp` still matches). A call inside the project that replaces the allowed folder
  // with a link (`rm -rf docs && ln -s ~/.ssh docs`, one write in the working directory) must not
  // widen the rule to wherever the link now points: an allow rule's root, and a working
  // directory, keep the physical path they had when the session's permissions were made.
  test('still asks for a file of the link’s new target', async () => {
    const docs = join(proj, 'docs-allow');
    mkdirSync(docs, { recursive: true });
    try {
      const ctx = sessionWith({ allow: ['Read(./docs-allow/**)'] });
      const secret = join(home, '.ssh', 'id_rsa');
      expect((await decidePermission(readTool, { file_path: join(docs, 'a.md') }, { ctx })).behavior).toBe('allow');
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('ask');
      rmSync(docs, { recursive: true });
      symlinkSync(join(home, '.ssh'), docs);
      for (const file_path of [secret, join(docs, 'id_rsa')]) {
        expect((await decidePermission(readTool, { file_path }, { ctx })).behavior).toBe('ask');
      }
    } finally {
      rmSync(docs, { recursive: true, force: true });
    }
  });

  test('is pinned when the permissions are made, so a swap before the first decision widens nothing', async () => {
    const notes = join(proj, 'notes-allow');
    mkdirSync(notes, { recursive: true });
    try {
      const ctx = sessionWith({ allow: ['Read(./notes-allow/**)'] });
      // The first call of the session swaps the folder; no decision has resolved the rule yet.
      rmSync(notes, { recursive: true });
      symlinkSync(join(home, '.ssh'), notes);
      const secret = join(home, '.ssh', 'id_rsa');
      for (const file_path of [secret, join(notes, 'id_rsa')]) {
        expect((await decidePermission(readTool, { file_path }, { ctx })).behavior).toBe('ask');
      }
    } finally {
      rmSync(notes, { recursive: true, force: true });
    }
  });

  test('a root that was a link when the session began is still followed to that target', async () => {
    const target = join(root, 'shared-docs');
    mkdirSync(target, { recursive: true });
    await writeFile(join(target, 'guide.md'), 'guide');
    const link = join(proj, 'shared-link');
    symlinkSync(target, link);
    try {
      const ctx = sessionWith({ allow: ['Read(./shared-link/**)'] });
      for (const file_path of [join(target, 'guide.md'), join(link, 'guide.md')]) {
        expect((await decidePermission(readTool, { file_path }, { ctx })).behavior).toBe('allow');
      }
      // Re-pointed at the secrets: the rule keeps its first target and does not follow.
      rmSync(link);
      symlinkSync(join(home, '.ssh'), link);
      expect((await decidePermission(readTool, { file_path: join(link, 'id_rsa') }, { ctx })).behavior).toBe('ask');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a deny rule root swapped for a link still follows the link (deny is never narrowed)', async () => {
    const vault = join(proj, 'vault-deny');
    mkdirSync(vault, { recursive: true });
    try {
      const ctx = sessionWith({ deny: ['Read(./vault-deny/**)'], allow: ['Read(~/.ssh/**)'] });
      const secret = join(home, '.ssh', 'id_rsa');
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('allow');
      rmSync(vault, { recursive: true });
      symlinkSync(join(home, '.ssh'), vault);
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('deny');
    } finally {
      rmSync(vault, { recursive: true, force: true });
    }
  });
});

describe('a working directory given as a link', () => {
  test('re-pointed at another folder, does not make that folder a working directory', async () => {
    const libsTarget = join(root, 'libs-target');
    mkdirSync(libsTarget, { recursive: true });
    await writeFile(join(libsTarget, 'lib.ts'), 'x');
    const libs = join(proj, 'libs-link');
    symlinkSync(libsTarget, libs);
    try {
      const ctx = sessionWith({ additionalDirectories: ['./libs-link'] });
      const secret = join(home, '.ssh', 'id_rsa');
      expect((await decidePermission(readTool, { file_path: join(libsTarget, 'lib.ts') }, { ctx })).behavior).toBe(
        'allow',
      );
      expect((await decidePermission(readTool, { file_path: secret }, { ctx })).behavior).toBe('ask');
      rmSync(libs);
      symlinkSync(join(home, '.ssh'), libs);
      for (const file_path of [secret, join(libs, 'id_rsa')]) {
        expect((await decidePermission(readTool, { file_path }, { ctx })).behavior).toBe('ask');
      }
    } finally {
      rmSync(libs, { force: true });
    }
  });
});

describe('a deny or ask rule whose root was a link, re-pointed elsewhere', () => {
  // Deny and ask rules follow their roots' links as they are now, and also keep the target the
  // root had when the permissions were made: a working directory or an allow rule keeps that
  // target too, so a re-pointed link must not take the rule off it (which would narrow it).
  const grepTool = buildTool({
    name: 'Grep',
    description: 'searches a folder',
    inputSchema: z.object({ path: z.string() }),
    isReadOnly: () => true,
    resources: ({ path }) => [{ path, access: 'read' as const, kind: 'folder' as const }],
    async call() {
      return { data: '' };
    },
  });

  async function vaultBehind(name: string): Promise<{ target: string; link: string; key: string }> {
    const target = join(root, `${name}-target`);
    mkdirSync(join(target, 'secrets'), { recursive: true });
    await writeFile(join(target, 'secrets', 'key'), 'key');
    const link = join(proj, name);
    symlinkSync(target, link);
    return { target, link, key: join(target, 'secrets', 'key') };
  }
  function repoint(link: string, to: string): void {
    mkdirSync(to, { recursive: true });
    rmSync(link);
    symlinkSync(to, link);
  }

  test('a deny rule below a linked additional directory still denies the files of its first target', async () => {
    const { target, link, key } = await vaultBehind('libs-deny');
    try {
      const ctx = sessionWith({ additionalDirectories: ['./libs-deny'], deny: ['Read(./libs-deny/secrets/**)'] });
      expect((await decidePermission(readTool, { file_path: key }, { ctx })).behavior).toBe('deny');
      repoint(link, join(proj, 'libs-deny-empty'));
      // The old target is still a working directory (pinned): the deny must still hold there.
      for (const tool of [readTool, grepTool] as const) {
        const input = tool === readTool ? { file_path: key } : { path: target };
        const after = await decidePermission(tool as typeof readTool, input as { file_path: string }, { ctx });
        expect(after.behavior).toBe('deny');
        expect(after.reason).toContain('Read(./libs-deny/secrets/**)');
      }
      // And where the link leads now, as before.
      await writeFile(join(proj, 'libs-deny-empty', 'x'), 'x');
      mkdirSync(join(proj, 'libs-deny-empty', 'secrets'), { recursive: true });
      const now = await decidePermission(readTool, { file_path: join(link, 'secrets', 'x') }, { ctx });
      expect(now.behavior).toBe('deny');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a deny rule whose root is a link re-pointed away does not let an allow rule open its first target', async () => {
    const { target, link, key } = await vaultBehind('vault-link');
    try {
      const ctx = sessionWith({ deny: ['Read(./vault-link/**)'], allow: [`Read(/${target}/**)`] });
      expect((await decidePermission(readTool, { file_path: key }, { ctx })).behavior).toBe('deny');
      repoint(link, join(proj, 'vault-link-empty'));
      const after = await decidePermission(readTool, { file_path: key }, { ctx });
      expect(after.behavior).toBe('deny');
      // Said, for a person who moved the link on purpose: why the old target is still denied.
      expect(after.reason).toContain(
        `"${link}" led to "${target}" when the session began and leads to "${join(proj, 'vault-link-empty')}" now`,
      );
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a re-point made before the first decision is caught too: deny roots are pinned when the permissions are made', async () => {
    const { target, link, key } = await vaultBehind('vault-early');
    try {
      const ctx = sessionWith({ deny: ['Read(./vault-early/**)'], allow: [`Read(/${target}/**)`] });
      repoint(link, join(proj, 'vault-early-empty'));
      expect((await decidePermission(readTool, { file_path: key }, { ctx })).behavior).toBe('deny');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('an ask rule re-pointed away still asks for its first target', async () => {
    const { target, link, key } = await vaultBehind('ask-link');
    try {
      const ctx = sessionWith({ ask: ['Read(./ask-link/**)'], allow: [`Read(/${target}/**)`] });
      repoint(link, join(proj, 'ask-link-empty'));
      const after = await decidePermission(readTool, { file_path: key }, { ctx });
      expect(after.behavior).toBe('ask');
      expect(after.reason).toContain('Read(./ask-link/**)');
    } finally {
      rmSync(link, { force: true });
    }
  });

  test('a working directory that is a link, re-pointed, keeps its ./ deny rules on the target it had', async () => {
    const a = join(root, 'cwd-deny-a');
    const b = join(root, 'cwd-deny-b');
    for (const d of [join(a, 'secrets'), b]) mkdirSync(d, { recursive: true });
    await writeFile(join(a, 'secrets', 'key'), 'key');
    const link = join(root, 'cwd-deny-link');
    symlinkSync(a, link);
    try {
      const { context } = createPermissionContext({ deny: ['Read(./secrets/**)'] }, link, { homeDir: home });
      const ctx = testContext({ cwd: link, permissions: context });
      const key = join(a, 'secrets', 'key');
      expect((await decidePermission(readTool, { file_path: key }, { ctx })).behavior).toBe('deny');
      rmSync(link);
      symlinkSync(b, link);
      // a is still the working directory (pinned), so the read would be allowed without the rule.
      expect((await decidePermission(readTool, { file_path: key }, { ctx })).behavior).toBe('deny');
    } finally {
      rmSync(link, { force: true });
    }
  });
});

describe('what an honest user is told when a pinned root was re-pointed', () => {
  // A project may replace a folder by a link on purpose (a git checkout, a build): the call then
  // asks, and the ask says which link moved, where it led and leads, and what to do.
  const editTool = buildTool({
    name: 'Edit',
    description: 'edits a file',
    inputSchema: z.object({ file_path: z.string() }),
    resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
    async call() {
      return { data: '' };
    },
  });

  test('an allow rule whose folder became a link to another folder of the project asks, and says why', async () => {
    const docs = join(proj, 'docs-moved');
    const shared = join(proj, 'shared-docs');
    mkdirSync(docs, { recursive: true });
    mkdirSync(shared, { recursive: true });
    try {
      const ctx = sessionWith({ allow: ['Edit(./docs-moved/**)'] });
      expect((await decidePermission(editTool, { file_path: 'docs-moved/a.md' }, { ctx })).behavior).toBe('allow');
      rmSync(docs, { recursive: true });
      symlinkSync(shared, docs); // the checkout of a branch where docs-moved is a link
      const after = await decidePermission(editTool, { file_path: 'docs-moved/a.md' }, { ctx });
      expect(after.behavior).toBe('ask');
      expect(after.reason).toContain(`Rule "Edit(./docs-moved/**)" does not cover it: "${docs}" led to "${docs}"`);
      expect(after.reason).toContain(`leads to "${shared}" now`);
      expect(after.reason).toContain('start a new session');
    } finally {
      rmSync(docs, { recursive: true, force: true });
    }
  });

  test('a working directory re-pointed by a deploy asks for its new target, and says the link moved', async () => {
    const a = join(root, 'release-1');
    const b = join(root, 'release-2');
    for (const d of [a, b]) mkdirSync(d, { recursive: true });
    const current = join(root, 'current');
    symlinkSync(a, current);
    try {
      const { context } = createPermissionContext({}, current, { homeDir: home });
      const ctx = testContext({ cwd: current, permissions: context });
      rmSync(current);
      symlinkSync(b, current);
      const after = await decidePermission(readTool, { file_path: 'x.txt' }, { ctx });
      expect(after.behavior).toBe('ask');
      expect(after.reason).toContain(`The working directory "${current}" led to "${a}" when the session began`);
      expect(after.reason).toContain(`leads to "${b}" now`);
      expect(after.reason).toContain('start a new session');
    } finally {
      rmSync(current, { force: true });
    }
  });

  test('an unrelated ask says nothing about links', async () => {
    const ctx = sessionWith({ allow: ['Edit(./docs-still/**)'] });
    mkdirSync(join(proj, 'docs-still'), { recursive: true });
    const other = await decidePermission(editTool, { file_path: 'elsewhere.md' }, { ctx });
    expect(other.behavior).toBe('ask');
    expect(other.reason).not.toContain('led to');
    const outside = await decidePermission(readTool, { file_path: join(home, '.ssh', 'id_rsa') }, { ctx });
    expect(outside.reason).not.toContain('led to');
  });
});

describe('protected home files and folders that are links (dotfiles kept elsewhere)', () => {
  // ~/.ssh -> ~/dotfiles/ssh and ~/.bashrc -> ~/dotfiles/bashrc, as stow or a dotfile manager
  // leaves them: a write to where they lead is a write to them, and asks in every mode.
  const writeTool = buildTool({
    name: 'Write',
    description: 'writes a file',
    inputSchema: z.object({ file_path: z.string() }),
    resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
    async call() {
      return { data: '' };
    },
  });

  test.each([
    ['a file in the folder ~/.ssh leads to', 'dotfiles/ssh/authorized_keys'],
    ['the file ~/.bashrc leads to', 'dotfiles/bashrc'],
    ['a file in the folder ~/.config/git leads to', 'dotfiles/git/config'],
  ])('a write to %s asks in bypassPermissions mode', async (_what, written) => {
    const dots = join(root, 'dots-home');
    const dotfiles = join(dots, 'dotfiles');
    for (const dir of ['ssh', 'git']) mkdirSync(join(dotfiles, dir), { recursive: true });
    await writeFile(join(dotfiles, 'bashrc'), '');
    mkdirSync(join(dots, '.config'), { recursive: true });
    symlinkSync(join(dotfiles, 'ssh'), join(dots, '.ssh'));
    symlinkSync(join(dotfiles, 'bashrc'), join(dots, '.bashrc'));
    symlinkSync(join(dotfiles, 'git'), join(dots, '.config', 'git'));
    try {
      const { context } = createPermissionContext({ mode: 'bypassPermissions' }, proj, { homeDir: dots });
      const ctx = testContext({ cwd: proj, permissions: context });
      const decision = await decidePermission(writeTool, { file_path: join(dots, written) }, { ctx });
      expect(decision.behavior).toBe('ask');
      expect(decision.source).toBe('safety');
    } finally {
      rmSync(dots, { recursive: true, force: true });
    }
  });

  test('a home directory that is a link protects its start-up files by their physical path, and a folder write over them asks', async () => {
    const physical = join(root, 'data-home', 'u');
    mkdirSync(join(physical, 'dotfiles', 'ssh'), { recursive: true });
    symlinkSync(join(physical, 'dotfiles', 'ssh'), join(physical, '.ssh'));
    const linkedHome = join(root, 'linked-home');
    symlinkSync(physical, linkedHome);
    const rmTool = buildTool({
      name: 'Remove',
      description: 'removes a folder',
      inputSchema: z.object({ path: z.string() }),
      resources: ({ path }) => [{ path, access: 'write' as const, kind: 'folder' as const }],
      async call() {
        return { data: '' };
      },
    });
    try {
      const { context } = createPermissionContext({ mode: 'bypassPermissions' }, proj, { homeDir: linkedHome });
      const ctx = testContext({ cwd: proj, permissions: context });
      for (const file_path of [join(physical, '.bashrc'), join(physical, '.ssh', 'authorized_keys')]) {
        expect((await decidePermission(writeTool, { file_path }, { ctx })).source).toBe('safety');
      }
      for (const path of [join(physical, 'dotfiles'), join(root, 'data-home')]) {
        const decision = await decidePermission(rmTool, { path }, { ctx });
        expect(decision.behavior).toBe('ask');
        expect(decision.source).toBe('safety');
      }
    } finally {
      rmSync(linkedHome, { force: true });
      rmSync(join(root, 'data-home'), { recursive: true, force: true });
    }
  });
});

describe('protected project entries that are links', () => {
  // .claude -> config/claude, .git -> repo.git, .vscode -> editor/vscode: the settings, hooks and
  // tasks read through those links are the files where they lead, so a write there asks.
  const writeTool = buildTool({
    name: 'Write',
    description: 'writes a file',
    inputSchema: z.object({ file_path: z.string() }),
    resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
    async call() {
      return { data: '' };
    },
  });

  test.each([
    ['.claude', 'config/claude', 'config/claude/settings.json', 'ask'],
    ['.toolshed', 'config/toolshed', 'config/toolshed/settings.local.json', 'ask'],
    ['.git', 'repo.git', 'repo.git/hooks/pre-commit', 'ask'],
    ['.git', 'repo.git', 'repo.git/objects/ab/cdef', 'allow'],
    ['.vscode', 'editor/vscode', 'editor/vscode/tasks.json', 'ask'],
    ['.vscode', 'editor/vscode', 'editor/vscode/extensions.json', 'allow'],
    ['.idea', 'editor/idea', 'editor/idea/workspace.xml', 'ask'],
    ['.mcp.json', 'config/mcp.json', 'config/mcp.json', 'ask'],
  ])('%s -> %s: a write to %s in acceptEdits mode is %s', async (entry, target, written, expected) => {
    const project = join(root, `linked-${entry}-${written.replaceAll('/', '_')}`);
    mkdirSync(join(project, target), { recursive: true });
    symlinkSync(join(project, target), join(project, entry));
    try {
      const { context } = createPermissionContext({ mode: 'acceptEdits' }, project, { homeDir: home });
      const ctx = testContext({ cwd: project, permissions: context });
      const decision = await decidePermission(writeTool, { file_path: written }, { ctx });
      expect(decision.behavior).toBe(expected);
      if (expected === 'ask') expect(decision.source).toBe('safety');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  test('an allow rule that names the target folder unprotects it, as Edit(./.claude/**) does the link', async () => {
    const project = join(root, 'linked-claude-allowed');
    mkdirSync(join(project, 'config', 'claude'), { recursive: true });
    symlinkSync(join(project, 'config', 'claude'), join(project, '.claude'));
    try {
      const { context } = createPermissionContext({ allow: ['Edit(./config/claude/**)'] }, project, { homeDir: home });
      const ctx = testContext({ cwd: project, permissions: context });
      const decision = await decidePermission(writeTool, { file_path: 'config/claude/settings.json' }, { ctx });
      expect(decision.behavior).toBe('allow');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
