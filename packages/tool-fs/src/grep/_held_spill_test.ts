import { readlinkSync, statSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HeldSpill } from './_held_spill.ts';

/** Everything `next` gives until it is caught up, chunk by chunk. */
async function readAll(spill: HeldSpill, maxBytes: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let bytes = await spill.next(maxBytes); bytes !== undefined; bytes = await spill.next(maxBytes)) out.push(bytes);
  return out;
}

describe('HeldSpill', () => {
  let tmp: string;
  const before = process.env.TMPDIR;
  beforeEach(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'held-spill-test-'));
    process.env.TMPDIR = tmp;
  });
  afterEach(async () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await chmod(tmp, 0o700).catch(() => {});
    await rm(tmp, { recursive: true, force: true });
  });

  test('gives the chunks back in order, whole, while more are appended between reads', async () => {
    const spill = new HeldSpill();
    const lines = (from: number, n: number) =>
      Buffer.from(Array.from({ length: n }, (_, i) => `f${from + i}\u00001:line ${from + i}\n`).join(''));
    spill.append(lines(0, 10));
    spill.append(lines(10, 10));
    const first = await spill.next(1 << 20);
    spill.append(lines(20, 5));
    const rest = await readAll(spill, 1 << 20);
    expect(Buffer.concat([first!, ...rest]).toString()).toBe(lines(0, 25).toString());
    expect(await spill.next(1 << 20)).toBeUndefined();
    await spill.remove();
  });

  test('reads at most maxBytes at a time, but never less than one chunk (each is whole lines)', async () => {
    const spill = new HeldSpill();
    const big = Buffer.alloc(3000, 'a');
    big[2999] = 10;
    const small = Buffer.from('b\n');
    spill.append(small);
    spill.append(big);
    spill.append(small);
    spill.append(small);
    const parts = await readAll(spill, 1000);
    expect(parts.map((p) => p.length)).toEqual([2, 3000, 4]);
    await spill.remove();
  });

  test('chunks appended while a write is under way go in one write: writes do not grow with chunks', async () => {
    const spill = new HeldSpill();
    for (let i = 0; i < 1000; i++) spill.append(Buffer.from(`f${i}\u00001:x\n`));
    const parts = await readAll(spill, 1 << 20);
    expect(Buffer.concat(parts).toString().split('\n')).toHaveLength(1001);
    // The first append starts a write; the 999 after it wait for it and go in the next one.
    expect(spill.writes).toBeLessThanOrEqual(2);
    await spill.remove();
  });

  test.skipIf(process.platform !== 'linux')(
    'makes its file readable by its owner only, and leaves no name of it in the temporary folder',
    async () => {
      const spill = new HeldSpill();
      spill.append(Buffer.from('a\n'));
      await spill.next(1 << 20);
      // Gone from the folder while in use; the open file is found by its descriptor.
      expect(await readdir(tmp)).toEqual([]);
      const fds = await readdir('/proc/self/fd');
      const held = fds.find((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path.join(tmp, 'toolshed-grep-held-'));
        } catch {
          return false;
        }
      });
      expect(held).toBeDefined();
      expect(statSync(`/proc/self/fd/${held}`).mode & 0o777).toBe(0o600);
      await spill.remove();
      expect(await readdir(tmp)).toEqual([]);
    },
  );

  test('a temporary folder it cannot write in: the read rejects saying where, and what to do', async () => {
    if (process.getuid?.() === 0) {
      // root writes anywhere: a folder that does not exist instead.
      process.env.TMPDIR = path.join(tmp, 'missing');
    } else await chmod(tmp, 0o500);
    const spill = new HeldSpill();
    spill.append(Buffer.from('a\n'));
    await expect(spill.next(1 << 20)).rejects.toThrow(
      process.getuid?.() === 0
        ? /could not keep ripgrep's output in a temporary file under .*missing, which does not exist.*TMPDIR.*head_limit/
        : /could not keep ripgrep's output in a temporary file under .*held-spill-test.*, which this process cannot write in.*point TMPDIR at a folder it can write in.*head_limit/,
    );
    await spill.remove();
  });

  test('a missing folder is named as missing, not as out of space', async () => {
    process.env.TMPDIR = path.join(tmp, 'missing');
    const missing = new HeldSpill();
    missing.append(Buffer.from('a\n'));
    const error = await missing.next(1 << 20).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(
      /under .*missing, which does not exist.*create it or point TMPDIR at a folder that exists.*head_limit/,
    );
    expect(error).not.toMatch(/free space/);
    await missing.remove();
  });

  test('nothing appended: no file is made, and it is caught up at once', async () => {
    const spill = new HeldSpill();
    expect(await spill.next(1 << 20)).toBeUndefined();
    await spill.remove();
    expect(await readdir(tmp)).toEqual([]);
  });
});
