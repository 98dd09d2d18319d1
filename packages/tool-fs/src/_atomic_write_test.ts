import { rmSync, symlinkSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { hashContent } from '@toolshed/core/internal';
import { ConcurrentChangeError, writeFileAtomic } from './_atomic_write.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  test('refuses to rename over a file whose content changed since it was checked, and leaves it as it is', async () => {
    const f = path.join(dir, 'a.txt');
    await writeFile(f, 'v1');
    const expected = hashContent('v1');
    await writeFile(f, 'v2 from elsewhere');
    await expect(writeFileAtomic(f, Buffer.from('mine'), { expectHash: expected })).rejects.toBeInstanceOf(
      ConcurrentChangeError,
    );
    expect(await readFile(f, 'utf8')).toBe('v2 from elsewhere');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  test('refuses to rename over a file whose bytes differ from expectBytes, even of the same length', async () => {
    const f = path.join(dir, 'a.txt');
    await writeFile(f, 'v2');
    await expect(writeFileAtomic(f, Buffer.from('new'), { expectBytes: Buffer.from('v1') })).rejects.toBeInstanceOf(
      ConcurrentChangeError,
    );
    expect(await readFile(f, 'utf8')).toBe('v2');
    expect(await readdir(dir)).toEqual(['a.txt']);
    await writeFileAtomic(f, Buffer.from('new'), { expectBytes: Buffer.from('v2') });
    expect(await readFile(f, 'utf8')).toBe('new');
  });

  test('runs whileFlushing during the write, and writes nothing when it throws', async () => {
    const f = path.join(dir, 'a.txt');
    await writeFile(f, 'old');
    let ran = false;
    await writeFileAtomic(f, Buffer.from('one'), { whileFlushing: () => void (ran = true) });
    expect(ran).toBe(true);
    await expect(
      writeFileAtomic(f, Buffer.from('two'), {
        whileFlushing: () => {
          throw new Error('hash failed');
        },
      }),
    ).rejects.toThrow('hash failed');
    expect(await readFile(f, 'utf8')).toBe('one');
    expect(await readdir(dir)).toEqual(['a.txt']);
  });

  test('refuses to create a file that appeared meanwhile', async () => {
    const f = path.join(dir, 'new.txt');
    await writeFile(f, 'someone was first');
    await expect(writeFileAtomic(f, Buffer.from('mine'), { expectMissing: true })).rejects.toThrow(
      /changed by something else/,
    );
    expect(await readFile(f, 'utf8')).toBe('someone was first');
  });

  test('keeps the mode of the file it replaces and writes through a symlink', async () => {
    const target = path.join(dir, 't.sh');
    await writeFile(target, 'old');
    await chmod(target, 0o711);
    await symlink('t.sh', path.join(dir, 'link'));
    const written = await writeFileAtomic(path.join(dir, 'link'), Buffer.from('new'));
    expect(written).toBe(await realpath(target));
    expect((await stat(target)).mode & 0o777).toBe(0o711);
    expect((await lstat(path.join(dir, 'link'))).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('new');
  });

  test('a write that fails (a file where a folder should be) throws and leaves nothing behind', async () => {
    await writeFile(path.join(dir, 'plain'), 'x');
    await expect(writeFileAtomic(path.join(dir, 'plain', 'f.txt'), Buffer.from('y'))).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(await readdir(dir)).toEqual(['plain']);
    expect(await readFile(path.join(dir, 'plain'), 'utf8')).toBe('x');
  });
});

describe('writeFileAtomic where a folder link on its way moves during the write', () => {
  // Approved: d/new.txt -> real/new.txt. The attacker flips d between real and .git/hooks.
  let real: string;
  let hooks: string;
  let link: string;
  beforeEach(async () => {
    real = path.join(await realpath(dir), 'real');
    hooks = path.join(await realpath(dir), '.git', 'hooks');
    link = path.join(await realpath(dir), 'd');
    await mkdir(real);
    await mkdir(hooks, { recursive: true });
  });
  const repoint = (to: string) => () => {
    rmSync(link);
    symlinkSync(to, link);
  };

  test('a link pointing elsewhere when the write starts writes nothing there, even once pointed back before the rename', async () => {
    await symlink(hooks, link);
    await expect(
      writeFileAtomic(path.join(link, 'pre-commit'), Buffer.from('evil'), {
        allowedTargets: [path.join(real, 'pre-commit')],
        expectMissing: true,
        whileFlushing: repoint(real),
      }),
    ).rejects.toThrow(/changed between its permission check and the write/);
    expect(await readdir(hooks)).toEqual([]);
    expect(await readdir(real)).toEqual([]);
  });

  test('a link re-pointed after the write started does not move it: the file lands where it was checked', async () => {
    await symlink(real, link);
    await writeFileAtomic(path.join(link, 'pre-commit'), Buffer.from('notes'), {
      allowedTargets: [path.join(real, 'pre-commit')],
      expectMissing: true,
      whileFlushing: repoint(hooks),
    });
    expect(await readdir(hooks)).toEqual([]);
    expect(await readFile(path.join(real, 'pre-commit'), 'utf8')).toBe('notes');
  });
});

describe('writeFileAtomic through a dangling link', () => {
  test('a chain of dangling links is followed to its end, as the shell does, and every link kept', async () => {
    const root = await realpath(dir);
    await mkdir(path.join(root, 'out'));
    await symlink('b', path.join(root, 'a'));
    await symlink('out/new.txt', path.join(root, 'b'));
    const written = await writeFileAtomic(path.join(root, 'a'), Buffer.from('x'), {
      allowedTargets: [path.join(root, 'out', 'new.txt')],
      expectMissing: true,
    });
    expect(written).toBe(path.join(root, 'out', 'new.txt'));
    expect(await readFile(path.join(root, 'out', 'new.txt'), 'utf8')).toBe('x');
    expect((await lstat(path.join(root, 'b'))).isSymbolicLink()).toBe(true);
  });
});
