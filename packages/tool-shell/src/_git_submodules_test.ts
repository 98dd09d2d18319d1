import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ShellWord } from './bash_parser.ts';
import { declareCheckedOut, declareGitmodulesWrite, submodulePaths } from './_git_submodules.ts';
import { parseGitWords } from './_git_words.ts';

const word = (value: string): ShellWord => ({ text: value, value, literal: true });
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-submodules-'));
  await writeFile(
    path.join(dir, '.gitmodules'),
    '[submodule "a"]\n\tpath = vendor/a\n\turl = x\n[submodule "b"]\n  PATH = "lib b"\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('submodulePaths', () => {
  test('reads every path of .gitmodules, quotes undone, in any case; none without the file', () => {
    expect(submodulePaths(dir)).toEqual([path.join(dir, 'vendor/a'), path.join(dir, 'lib b')]);
    expect(submodulePaths(path.join(dir, 'missing'))).toBeUndefined();
  });
});

describe('declareGitmodulesWrite', () => {
  const run = (sub: 'rm' | 'mv', words: string[], root: string | null = dir) => {
    const written: string[] = [];
    const unknown: string[] = [];
    declareGitmodulesWrite(sub, parseGitWords(sub, words.map(word)), {
      add: (w) => void (w && written.push(w.value)),
      addUnknown: (what) => void unknown.push(what),
      repositoryRoot: root ?? undefined,
      elsewhere: false,
      home: '/h',
      folder: root ?? undefined,
    });
    return { written, unknown };
  };

  test('a pathspec at or above a submodule writes .gitmodules; others, --cached and -n do not', () => {
    expect(run('rm', ['vendor/a']).written).toEqual([path.join(dir, '.gitmodules')]);
    expect(run('rm', ['-r', 'vendor']).written).toEqual([path.join(dir, '.gitmodules')]);
    expect(run('mv', ['lib b', 'c']).written).toEqual([path.join(dir, '.gitmodules')]);
    expect(run('rm', ['vendor/ab']).written).toEqual([]);
    expect(run('rm', ['--cached', 'vendor/a']).written).toEqual([]);
    expect(run('mv', ['-n', 'vendor/a', 'c']).written).toEqual([]);
  });

  test('a repository not known is an unknown write', () => {
    expect(run('rm', ['vendor/a'], null).unknown).toHaveLength(1);
  });
});

describe('declareCheckedOut', () => {
  const unknownOf = (sub: string, words: string[], shortN = false) => {
    const unknown: string[] = [];
    const rest = words.map(word);
    declareCheckedOut(`git ${sub}`, word('x'), {
      words: parseGitWords(sub, rest),
      rest,
      addUnknown: (what) => void unknown.push(what),
      shortN,
    });
    return unknown;
  };

  test('a checkout is an unknown write that names the folder; --no-checkout, -n, --bare, --mirror check nothing out', () => {
    expect(unknownOf('clone', ['u', 'x'], true)[0]).toContain('into `x`');
    for (const off of [['--no-checkout'], ['-n'], ['-qn'], ['--bare'], ['--mirror']])
      expect(unknownOf('clone', [...off, 'u', 'x'], true), off.join(' ')).toEqual([]);
    // A later --checkout undoes it; -n of worktree add is not --no-checkout.
    expect(unknownOf('clone', ['--no-checkout', '--checkout', 'u', 'x'], true)).toHaveLength(1);
    expect(unknownOf('worktree', ['add', '-n', 'x'])).toHaveLength(1);
  });
});
