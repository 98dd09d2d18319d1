import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseGitIndex, readGitIndex } from './git_index.ts';
import { hasGit } from './_test_git.ts';

const GIT_FOUND = hasGit('git_index_test');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const FILES = [
  'README.md',
  '.claude/settings.json',
  'src/a.ts',
  'src/deep/er/b.ts',
  'naïve/ünïcode 😀.txt',
  `long/${'n'.repeat(200)}/b.txt`,
];

/** A repository with FILES committed, made by git with `init` options; returns its folder. */
function repository(initOptions: string[] = []): { dir: string; git: (...args: string[]) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolshed-index-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q', ...initOptions);
  for (const file of FILES) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), `${file}\n`);
  }
  git('add', '-A');
  // A path over 4 095 bytes, whose length does not fit the entry's 12 bits (in the index only:
  // no file system takes it).
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: 'x', encoding: 'utf8' }).trim();
  const long = `long/${Array.from({ length: 20 }, (_, i) => String(i).padEnd(220, 'x')).join('/')}.txt`;
  git('update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
  git('commit', '-qm', 'files');
  return { dir, git };
}

/** What git itself says the index holds. */
function lsFiles(git: (...args: string[]) => string): string[] {
  return git('ls-files', '-z', '--cached').split('\0').filter(Boolean);
}

describe.skipIf(!GIT_FOUND)('parseGitIndex', () => {
  test.each([
    ['version 2', [], []],
    ['version 3 (an intent-to-add entry sets the extended flags)', [], ['add', '-N', 'later.txt']],
    ['version 4 (names prefix-compressed)', [], ['update-index', '--index-version', '4']],
    ['SHA-256 object names', ['--object-format=sha256'], []],
  ] as const)('reads the paths git lists: %s', (_name, initOptions, change) => {
    const { dir, git } = repository([...initOptions]);
    if (change.length > 0) {
      if (change[1] === '-N') writeFileSync(join(dir, 'later.txt'), 'x');
      git(...change);
    }
    // A deleted file stays in the index: restore brings it back.
    rmSync(join(dir, '.claude'), { recursive: true });
    const parsed = parseGitIndex(readFileSync(join(dir, '.git', 'index')));
    expect(parsed?.paths).toEqual(lsFiles(git));
    expect(parsed?.paths).toContain('.claude/settings.json');
    expect(parsed?.sparseFolders).toEqual([]);
  });

  test('a sparse index lists its folders apart; a split index is not read', () => {
    const { dir, git } = repository();
    git('sparse-checkout', 'init', '--cone', '--sparse-index');
    git('sparse-checkout', 'set', 'src');
    const sparse = parseGitIndex(readFileSync(join(dir, '.git', 'index')));
    expect(sparse?.sparseFolders).toEqual(expect.arrayContaining(['.claude/', 'naïve/']));
    expect(sparse?.sparseFolders.every((folder) => folder.endsWith('/'))).toBe(true);
    expect(sparse?.paths).toEqual(expect.arrayContaining(['README.md', 'src/a.ts', 'src/deep/er/b.ts']));
    expect(sparse?.paths).not.toContain('.claude/settings.json');

    const split = repository();
    split.git('update-index', '--split-index');
    expect(parseGitIndex(readFileSync(join(split.dir, '.git', 'index')))).toBeUndefined();
  });

  test('bytes that are not a whole index are not read', () => {
    const { dir } = repository();
    const bytes = readFileSync(join(dir, '.git', 'index'));
    expect(parseGitIndex(bytes.subarray(0, bytes.length - 40))).toBeUndefined();
    expect(parseGitIndex(Buffer.from('DIRC'))).toBeUndefined();
    expect(parseGitIndex(Buffer.from('not an index at all, just text'))).toBeUndefined();
    const other = Buffer.from(bytes);
    other.writeUInt32BE(5, 4); // a version git does not write
    expect(parseGitIndex(other)).toBeUndefined();
  });
});

describe.skipIf(!GIT_FOUND)('readGitIndex', () => {
  test('reads the file again once git changed it; no index is no paths', () => {
    const { dir, git } = repository();
    const file = join(dir, '.git', 'index');
    expect(readGitIndex(file)?.paths).toContain('src/a.ts');
    writeFileSync(join(dir, 'new.txt'), 'n');
    git('add', 'new.txt');
    expect(readGitIndex(file)?.paths).toContain('new.txt');
    expect(readGitIndex(join(dir, 'missing', 'index'))).toEqual({ paths: [], sparseFolders: [], gitlinks: [] });
    writeFileSync(file, 'garbage');
    expect(readGitIndex(file)).toBeUndefined();
  });
});
