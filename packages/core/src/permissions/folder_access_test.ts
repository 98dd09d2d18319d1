import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResourceAccess, ToolContext } from '../tool.ts';
import { FOLDER_WALK_LIMIT, findRuleUnderFolder, ruleUnderFolder } from './folder_access.ts';
import { gitConfigLooks } from './git_hooks_path.ts';
import { type GuardedPath, resolveResources } from './path_guard.ts';
import type { PermissionRule } from './types.ts';
import { createPermissionContext } from './permission_context.ts';
import { testContext } from './_test_context.ts';
import { type DeclaredRules, decideDeclared } from './_test_declaring.ts';
import { hasGit } from './_test_git.ts';

let base: string;
let proj: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-folder-')));
  proj = join(base, 'proj');
  await mkdir(join(proj, 'secrets'), { recursive: true });
  await mkdir(join(proj, 'src'), { recursive: true });
  await mkdir(join(base, 'outside'), { recursive: true });
  await writeFile(join(proj, 'secrets/key'), 'k');
  await writeFile(join(proj, 'src/a.ts'), 'x');
  await writeFile(join(proj, '.env'), 'x');
  await symlink(join(base, 'outside'), join(proj, 'src-out'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** The decision on a call that declares `resources`, in the project, with these rules. */
function decide(resources: ResourceAccess[], options: DeclaredRules = {}) {
  return decideDeclared(resources, { ...options, cwd: proj });
}

describe('folder and unknown resources', () => {
  test('an exact path entry still works as before', async () => {
    expect((await decide([{ path: join(proj, 'src/a.ts'), access: 'read' }])).behavior).toBe('allow');
    expect(
      (await decide([{ path: join(proj, 'secrets/key'), access: 'read' }], { deny: ['Read(./secrets/**)'] })).behavior,
    ).toBe('deny');
  });

  test('a folder entry takes in every file under it: a deny rule below it denies, an ask rule asks', async () => {
    const folder: ResourceAccess = { path: proj, access: 'read', kind: 'folder' };
    expect((await decide([folder])).behavior).toBe('ask'); // the link to ../outside leads out
    const inside: ResourceAccess = { path: join(proj, 'src'), access: 'read', kind: 'folder' };
    expect((await decide([inside])).behavior).toBe('allow');
    const denied = await decide([{ path: join(proj, 'secrets'), access: 'read', kind: 'folder' }], {
      deny: ['Read(./secrets/key)'],
    });
    expect(denied).toMatchObject({ behavior: 'deny', rule: 'Read(./secrets/key)' });
    expect(
      (await decide([{ ...folder, path: proj }], { deny: ['Read(./secrets/**)'], mode: 'bypassPermissions' })).behavior,
    ).toBe('deny');
    expect((await decide([inside], { ask: ['Read(./src/**)'], mode: 'bypassPermissions' })).behavior).toBe('ask');
    // A bare-name rule covers a folder that holds such a file, not one that does not.
    expect(
      (
        await decide([{ path: proj, access: 'read', kind: 'folder' }], {
          deny: ['Read(.env)'],
          mode: 'bypassPermissions',
        })
      ).behavior,
    ).toBe('deny');
    expect((await decide([inside], { deny: ['Read(.env)'] })).behavior).toBe('allow');
    // A repository's history may hold what the folder no longer does: that cannot be known, so it asks.
    expect(
      await decide([{ ...inside, history: true }], { deny: ['Read(.env)'], mode: 'bypassPermissions' }),
    ).toMatchObject({ behavior: 'ask', source: 'safety' });
    // A file there that git does not track (here no repository at all) may or may not be in the history:
    // it asks (folder_access_tracked_test.ts has the tracked case, which denies).
    expect(
      await decide([{ ...inside, history: true }], { deny: ['Read(./src/a.ts)'], mode: 'bypassPermissions' }),
    ).toMatchObject({ behavior: 'ask', source: 'safety' });
    // A rule whose folder does not exist under a plain folder covers nothing there.
    expect((await decide([inside], { deny: ['Read(./src/gone/**)'] })).behavior).toBe('allow');
  });

  test('a folder write that may reach a protected path asks in every mode', async () => {
    await mkdir(join(proj, 'sub/.git'), { recursive: true });
    const decision = await decide([{ path: join(proj, 'sub'), access: 'write', kind: 'folder' }], {
      mode: 'bypassPermissions',
    });
    expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
  });

  test('a work tree write (git rm -r .) leaves the .git folders below out, in any case, and nothing else', async () => {
    await mkdir(join(proj, 'wt/.git/hooks'), { recursive: true });
    await mkdir(join(proj, 'wt/nested/.GIT'), { recursive: true });
    await writeFile(join(proj, 'wt/a.ts'), 'a');
    const worktree: ResourceAccess = { path: join(proj, 'wt'), access: 'write', kind: 'folder', worktree: true };
    expect((await decide([worktree], { mode: 'bypassPermissions' })).behavior).toBe('allow');
    // The same folder as a plain folder write (rm -r) still takes .git in.
    expect((await decide([{ ...worktree, worktree: false }], { mode: 'bypassPermissions' })).behavior).toBe('ask');
    // A deny rule on what is in .git does not reach a work tree write; one on a tracked file does.
    expect((await decide([worktree], { deny: ['Edit(./wt/.git/**)'] })).behavior).not.toBe('deny');
    expect((await decide([worktree], { deny: ['Edit(./wt/a.ts)'] })).behavior).toBe('deny');
    await mkdir(join(proj, 'wt/.vscode'), { recursive: true });
    await writeFile(join(proj, 'wt/.vscode/settings.json'), '{}');
    expect(await decide([worktree], { mode: 'bypassPermissions' })).toMatchObject({
      behavior: 'ask',
      source: 'safety',
    });
  });

  test('a work tree write over a path that is no folder now stands for what the index holds below it, which git makes a folder of', async () => {
    const repo = join(proj, 'idx');
    for (const file of ['conf/package.json', 'keys/k', 'a.ts', 'package.json']) {
      await mkdir(join(repo, file, '..'), { recursive: true });
      await writeFile(join(repo, file), '{}');
    }
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['add', '-A'], { cwd: repo });
    await rm(join(repo, 'conf'), { recursive: true });
    await rm(join(repo, 'keys'), { recursive: true });
    const worktree = (path: string): ResourceAccess => ({ path, access: 'write', kind: 'folder', worktree: true });
    // git restore conf: the folder is gone, the index still holds conf/package.json.
    expect(await decide([worktree(join(repo, 'conf'))], { mode: 'bypassPermissions' })).toMatchObject({
      behavior: 'ask',
      source: 'safety',
    });
    // A file where the folder was: git replaces it.
    await writeFile(join(repo, 'conf'), 'a file');
    expect((await decide([worktree(join(repo, 'conf'))], { mode: 'bypassPermissions' })).behavior).toBe('ask');
    expect((await decide([worktree(join(repo, 'keys'))], { deny: ['Edit(./idx/keys/**)'] })).behavior).toBe('deny');
    // A file with nothing below it in the index; a protected one an allow rule names, as its plain write would be.
    expect((await decide([worktree(join(repo, 'a.ts'))], { mode: 'bypassPermissions' })).behavior).toBe('allow');
    const named = [worktree(join(repo, 'package.json'))];
    expect((await decide(named, { mode: 'bypassPermissions' })).behavior).toBe('ask');
    const allow = ['Edit(./idx/package.json)'];
    expect((await decide(named, { mode: 'bypassPermissions', allow })).behavior).toBe('allow');
  });

  test('a work tree write reads the index of every repository above it, not only the nearest', async () => {
    const repo = join(proj, 'outer');
    await mkdir(join(repo, 'vendor/conf'), { recursive: true });
    await writeFile(join(repo, 'vendor/conf/package.json'), '{}');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['add', '-A'], { cwd: repo });
    await rm(join(repo, 'vendor/conf'), { recursive: true });
    // vendor is a repository of its own now; git restore vendor, run in outer, restores from outer's index.
    execFileSync('git', ['init', '-q'], { cwd: join(repo, 'vendor') });
    const vendor: ResourceAccess = { path: join(repo, 'vendor'), access: 'write', kind: 'folder', worktree: true };
    expect((await decide([vendor], { mode: 'bypassPermissions' })).behavior).toBe('ask');
  });

  test('an unknown path asks, in bypassPermissions too when a rule could be behind it; an allow rule lifts only a read with no rule behind it', async () => {
    const unknownRead: ResourceAccess = { path: '`$F`', access: 'read', kind: 'unknown' };
    expect((await decide([unknownRead])).behavior).toBe('ask');
    expect((await decide([unknownRead], { mode: 'bypassPermissions' })).behavior).toBe('allow');
    expect((await decide([unknownRead], { mode: 'bypassPermissions', deny: ['Read(./secrets/**)'] })).behavior).toBe(
      'ask',
    );
    expect((await decide([unknownRead], { allow: ['Scan'] })).behavior).toBe('allow');
    expect((await decide([unknownRead], { allow: ['Scan'], deny: ['Read(.env)'] })).behavior).toBe('ask');
    const unknownWrite: ResourceAccess = { path: '`$F`', access: 'write', kind: 'unknown' };
    expect((await decide([unknownWrite], { mode: 'bypassPermissions' })).behavior).toBe('ask');
    expect((await decide([unknownRead], { mode: 'dontAsk' })).behavior).toBe('deny');
  });

  test('a kind the guard does not know denies the call', async () => {
    const decision = await decide([{ path: proj, access: 'read', kind: 'elsewhere' as 'folder' }]);
    expect(decision.behavior).toBe('deny');
  });
});

