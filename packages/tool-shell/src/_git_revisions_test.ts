import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isGitDirectory, mayNameRevision, replacesObjects, surelyCommit } from './_git_revisions.ts';
import { hasGit } from './testdata/has_git.ts';
import { GIT_TEST_ENV } from './testdata/git_fixture.ts';

const GIT = hasGit('_git_revisions_test');
const ENV = GIT_TEST_ENV;

let dir = '';
let gitDir = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8' }).trim();
/** Whether the real git reads the word as a revision (`rev-parse --verify` finds an object). */
const gitResolves = (word: string) => {
  try {
    git('rev-parse', '--verify', '--quiet', `${word}`);
    return true;
  } catch {
    return false;
  }
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-git-revisions-'));
  gitDir = path.join(dir, '.git');
  if (!GIT) return;
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-qm', 'one');
  writeFileSync(path.join(dir, 'a.txt'), 'b\n');
  git('commit', '-qam', 'two');
  git('branch', 'feature');
  git('tag', 'v1');
  git('tag', 'blob', 'HEAD:a.txt');
  git('symbolic-ref', 'refs/heads/alias', 'refs/tags/blob');
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!GIT)('mayNameRevision', () => {
  test.each([
    'HEAD',
    'main',
    'feature',
    'v1',
    'origin/main',
    'refs/heads/main',
    'heads/main',
    'main-worktree/HEAD',
    'anything-g',
  ])('%s is a revision for the real git, and for the guard', (word) => {
    const value = word === 'anything-g' ? `anything-g${git('rev-parse', '--short=7', 'HEAD')}` : word;
    expect(gitResolves(value), value).toBe(true);
    expect(mayNameRevision(value, gitDir), value).toBe(true);
  });

  test('refs named in full are found packed as well as loose', () => {
    git('pack-refs', '--all');
    for (const name of ['refs/heads/main', 'refs/tags/v1', 'refs/remotes/origin/main', 'main', 'tags/v1']) {
      expect(mayNameRevision(name, gitDir), name).toBe(true);
    }
  });

  test.each(['.', './a.txt', '.env', 'src/.hidden', 'config', 'hooks', 'info', 'description', 'nothing'])(
    '%s is no revision for the real git, nor for the guard',
    (word) => {
      expect(gitResolves(word), word).toBe(false);
      expect(mayNameRevision(word, gitDir), word).toBe(false);
    },
  );

  test("a linked worktree's own refs (refs/worktree/…) are revisions there", () => {
    const linked = `${dir}-linked`;
    git('worktree', 'add', '-q', '--detach', linked);
    try {
      execFileSync('git', ['update-ref', 'refs/worktree/mark', 'HEAD'], { cwd: linked, env: ENV });
      const own = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: linked, encoding: 'utf8' }).trim();
      expect(mayNameRevision('worktree/mark', own)).toBe(true);
    } finally {
      git('worktree', 'remove', '--force', linked);
    }
  });
});

describe.skipIf(!GIT)('surelyCommit', () => {
  test.each(['HEAD', '@', 'main', 'feature', 'HEAD~1', 'v1~0', 'v1^{commit}', 'HEAD~1..main', 'main...feature', 'v1^'])(
    '%s can only name a commit',
    (rev) => {
      expect(surelyCommit(rev, gitDir)).toBe(true);
    },
  );

  test.each(['v1', 'blob', 'alias', 'origin/main', 'HEAD:a.txt', 'HEAD~1:', 'HEAD^{tree}', 'v1^{}', 'HEAD..blob'])(
    '%s may name a blob or a tree',
    (rev) => {
      expect(surelyCommit(rev, gitDir)).toBe(false);
    },
  );

  test('an object name may be any object; without the git folder, only what the syntax says is known', () => {
    expect(surelyCommit(git('rev-parse', 'HEAD'), gitDir)).toBe(false);
    expect(surelyCommit('HEAD', undefined)).toBe(false);
    expect(surelyCommit('HEAD~2', undefined)).toBe(true);
  });

  test('HEAD that is a symbolic ref to a tag may name a blob', () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'toolshed-git-head-'));
    try {
      execFileSync('cp', ['-a', `${dir}/.`, other]);
      execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/tags/blob'], { cwd: other, env: ENV });
      expect(surelyCommit('HEAD', path.join(other, '.git'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!GIT)('replacesObjects and isGitDirectory', () => {
  test('a replace ref, loose or packed, is seen', () => {
    expect(replacesObjects(gitDir)).toBe(false);
    git('replace', git('rev-parse', 'HEAD:a.txt'), git('rev-parse', 'HEAD~1:a.txt'));
    expect(replacesObjects(gitDir)).toBe(true);
    git('pack-refs', '--all');
    expect(replacesObjects(gitDir)).toBe(true);
    git('replace', '-d', git('rev-parse', 'HEAD:a.txt'));
    expect(replacesObjects(gitDir)).toBe(false);
  });

  test('an empty .git folder is no git folder for git, which goes on to the folder above', () => {
    mkdirSync(path.join(dir, 'sub/.git'), { recursive: true });
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: path.join(dir, 'sub'), encoding: 'utf8' });
    expect(top.trim()).toBe(execFileSync('realpath', [dir], { encoding: 'utf8' }).trim());
    expect(isGitDirectory(path.join(dir, 'sub/.git'))).toBe(false);
    expect(isGitDirectory(gitDir)).toBe(true);
  });
});
