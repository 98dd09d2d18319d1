import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ToolshedError } from '../errors.ts';
import { resolveRealPath } from './resolve_real_path.ts';

let root: string;
let proj: string;
let outside: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-realpath-')));
  proj = join(root, 'proj');
  outside = join(root, 'outside');
  await mkdir(join(proj, 'src', 'deep'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(join(proj, 'secret.txt'), 'x');
  await writeFile(join(outside, 'data.txt'), 'x');
  await symlink(join(proj, 'secret.txt'), join(proj, 'innocent.txt'));
  await symlink(outside, join(proj, 'out'));
  await symlink('../outside/data.txt', join(proj, 'relative-out.txt'));
  await symlink(join(outside, 'not-yet.txt'), join(proj, 'dangling'));
  await symlink(join(proj, 'loop-b'), join(proj, 'loop-a'));
  await symlink(join(proj, 'loop-a'), join(proj, 'loop-b'));
  await symlink(join(proj, 'self'), join(proj, 'self'));
  await symlink(join(outside), join(proj, 'src', 'deep', 'up'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('resolveRealPath', () => {
  const cases: [name: string, path: () => string, expected: () => string][] = [
    ['keeps a plain relative path inside cwd', () => 'src/deep', () => join(proj, 'src', 'deep')],
    ['collapses ".." lexically where nothing is a link', () => 'src/../secret.txt', () => join(proj, 'secret.txt')],
    ['follows a file symlink to its target', () => 'innocent.txt', () => join(proj, 'secret.txt')],
    ['follows a directory symlink out of the project', () => 'out/data.txt', () => join(outside, 'data.txt')],
    [
      "follows a relative symlink target from the link's directory",
      () => 'relative-out.txt',
      () => join(outside, 'data.txt'),
    ],
    [
      'resolves a new file through its symlinked parent directory',
      () => 'out/new/file.txt',
      () => join(outside, 'new', 'file.txt'),
    ],
    [
      'follows a dangling symlink to where its target would be created',
      () => 'dangling',
      () => join(outside, 'not-yet.txt'),
    ],
    [
      'goes up from a link\'s target on "..", as the kernel does',
      () => 'src/deep/up/../proj/secret.txt',
      () => join(root, 'proj', 'secret.txt'),
    ],
    [
      'resolves "../../etc/passwd" out of the project',
      () => '../../etc/passwd',
      () => resolve(proj, '../../etc/passwd'),
    ],
    ['collapses a long a/../.. chain', () => `${'a/'.repeat(50)}${'../'.repeat(52)}x`, () => resolve(root, '..', 'x')],
    ['takes an absolute path as is', () => '/etc/../etc/hosts', () => '/etc/hosts'],
    [
      'keeps resolving links after ".." leaves a missing directory',
      () => 'missing/../out/data.txt',
      () => join(outside, 'data.txt'),
    ],
  ];
  test.each(cases)('%s', (_name, path, expected) => {
    expect(resolveRealPath(path(), { cwd: proj })).toBe(expected());
  });

  test('expands "~" against the given home directory', () => {
    expect(resolveRealPath('~/out/data.txt', { cwd: '/', homeDir: proj })).toBe(join(outside, 'data.txt'));
    expect(resolveRealPath('~', { cwd: '/', homeDir: proj })).toBe(proj);
  });

  test.each(['loop-a', 'loop-a/file.txt', 'self', 'self/x/y'])(
    'reports circular symlinks in %j as an error instead of hanging',
    (path) => {
      let error: unknown;
      try {
        resolveRealPath(path, { cwd: proj });
      } catch (e) {
        error = e;
      }
      expect(ToolshedError.isInstance(error)).toBe(true);
      expect((error as ToolshedError).code).toBe('path_unresolvable');
      expect((error as Error).message).toContain(`The path "${path}" cannot be resolved: its symlinks loop`);
    },
  );
});