describe('findRuleUnderFolder looks rules up by root', () => {
  // Every rule judged in turn, as before the index: the verdict the lookup must give.
  function scanned(rules: readonly PermissionRule[], paths: readonly GuardedPath[], ctx: ToolContext) {
    const options = { toolName: 'Grep', ctx, walks: new Map() };
    let maybe: { rule: string; surely: boolean } | undefined;
    for (const path of paths) {
      if (path.kind !== 'folder') continue;
      for (const rule of rules) {
        const verdict = ruleUnderFolder(rule, path, options);
        if (verdict === 'covers') return { rule: rule.raw, surely: true };
        if (verdict === 'maybe') maybe ??= { rule: rule.raw, surely: false };
      }
    }
    return maybe;
  }

  test('gives the verdict of judging every rule, for folders above, at, below and beside the rules', () => {
    const deny = [
      'Read(//srv/elsewhere/**)',
      'Read(./src/a.ts)',
      'Read(./secrets/**)',
      'Read(.env)',
      'Read(**/*.ts)',
      'Read(./src-out/**)',
      'Read(//)',
      'Grep(./src/**)',
      'Glob(./secrets/**)',
      'Edit(./src/**)',
      `Read(/${join(base, 'outside')}/**)`,
      'Read(./src/gone/**)',
      'Read(./*)',
    ];
    const folders = [
      proj,
      join(proj, 'src'),
      join(proj, 'secrets'),
      join(base, 'outside'),
      join(proj, 'src-out'),
      base,
      '/srv',
    ];
    for (let n = 0; n < deny.length; n++) {
      // Each rule alone, among unrelated ones, and the list from that rule on (first match wins).
      for (const list of [[deny[n]!], deny.slice(n)]) {
        const { context } = createPermissionContext({ deny: [...list, 'Read(//srv/x/**)'] }, proj);
        const ctx = testContext({ cwd: proj, permissions: context });
        for (const folder of folders) {
          for (const history of [false, true]) {
            const paths = resolveResources([{ path: folder, access: 'read', kind: 'folder', history }], ctx);
            const found = findRuleUnderFolder(context.rules.deny, paths, { toolName: 'Grep', ctx });
            const got = found && { rule: found.rule.raw, surely: found.surely };
            expect([list[0], folder, history, got]).toEqual([
              list[0],
              folder,
              history,
              scanned(context.rules.deny, paths, ctx),
            ]);
          }
        }
      }
    }
  });
});

