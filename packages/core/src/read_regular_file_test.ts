import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readRegularFileSync, readShortRegularFile } from './read_regular_file.ts';

const dir = mkdtempSync(join(tmpdir(), 'toolshed-regular-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFileSync', () => {
  test('reads a regular file', () => {
    writeFileSync(join(dir, 'a'), 'gitdir: ../x\n');
    expect(readRegularFileSync(join(dir, 'a'))?.toString('utf8')).toBe('gitdir: ../x\n');
  });

  test('refuses a FIFO at once, without waiting for a writer', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const started = Date.now();
    expect(readRegularFileSync(join(dir, 'fifo'))).toBeUndefined();
    // A blocking open would wait here for ever; the test's own timeout is the bound.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('refuses a device, a folder, a missing file and one over the limit', () => {
    expect(readRegularFileSync('/dev/zero')).toBeUndefined();
    mkdirSync(join(dir, 'folder'));
    expect(readRegularFileSync(join(dir, 'folder'))).toBeUndefined();
    expect(readRegularFileSync(join(dir, 'missing'))).toBeUndefined();
    writeFileSync(join(dir, 'big'), 'x'.repeat(100));
    expect(readRegularFileSync(join(dir, 'big'), { maxBytes: 99 })).toBeUndefined();
    expect(readRegularFileSync(join(dir, 'big'), { maxBytes: 100 })?.length).toBe(100);
  });
});

describe('readShortRegularFile', () => {
  test('reads a regular file whole, up to the bound', async () => {
    writeFileSync(join(dir, 'short'), 'x'.repeat(100));
    expect(await readShortRegularFile(join(dir, 'short'), { maxBytes: 100 })).toEqual({ text: 'x'.repeat(100) });
    expect(await readShortRegularFile(join(dir, 'short'), { maxBytes: 99 })).toEqual({
      notRead: { kind: 'too-big', size: 100 },
    });
  });

  test('says why it did not read a FIFO (at once), a device or a folder; throws for a missing file with its code', async () => {
    execFileSync('mkfifo', [join(dir, 'fifo2')]);
    expect(await readShortRegularFile(join(dir, 'fifo2'))).toEqual({ notRead: { kind: 'not-regular' } });
    expect(await readShortRegularFile('/dev/zero')).toEqual({ notRead: { kind: 'not-regular' } });
    mkdirSync(join(dir, 'folder2'));
    expect(await readShortRegularFile(join(dir, 'folder2'))).toEqual({ notRead: { kind: 'directory' } });
    await expect(readShortRegularFile(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a sparse file of 3 GB is refused by its size, not read', async () => {
    const file = join(dir, 'sparse');
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3);
    expect(await readShortRegularFile(file)).toEqual({ notRead: { kind: 'too-big', size: 3 * 1024 ** 3 } });
  });

  test('with noFollow a symbolic link is refused by the open itself, not followed', async () => {
    writeFileSync(join(dir, 'target'), 'SECRET');
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    expect(await readShortRegularFile(join(dir, 'link'), { noFollow: true })).toEqual({ notRead: { kind: 'link' } });
    expect(await readShortRegularFile(join(dir, 'link'))).toEqual({ text: 'SECRET' });
    expect(await readShortRegularFile(join(dir, 'target'), { noFollow: true })).toEqual({ text: 'SECRET' });
  });
});
