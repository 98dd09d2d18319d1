import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { optionFiles } from './_git_option_files.ts';
import { hasGit } from './testdata/has_git.ts';
import { GIT_TEST_ENV } from './testdata/git_fixture.ts';

const GIT = hasGit('_git_option_files_test');
const ENV = GIT_TEST_ENV;
const word = (value: string) => ({ text: value, value, literal: true });
const words = (line: string) => line.split(' ').filter(Boolean).map(word);

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'toolshed-git-option-files-'));
  if (!GIT) return;
  execFileSync('git', ['init', '-q'], { cwd: dir, env: ENV });
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  execFileSync('git', ['add', '-A'], { cwd: dir, env: ENV });
  execFileSync('git', ['commit', '-qm', 'one'], { cwd: dir, env: ENV });
  // A change to diff: git reads the order file only with something to show.
  writeFileSync(path.join(dir, 'a.txt'), 'b\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!GIT)('optionFiles: the files the real git opens for an option', () => {
  test.each([
    ['blame', '--contents NOFILE a.txt'],
    ['blame', '--cont=NOFILE a.txt'],
    ['blame', '-S NOFILE a.txt'],
    ['blame', '-wSNOFILE a.txt'],
    ['blame', '--ignore-revs-f NOFILE a.txt'],
    ['blame', '--ignore-revs-file=NOFILE a.txt'],
    ['grep', '-f NOFILE'],
    ['grep', '-nf NOFILE'],
    ['grep', '--file=NOFILE'],
    ['diff', '-RONOFILE'],
    ['diff', '-O NOFILE'],
    ['log', '-p -ONOFILE -1'],
    ['show', '--orderfile=NOFILE'],
    ['commit', '--allow-empty -F NOFILE'],
    ['commit', '--allow-empty --fil=NOFILE'],
    ['tag', '-a t1 -F NOFILE'],
    ['notes', 'add -F NOFILE'],
    ['merge', '-F NOFILE HEAD'],
  ])('git %s %s opens NOFILE, and the guard names it', (sub, line) => {
    const run = spawnSync('git', [sub, ...line.split(' ')], { cwd: dir, env: ENV, encoding: 'utf8' });
    expect(run.stderr).toContain('NOFILE');
    expect(optionFiles(sub, words(line)).files.map((w) => w.value)).toEqual(['NOFILE']);
  });

  test.each([
    ['blame', '-L 1,1 a.txt'],
    ['grep', '-e NOFILE -- a.txt'],
    ['grep', '-eNOFILE -- a.txt'],
    ['diff', '-S NOFILE'],
    ['log', '-p -- NOFILE'],
    ['commit', '--allow-empty -m NOFILE'],
    ['tag', '-m NOFILE t2'],
  ])('git %s %s opens no file for an option, and the guard names none', (sub, line) => {
    const run = spawnSync('git', [sub, ...line.split(' ')], { cwd: dir, env: ENV, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/open|stat|read/);
    expect(optionFiles(sub, words(line)).files).toEqual([]);
  });

  test('a word not known before the command runs may be such an option', () => {
    expect(optionFiles('blame', [{ text: '$X', value: '', literal: false }, word('a.txt')]).hidden).toBe(true);
    expect(optionFiles('blame', [word('-S'), { text: '$F', value: '', literal: false }]).hidden).toBe(true);
  });
});