describe('a folder landing at a path (ResourceAccess.from)', () => {
  beforeAll(async () => {
    for (const [file, text] of Object.entries({
      'stuff/a/.husky/pre-commit': 'touch pwned\n',
      'stuff/a/b.ts': '',
      'mod/x/package.json': '{}',
      'mod/x/lib/c.js': '',
      'plain/d/e.ts': '',
    })) {
      await mkdir(join(proj, file, '..'), { recursive: true });
      await writeFile(join(proj, file), text);
    }
  });

  test('an entry protected where it lands asks, in bypassPermissions too, and the reason names it', async () => {
    const decision = await decide([{ path: join(proj, 'dest'), access: 'write', from: join(proj, 'stuff') }], {
      mode: 'bypassPermissions',
    });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain(`at ${join(proj, 'dest/a/.husky')}, where ${join(proj, 'stuff/a/.husky')} lands`);
    // package.json: protected outside node_modules only, so where it lands decides.
    const packages = await decide([{ path: join(proj, 'packages/x'), access: 'write', from: 'mod/x' }], {
      mode: 'bypassPermissions',
    });
    expect(packages.behavior).toBe('ask');
    expect(packages.reason).toContain(join(proj, 'packages/x/package.json'));
    const modules = { path: join(proj, 'node_modules/y'), access: 'write' as const, from: join(proj, 'mod/x') };
    expect((await decide([modules], { mode: 'bypassPermissions' })).behavior).toBe('allow');
  });

  test('a link below the source that leads to a folder is walked: cp -rL copies what it holds', async () => {
    await mkdir(join(base, 'hooks-elsewhere', '.husky'), { recursive: true });
    await writeFile(join(base, 'hooks-elsewhere', '.husky', 'pre-commit'), 'touch pwned\n');
    await mkdir(join(proj, 'linking'));
    await symlink(join(base, 'hooks-elsewhere'), join(proj, 'linking', 'x'));
    // A link back up does not walk for ever.
    await symlink(join(proj, 'linking'), join(proj, 'linking', 'loop'));
    const decision = await decide([{ path: join(proj, 'copied'), access: 'write', from: join(proj, 'linking') }], {
      mode: 'bypassPermissions',
    });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain(`at ${join(proj, 'copied/x/.husky')}`);
  });

  test('the folders a landing makes are not looked up for a repository one by one', async () => {
    // 60 nested folders copied where nothing exists yet: their repository is the landing's.
    let deep = join(proj, 'deep-source');
    for (let i = 0; i < 60; i++) deep = join(deep, `d${i}`);
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'f.ts'), '');
    const before = gitConfigLooks();
    const landing: ResourceAccess = { path: join(proj, 'not-yet'), access: 'write', from: join(proj, 'deep-source') };
    expect((await decide([landing], { mode: 'bypassPermissions' })).behavior).toBe('allow');
    // One look for the landing and each folder above it, not one per folder made (60 more).
    expect(gitConfigLooks() - before).toBeLessThan(30);
  });

  test('a source with nothing protected, a file, or nothing at all adds no ask', async () => {
    for (const from of ['plain', 'src/a.ts', 'missing']) {
      const landing: ResourceAccess = { path: join(proj, 'lib'), access: 'write', from };
      expect((await decide([landing], { mode: 'bypassPermissions' })).behavior, from).toBe('allow');
    }
  });

  test('a source too large to walk counts as holding anything', async () => {
    const big = join(base, 'big');
    mkdirSync(big);
    for (let i = 0; i <= FOLDER_WALK_LIMIT; i++) writeFileSync(join(big, String(i)), '');
    const decision = await decide([{ path: join(proj, 'lib'), access: 'write', from: big }], {
      mode: 'bypassPermissions',
    });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain(`a folder too large to check (over ${FOLDER_WALK_LIMIT} entries`);
  });

  test('a from that is not a path is refused', async () => {
    const bad = { path: join(proj, 'lib'), access: 'write', from: 7 } as unknown as ResourceAccess;
    expect(() => resolveResources([bad], testContext({ cwd: proj }))).toThrow(/from\?: string/);
  });
});

const GIT_FOUND = hasGit('folder_access_test (the core.worktree test)');

describe.skipIf(!GIT_FOUND)('a work tree write reads the index where core.worktree puts it', () => {
  test('the index paths of a repository whose work tree is ../.vscode land in .vscode', async () => {
    const repo = join(base, 'moved');
    await mkdir(join(repo, '.vscode'), { recursive: true });
    await writeFile(join(repo, 'tasks.json'), '{}\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', 'tasks.json');
    const folder: ResourceAccess = { path: repo, access: 'write', kind: 'folder', worktree: true };
    // Without core.worktree, tasks.json is at the top: nothing protected.
    expect((await decide([folder], { mode: 'bypassPermissions' })).behavior).toBe('allow');
    git('config', 'core.worktree', '../.vscode');
    const decision = await decide([folder], { mode: 'bypassPermissions' });
    expect(decision.behavior).toBe('ask');
    expect(decision.reason).toContain('VS Code tasks');
  });
});
