import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { analyzeCommand, loadBashParser } from './bash_parser.ts';
import { linksMade, pathsAnotherPartChanges } from './_same_command_paths.ts';

let dir = '';
beforeAll(async () => {
  await loadBashParser();
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-same-command-')));
  await mkdir(path.join(dir, 'plain/sub'), { recursive: true });
  await writeFile(path.join(dir, 'plain/sub/f'), 'f');
  await mkdir(path.join(dir, 'linked'), { recursive: true });
  await symlink('../plain', path.join(dir, 'linked/l'));
  await writeFile(path.join(dir, 'file'), 'f');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('linksMade', () => {
  test.each([
    ['ln -s a b', 'landings'],
    ['ln a b', 'carried'],
    ['mv a b', 'carried'],
    ['cp -r a b', 'carried'],
    ['cp -a a b', 'carried'],
    ['cp a b', 'none'],
    ['git checkout main', 'all'],
    ["bash -c 'ln -s a b'", 'all'],
    ['nice ln -s a b', 'landings'],
    ['cp -rs /abs/src d', 'landings'],
    ['cp --symbolic-link /abs/f d', 'landings'],
    ['cp -r src d', 'carried'],
    ['mkdir -p a', 'none'],
  ])('%s: %s', (command, expected) => {
    expect(linksMade(analyzeCommand(command).commands[0]!)).toBe(expected);
  });
});

describe('pathsAnotherPartChanges', () => {
  const w = (p: string, from?: string) => ({
    path: `${dir}/${p}`,
    access: 'write' as const,
    ...(from ? { from: `${dir}/${from}` } : {}),
  });
  test('a path below a link another part makes is changed; one in the same part is not', () => {
    const accesses = [w('d', '.git/hooks'), w('d/pre-commit'), w('e', '.git'), w('e/x')];
    const parts = [
      { start: 0, links: 'landings' as const },
      { start: 1, links: 'none' as const },
      { start: 2, links: 'landings' as const },
    ];
    expect(pathsAnotherPartChanges(accesses, { parts }).map((c) => c.index)).toEqual([1]);
  });

  test('a copy of a folder carries a link only when it holds one (or is not there)', () => {
    const parts = [
      { start: 0, links: 'carried' as const },
      { start: 1, links: 'none' as const },
    ];
    expect(pathsAnotherPartChanges([w('o', 'plain'), w('o/sub/f')], { parts })).toEqual([]);
    expect(pathsAnotherPartChanges([w('o', 'linked'), w('o/l/x')], { parts })).toHaveLength(1);
    expect(pathsAnotherPartChanges([w('o', 'missing'), w('o/x')], { parts })).toHaveLength(1);
  });

  test('a landing whose folder another part writes in is changed', () => {
    const accesses = [w('s/prod.json'), w('dest', 's')];
    const parts = [
      { start: 0, links: 'none' as const },
      { start: 1, links: 'carried' as const },
    ];
    const [changed] = pathsAnotherPartChanges(accesses, { parts });
    expect(changed?.index).toBe(1);
    expect(changed?.why).toContain(`in which another part of the command writes ${dir}/s/prod.json`);
    // A file copied after another part wrote it lands as the file it is.
    expect(pathsAnotherPartChanges([w('file'), w('dest/file', 'file')], { parts })).toEqual([]);
  });
});
