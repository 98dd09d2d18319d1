import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createPermissionContext } from '@toolshed/core/internal';
import { canonicalPath, deviceByName, editRuleFor, missingFileMessage, toAbsolute } from './_paths.ts';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-paths-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('deviceByName', () => {
  test.each(['/dev/zero', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/1', '/proc/123/fd/7', '/dev/tty1', '/dev/sda'])(
    '%s is known as a device by its name',
    (p) => {
      expect(deviceByName(p)).toBeDefined();
    },
  );

  test('ordinary paths, /proc files and /dev folders are not', () => {
    expect(deviceByName('/home/u/a.txt')).toBeUndefined();
    expect(deviceByName('/proc/self/status')).toBeUndefined();
    expect(deviceByName('/dev/shm/x')).toBeUndefined();
  });
});

describe('canonicalPath', () => {
  test('resolves symlinks, and keeps missing parts as given under the real parent', async () => {
    await mkdir(path.join(dir, 'real'));
    await writeFile(path.join(dir, 'real', 'a.txt'), 'x');
    await symlink(path.join(dir, 'real'), path.join(dir, 'link'));
    expect(await canonicalPath(path.join(dir, 'link', 'a.txt'))).toBe(path.join(dir, 'real', 'a.txt'));
    expect(await canonicalPath(path.join(dir, 'link', 'new', 'b.txt'))).toBe(path.join(dir, 'real', 'new', 'b.txt'));
  });
});

describe('toAbsolute and missingFileMessage', () => {
  test('relative paths resolve against the cwd', () => {
    expect(toAbsolute('src/../a.ts', '/repo')).toBe('/repo/a.ts');
  });

  test('a missing file gets near names of the same stem or a small typo', async () => {
    await writeFile(path.join(dir, 'index.ts'), '');
    await writeFile(path.join(dir, 'README.md'), '');
    expect(await missingFileMessage(path.join(dir, 'index.js'), dir)).toContain(
      `Did you mean ${path.join(dir, 'index.ts')}?`,
    );
    expect(await missingFileMessage(path.join(dir, 'readme.md'), dir)).toContain(path.join(dir, 'README.md'));
    expect(await missingFileMessage(path.join(dir, 'zzz.bin'), dir)).toContain(
      `The session's working directory is ${dir}`,
    );
  });

  test('the near names leave out files the caller may not read (deny and ask rules)', async () => {
    await mkdir(path.join(dir, 'secrets'));
    await writeFile(path.join(dir, 'secrets', 'key'), 'k');
    await writeFile(path.join(dir, 'secrets', 'kex'), 'k');
    const { context } = createPermissionContext({ deny: ['Read(./secrets/key)'], ask: ['Read(./secrets/kex)'] }, dir);
    const message = await missingFileMessage(path.join(dir, 'secrets', 'kez'), dir, {
      ctx: { cwd: dir, permissions: context },
    });
    expect(message).not.toContain('secrets/key');
    expect(message).not.toContain('secrets/kex');
    // Without the rules, the same call names them: the test can tell.
    expect(await missingFileMessage(path.join(dir, 'secrets', 'kez'), dir)).toContain('secrets/key');
  });
});

describe('editRuleFor', () => {
  test('an absolute path gets the // form, home and relative paths their own', () => {
    expect(editRuleFor('/repo/src/a.ts')).toBe('Edit(//repo/src/a.ts)');
    expect(editRuleFor('~/notes/x.md')).toBe('Edit(~/notes/x.md)');
    expect(editRuleFor('./src/../src/a.ts')).toBe('Edit(./src/a.ts)');
    expect(editRuleFor('src/a.ts')).toBe('Edit(./src/a.ts)');
  });
});
