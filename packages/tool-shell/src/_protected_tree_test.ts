import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROTECTED_NAME_TABLE } from '@toolshed/core/internal';
import {
  CHECKED_NAMES,
  inWritable,
  keptPaths,
  outermost,
  PROTECTED_HOME_NAMES,
  PROTECTED_NAMES,
  protectedSnapshot,
  protectedTreeReads,
} from './_protected_tree.ts';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-protected-tree-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function tree(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    if (text.endsWith('/')) await mkdir(path.join(dir, file), { recursive: true });
    else await writeFile(path.join(dir, file), text);
  }
  return dir;
}

test('finds protected names, nested git folders, submodules, worktrees, bare repositories and .git files at any depth', async () => {
  const dir = await tree('all', {
    '.vscode/settings.json': '{}',
    'pkg/deep/.idea/workspace.xml': '',
    'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
    'vendor/lib/.git/config': '',
    'vendor/lib/.git/hooks/': '/',
    '.git/modules/a/b/HEAD': 'x',
    '.git/modules/a/b/objects/': '/',
    '.git/modules/a/b/refs/': '/',
    '.git/modules/a/b/config': '',
    '.git/worktrees/w/HEAD': 'x',
    '.git/worktrees/w/commondir': '../..',
    '.git/worktrees/w/config.worktree': '',
    'a/b/.git': 'gitdir: ../../.git/modules/a/b\n',
    'remote.git/HEAD': 'x',
    'remote.git/objects/': '/',
    'remote.git/refs/': '/',
    'remote.git/hooks/': '/',
    'node_modules/x/.vscode/tasks.json': '{}',
    'src/index.ts': '',
  });
  const { entries, gitDirs } = protectedSnapshot([dir]);
  const found = [...entries.values()].map((e) => `${path.relative(dir, e.path)} ${e.kind}`).sort();
  expect(found).toEqual([
    '.git/modules/a/b/config git-config',
    '.git/worktrees/w/commondir git-commondir',
    '.git/worktrees/w/config.worktree git-config',
    '.vscode name',
    'a/b/.git gitfile',
    'pkg/deep/.idea name',
    'remote.git/hooks git-hooks',
    'vendor/lib/.git/config git-config',
    'vendor/lib/.git/hooks git-hooks',
  ]);
  expect([...gitDirs].map((d) => path.relative(dir, d)).sort()).toEqual([
    '.git',
    '.git/modules/a/b',
    '.git/worktrees/w',
    'remote.git',
    'vendor/lib/.git',
  ]);
});

test("the home's shell start-up files count only in the home directory", async () => {
  const dir = await tree('home', { 'u/.bashrc': '', 'u/.zshrc': '', 'u/project/.bashrc': '' });
  const { entries } = protectedSnapshot([dir], { home: path.join(dir, 'u') });
  expect([...entries.keys()].map((p) => path.relative(dir, p)).sort()).toEqual(['u/.bashrc', 'u/.zshrc']);
});

test('a second look at an unchanged tree reads no folder again; a change is read in the folder it happened in', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`d${i}/s/f.ts`] = '';
  const dir = await tree('cache', files);
  protectedSnapshot([dir]);
  // Folders changed in the last second are read again (timestamps are coarse): let them age.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  protectedSnapshot([dir]);
  let before = protectedTreeReads();
  expect(protectedSnapshot([dir]).entries.size).toBe(0);
  expect(protectedTreeReads() - before).toBe(0);
  // A .vscode made deep down: its folder's ctime changed, so that folder (and the new one) is read.
  await mkdir(path.join(dir, 'd7/s/.vscode'));
  before = protectedTreeReads();
  expect([...protectedSnapshot([dir]).entries.keys()]).toEqual([path.join(dir, 'd7/s/.vscode')]);
  expect(protectedTreeReads() - before).toBeLessThanOrEqual(2);
});

test('a folder swapped for another under the same name is read again, and links are not followed', async () => {
  const dir = await tree('swap', { 'a/x.ts': '', 'b/.claude/settings.json': '{}', 'outside/.vscode/': '/' });
  expect(protectedSnapshot([dir]).entries.has(path.join(dir, 'b/.claude'))).toBe(true);
  await rm(path.join(dir, 'a'), { recursive: true });
  await mkdir(path.join(dir, 'a/.husky'), { recursive: true });
  await symlink(path.join(dir, 'outside'), path.join(dir, 'linked'));
  const { entries } = protectedSnapshot([path.join(dir)]);
  expect(entries.has(path.join(dir, 'a/.husky'))).toBe(true);
  expect(entries.has(path.join(dir, 'linked/.vscode'))).toBe(false);
});

