import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ResourceAccess } from '../tool.ts';
import { walkTracked } from './folder_access.ts';
import { decideDeclared } from './_test_declaring.ts';
import { hasGit } from './_test_git.ts';

const GIT = hasGit('folder_access_tracked_test');
const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

let base = '';
let repo = '';
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], { cwd, env: ENV, encoding: 'utf8' });

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-tracked-')));
  repo = join(base, 'repo');
  if (!GIT) return;
  await mkdir(join(repo, 'src'), { recursive: true });
  git(repo, 'init', '-q');
  await writeFile(join(repo, '.gitignore'), '.env\nbuild/\n');
  await writeFile(join(repo, 'src/a.ts'), 'a');
  await writeFile(join(repo, 'config.json'), '{}');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'one');
  // Not tracked: an ignored secret, an ignored folder, a file never added, a link out.
  await writeFile(join(repo, '.env'), 'KEY=1');
  await mkdir(join(repo, 'build'));
  await writeFile(join(repo, 'build/secret.txt'), 's');
  await writeFile(join(repo, 'notes.txt'), 'n');
  await mkdir(join(base, 'outside'));
  await symlink(join(base, 'outside'), join(repo, 'out'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** The decision on a call that declares `resources`, in `repo`, with these deny rules. */
function decide(resources: ResourceAccess[], deny: string[], mode = 'bypassPermissions') {
  return decideDeclared(resources, { cwd: repo, mode, deny });
}

describe.skipIf(!GIT)('a folder read as git reads a work tree (tracked)', () => {
  test('takes in what the index lists, not what else lies there', () => {
    const { entries, truncated } = walkTracked(repo, new Map());
    expect(truncated).toBe(false);
    expect(entries.sort()).toEqual([
      join(repo, '.gitignore'),
      join(repo, 'config.json'),
      join(repo, 'src'),
      join(repo, 'src/a.ts'),
    ]);
  });

  test('a rule about a file git does not track does not hold it back; one about a tracked file does', async () => {
    const tracked: ResourceAccess = { path: repo, access: 'read', kind: 'folder', tracked: true };
    for (const rule of ['Read(./.env)', 'Read(./build/**)', 'Read(./notes.txt)', 'Read(.env)']) {
      expect((await decide([tracked], [rule])).behavior, rule).toBe('allow');
    }
    const denied = await decide([tracked], ['Read(./config.json)']);
    expect(denied).toMatchObject({ behavior: 'deny', rule: 'Read(./config.json)' });
    expect(denied.reason).toContain('every file git tracks under it');
    // The same folder read whole is denied by the rule about .env, as before.
    expect((await decide([{ path: repo, access: 'read', kind: 'folder' }], ['Read(./.env)'])).behavior).toBe('deny');
  });

  test('a link in the work tree is not followed (git shows its text)', async () => {
    const decision = await decide([{ path: repo, access: 'read', kind: 'folder', tracked: true }], [], 'default');
    expect(decision.behavior, decision.reason).toBe('allow');
    // Read whole, the folder is left through the link: it asks.
    expect((await decide([{ path: repo, access: 'read', kind: 'folder' }], [], 'default')).behavior).toBe('ask');
  });

  test('a history denies what git tracks and asks for the rest, which it may or may not hold', async () => {
    const history: ResourceAccess = { path: repo, access: 'read', kind: 'folder', history: true };
    // `.env` is ignored: never committed here, but a history cannot say so cheaply.
    expect(await decide([history], ['Read(./.env)'])).toMatchObject({ behavior: 'ask', source: 'safety' });
    expect(await decide([history], ['Read(./config.json)'])).toMatchObject({
      behavior: 'deny',
      rule: 'Read(./config.json)',
    });
    // `tracked` means nothing beside `history`: the same.
    expect((await decide([{ ...history, tracked: true }], ['Read(./.env)'])).behavior).toBe('ask');
  });

  test('a file staged and then deleted from the work tree is still listed (git diff shows it)', async () => {
    await writeFile(join(repo, 'staged.txt'), 'x');
    git(repo, 'add', 'staged.txt');
    await rm(join(repo, 'staged.txt'));
    try {
      expect(
        (await decide([{ path: repo, access: 'read', kind: 'folder', tracked: true }], ['Read(./staged.txt)']))
          .behavior,
      ).toBe('deny');
    } finally {
      git(repo, 'rm', '-q', '--cached', 'staged.txt');
    }
  });

  test('an index that cannot be read may list anything: it asks, in every mode', async () => {
    const broken = join(base, 'broken');
    await mkdir(broken);
    git(broken, 'init', '-q');
    await writeFile(join(broken, '.git/index'), 'DIRC not an index');
    const decision = await decideDeclared([{ path: broken, access: 'read', kind: 'folder', tracked: true }], {
      cwd: broken,
      mode: 'bypassPermissions',
      deny: ['Read(./.env)'],
    });
    expect(decision).toMatchObject({ behavior: 'ask', source: 'safety' });
  });
});
