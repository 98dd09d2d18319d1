import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { noIndexOperands } from './_git_no_index.ts';
import { hasGit } from './testdata/has_git.ts';
import { GIT_TEST_ENV } from './testdata/git_fixture.ts';

const GIT = hasGit('_git_no_index_test');
const ENV = GIT_TEST_ENV;
const word = (value: string) => ({ text: value, value, literal: true });

let root = '';
let repo = '';
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'toolshed-git-no-index-')));
  repo = path.join(root, 'repo');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  mkdirSync(path.join(root, 'out'));
  mkdirSync(path.join(root, 'empty'));
  writeFileSync(path.join(root, 'out/o.txt'), 'outside-text\n');
  if (!GIT) return;
  execFileSync('git', ['init', '-q'], { cwd: repo, env: ENV });
  writeFileSync(path.join(repo, 'a.txt'), 'a\n');
  writeFileSync(path.join(repo, 'src/x.ts'), 'x\n');
  execFileSync('git', ['add', '-A'], { cwd: repo, env: ENV });
  execFileSync('git', ['commit', '-qm', 'one'], { cwd: repo, env: ENV });
  // Not tracked: only `--no-index` shows it.
  writeFileSync(path.join(repo, 'untracked.txt'), 'untracked-text\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!GIT)('noIndexOperands: when the real git diffs two paths as --no-index', () => {
  const place = () => ({ folder: repo, top: repo, home: os.homedir() });
  const shown = (args: string[]) =>
    spawnSync('git', ['diff', ...args], { cwd: repo, env: ENV, encoding: 'utf8' }).stdout;

  test.each([
    ['OUT EMPTY', 'outside-text'],
    ['EMPTY .', 'untracked-text'],
    ['-- OUT EMPTY', 'outside-text'],
    ['--stat EMPTY .', 'untracked.txt'],
    ['../out ../empty', 'outside-text'],
  ])('git diff %s reads both paths whole', (line, text) => {
    const args = line.replace(/OUT/g, `${root}/out`).replace(/EMPTY/g, `${root}/empty`).split(' ');
    expect(shown(args)).toContain(text);
    expect(noIndexOperands(args.map(word), place())?.map((w) => w.value)).toEqual(args.slice(-2));
  });

  test.each(['a.txt src', '-- a.txt src', `-S x ${'OUT'} .`, 'src', '.'])(
    'git diff %s diffs the repository',
    (line) => {
      const args = line.replace(/OUT/g, `${root}/out`).split(' ');
      expect(shown(args)).not.toMatch(/outside-text|untracked/);
      expect(noIndexOperands(args.map(word), place())).toBeUndefined();
    },
  );

  test('a path not known before the command runs, or outside any repository, may be either', () => {
    const hidden = { text: '$P', value: '', literal: false };
    expect(noIndexOperands([hidden, word('.')], place())).toHaveLength(2);
    expect(noIndexOperands([word('a'), word('b')], { ...place(), top: undefined })).toHaveLength(2);
    expect(noIndexOperands([word('a'), word('b')], { ...place(), folder: undefined })).toHaveLength(2);
  });
});
