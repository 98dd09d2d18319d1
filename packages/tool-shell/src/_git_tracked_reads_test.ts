import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mayNameRevision } from './_git_revisions.ts';
import { trackedReads, VALUE_OPTIONS } from './_git_tracked_reads.ts';
import { hasGit } from './testdata/has_git.ts';
import { GIT_TEST_ENV } from './testdata/git_fixture.ts';

const GIT = hasGit('_git_tracked_reads_test');
const word = (value: string) => ({ text: value, value, literal: true });
const words = (line: string) => line.split(' ').filter(Boolean).map(word);
const ENV = GIT_TEST_ENV;

let dir = '';
let gitDir = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: ENV, encoding: 'utf8' });

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-tracked-reads-'));
  gitDir = path.join(dir, '.git');
  if (!GIT) return;
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-qm', 'one');
  writeFileSync(path.join(dir, 'a.txt'), 'b\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!GIT)('trackedReads', () => {
  test.each([
    ['diff', '', []],
    ['diff', '--stat --color=always -U5', []],
    ['diff', '-- a.txt src', ['a.txt', 'src']],
    ['diff', 'a.txt', ['a.txt']],
    ['diff', '-S HEAD -- a.txt', ['a.txt']],
    ['diff', '--output out.txt', []],
    ['diff', '-- *.ts', []],
    ['diff', '-- :(exclude)x', []],
    ['grep', 'KEY', []],
    ['grep', '-n KEY -- src', ['src']],
    ['grep', '-e KEY a.txt', ['a.txt']],
    ['grep', '-A 3 KEY', []],
    ['grep', '-C5 KEY a.txt', ['a.txt']],
    ['grep', '-nA 3 KEY a.txt', ['a.txt']],
    ['grep', '-ne KEY a.txt', ['a.txt']],
    ['diff', '-pS HEAD -- a.txt', ['a.txt']],
    ['diff', '.', ['.']],
    ['diff', 'hooks', ['hooks']],
  ])('git %s %s reads the tracked files (of %j)', (sub, line, expected) => {
    expect(trackedReads(sub, words(line), { gitDir })?.map((w) => w.value)).toEqual(expected);
  });

  test.each([
    ['diff', 'HEAD'],
    ['diff', 'HEAD~1 -- a.txt'],
    ['diff', 'main'],
    ['diff', '--cached'],
    ['diff', '--staged'],
    ['diff', '--cach'],
    ['diff', '--merge-base main'],
    ['diff', '--unified HEAD'],
    ['diff', '-O order.txt'],
    ['diff', 'abc1234'],
    ['diff', 'a..b'],
    ['diff', 'main@{1}'],
    ['grep', 'KEY HEAD'],
    ['grep', '--untracked KEY'],
    ['grep', '--no-index KEY'],
    ['grep', '-f patterns.txt'],
    ['grep', '-nf patterns.txt KEY'],
    ['grep', '-if.env KEY'],
    ['diff', '-RO.env'],
    ['diff', 'x-g1a2b3c'],
    ['diff', 'refs/heads/main'],
    ['diff', 'main-worktree/HEAD'],
    ['grep', '--cached KEY'],
    ['show', 'HEAD'],
    ['log', '-p'],
  ])('git %s %s may read more than the tracked files', (sub, line) => {
    expect(trackedReads(sub, words(line), { gitDir })).toBeUndefined();
  });

  test('a word not known before the command runs may be a revision', () => {
    expect(trackedReads('diff', [{ text: '$REV', value: '', literal: false }], { gitDir })).toBeUndefined();
  });

  test('outside a repository nothing is known', () => {
    expect(trackedReads('diff', [], { gitDir: undefined })).toBeUndefined();
  });
});

describe.skipIf(!GIT)('each option taken to have a value takes the next word, as the real git does', () => {
  // A word taken for a value that git reads as a revision would let a history read pass as a
  // read of the work tree: `--unified HEAD` is a diff against HEAD.
  test.each([...VALUE_OPTIONS.diff].map((o) => [o]))('git diff %s NOTAREV', (option) => {
    rmSync(path.join(dir, 'NOTAREV'), { force: true });
    const run = spawnSync('git', ['diff', option, 'NOTAREV'], { cwd: dir, env: ENV, encoding: 'utf8' });
    rmSync(path.join(dir, 'NOTAREV'), { force: true });
    expect(run.stderr).not.toContain("ambiguous argument 'NOTAREV'");
  });

  test.each([...VALUE_OPTIONS.grep].map((o) => [o]))('git grep %s NOTAREV x', (option) => {
    const run = spawnSync('git', ['grep', option, 'NOTAREV', 'x'], { cwd: dir, env: ENV, encoding: 'utf8' });
    // `-e NOTAREV x`: x is then a revision or path, which git complains of; NOTAREV itself never is.
    expect(run.stderr).not.toContain("ambiguous argument 'NOTAREV'");
  });

  test('the check can fail: --unified does not take the next word', () => {
    const run = spawnSync('git', ['diff', '--unified', 'NOTAREV'], { cwd: dir, env: ENV, encoding: 'utf8' });
    expect(run.stderr).toContain("ambiguous argument 'NOTAREV'");
  });
});

describe.skipIf(!GIT)('mayNameRevision', () => {
  test('a path is no revision; rev syntax, object names and HEAD are', () => {
    expect(mayNameRevision('a.txt', gitDir)).toBe(false);
    expect(mayNameRevision('src/lib', gitDir)).toBe(false);
    for (const rev of [
      'HEAD',
      'ORIG_HEAD',
      'FETCH_HEAD',
      'HEAD~2',
      'main^',
      'a..b',
      ':/msg',
      'deadbeef',
      '@',
      'x@{1}',
    ]) {
      expect(mayNameRevision(rev, gitDir), rev).toBe(true);
    }
  });

  test('branches, tags and remotes, loose or packed', () => {
    git('branch', 'feature');
    git('tag', 'v1');
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    expect(mayNameRevision('feature', gitDir)).toBe(true);
    expect(mayNameRevision('v1', gitDir)).toBe(true);
    expect(mayNameRevision('origin/main', gitDir)).toBe(true);
    git('pack-refs', '--all');
    expect(mayNameRevision('feature', gitDir)).toBe(true);
    expect(mayNameRevision('v1', gitDir)).toBe(true);
    expect(mayNameRevision('origin/main', gitDir)).toBe(true);
    expect(mayNameRevision('nothing', gitDir)).toBe(false);
  });

  test("a linked worktree's refs are the main repository's", () => {
    const linked = `${dir}-linked`;
    git('worktree', 'add', '-q', linked, '-b', 'side');
    try {
      const own = execFileSync('git', ['rev-parse', '--git-dir'], { cwd: linked, encoding: 'utf8' }).trim();
      expect(mayNameRevision('feature', path.resolve(linked, own))).toBe(true);
      expect(mayNameRevision('side', path.resolve(linked, own))).toBe(true);
    } finally {
      git('worktree', 'remove', '--force', linked);
    }
  });

  test('refs the guard cannot read (reftable) may name anything', () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'toolshed-reftable-'));
    try {
      mkdirSync(path.join(other, 'reftable'));
      expect(mayNameRevision('anything', other)).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