test('the git folder a .git file leads to is found however many other entries there are', async () => {
  // Past 10 000 entries of any kind (each a file: .vscode, .envrc…, or a .git file that leads out
  // of the project, which a command may leave and which costs no mount).
  const files: Record<string, string> = {
    'lib/.git': 'gitdir: ../node_modules/.cache/lib-git\n',
    'node_modules/.cache/lib-git/HEAD': 'ref: refs/heads/main\n',
    'node_modules/.cache/lib-git/objects': '/',
    'node_modules/.cache/lib-git/refs': '/',
    'node_modules/.cache/lib-git/config': '',
  };
  const dir = await tree('many-links', files);
  for (let i = 0; i < 840; i++) {
    mkdirSync(path.join(dir, `a/${i}`), { recursive: true });
    for (const name of [...PROTECTED_NAMES, '.git']) writeFileSync(path.join(dir, `a/${i}/${name}`), '');
  }
  const snapshot = protectedSnapshot([dir]);
  expect(snapshot.entries.size).toBeGreaterThan(10_000);
  expect(snapshot.entries.has(path.join(dir, 'node_modules/.cache/lib-git/config'))).toBe(true);
}, 60_000);

test('the walk starts once at each writable directory no other holds: `/`, a trailing slash and a sibling prefix', () => {
  expect(outermost(['/a/b', '/a', '/a/bc', '/x'])).toEqual(['/a', '/x']);
  expect(outermost(['/a/b/', '/a/b/c'])).toEqual(['/a/b/']);
  expect(outermost(['/a/b', '/a/bc'])).toEqual(['/a/b', '/a/bc']);
  expect(outermost(['/', '/a', '/tmp/x'])).toEqual(['/']);
  expect(outermost(['/a', '/a'])).toEqual(['/a']);
});

test('what a command can write: below a root of `/`, below one with a trailing slash, never in a sibling with its prefix', () => {
  expect(inWritable('/etc/profile', ['/'])).toBe(true);
  expect(inWritable('/a/b/c', ['/a/b/'])).toBe(true);
  expect(inWritable('/a/b', ['/a/b'])).toBe(true);
  expect(inWritable('/a/bc/d', ['/a/b'])).toBe(false);
  expect(inWritable('/a/b/../bc', ['/a/b'])).toBe(false);
  expect(inWritable('/a', [])).toBe(false);
});

test("core's protected full paths are kept where they are writable: the home's .ssh and .config/git, /etc's start-up files", () => {
  expect(keptPaths({ writable: ['/home/u/p'], home: '/home/u' })).toEqual([]);
  expect(keptPaths({ writable: ['/home'], home: '/home/u' })).toEqual(['/home/u/.ssh', '/home/u/.config/git']);
  expect(keptPaths({ writable: ['/etc/'], home: '/home/u' })).toContain('/etc/profile.d');
  expect(keptPaths({ writable: ['/'], home: '/root' })).toEqual(
    expect.arrayContaining(['/root/.ssh', '/root/.config/git', '/etc/profile', '/etc/gitconfig', '/etc/ld.so.preload']),
  );
});

test("every name core's permission layer protects is kept by the sandbox, read-only or checked after the command", () => {
  const t = PROTECTED_NAME_TABLE;
  const kept = [...PROTECTED_NAMES, ...CHECKED_NAMES];
  for (const name of [...t.dirs, ...t.files, ...t.projectFiles, ...t.partial.map((p) => p.dir)])
    expect(kept).toContain(name);
  expect(PROTECTED_HOME_NAMES).toEqual(t.homeFiles);
  expect(PROTECTED_HOME_NAMES).toContain('.bash_logout');
});

test("a package.json's text is in the snapshot, read again only when it changed; node_modules' are not looked at", async () => {
  const dir = await tree('pkg', {
    'package.json': '{"scripts":{"test":"vitest"}}',
    'packages/a/package.json': '{}',
    'node_modules/x/package.json': '{}',
  });
  const first = protectedSnapshot([dir]);
  expect(first.entries.get(path.join(dir, 'package.json'))).toMatchObject({
    kind: 'package-json',
    text: '{"scripts":{"test":"vitest"}}',
  });
  expect(first.entries.has(path.join(dir, 'packages/a/package.json'))).toBe(true);
  expect(first.entries.has(path.join(dir, 'node_modules/x/package.json'))).toBe(false);
  await writeFile(path.join(dir, 'package.json'), '{"scripts":{"test":"sh evil.sh"}}');
  expect(protectedSnapshot([dir]).entries.get(path.join(dir, 'package.json'))?.text).toBe(
    '{"scripts":{"test":"sh evil.sh"}}',
  );
});
