import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { hashContent } from '@toolshed/core/internal';
import { afterAll, describe, expect, test, vi } from 'vitest';
import {
  hashInBackground,
  hashOffThread,
  hashWorkerStats,
  OFF_THREAD_MIN_BYTES,
  sharedUtf8,
  stopHashWorker,
} from './_hash_off_thread.ts';
import { readWholeFile } from './_text_file.ts';

afterAll(async () => {
  await stopHashWorker();
});

/** Hashes until the worker has answered one (the first large hash only starts it). */
async function hashOnWorker(bytes: Uint8Array | Uint8Array[]): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const before = hashWorkerStats().offThread;
    const hash = await hashOffThread(bytes);
    if (hashWorkerStats().offThread > before) return hash;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the hash worker never answered');
}

const big = (fill: string) => sharedUtf8(fill.repeat(Math.ceil((2 * OFF_THREAD_MIN_BYTES) / fill.length)));

// On one CPU there is no worker: every hash is on the calling thread (covered by the tools' tests).
describe.skipIf(availableParallelism() < 2)('hashOffThread', () => {
  test('a large input hashed on the worker gets the same digest as hashContent, and one byte changed another', async () => {
    const bytes = big('export const a = 1;\n');
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(await hashOnWorker(bytes)).toBe(hashContent(bytes));
    const changed = Buffer.from(bytes);
    changed[changed.length >> 1] = 0x41;
    const other = await hashOnWorker(changed);
    expect(other).toBe(hashContent(changed));
    expect(other).not.toBe(hashContent(bytes));
  });

  test('pieces hash as the bytes they make joined, in shared memory or not', async () => {
    const bytes = big('line of text\n');
    const pieces = [bytes.subarray(0, 1000), Buffer.from('änderung'), Buffer.from(bytes.subarray(1000))];
    expect(pieces[2]!.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(await hashOnWorker(pieces)).toBe(hashContent(Buffer.concat(pieces)));
    expect(await hashOffThread([])).toBe(hashContent(''));
  });

  test('small inputs are hashed on the calling thread', async () => {
    const { onThread } = hashWorkerStats();
    expect(await hashOffThread(Buffer.from('small'))).toBe(hashContent('small'));
    expect(hashWorkerStats().onThread).toBe(onThread + 1);
  });

  test('a job out when the worker is stopped is hashed on the calling thread, and a new worker starts later', async () => {
    const bytes = big('abc');
    await hashOnWorker(bytes);
    const pending = hashOffThread(bytes);
    await stopHashWorker();
    expect(await pending).toBe(hashContent(bytes));
    expect(hashWorkerStats().ready).toBe(false);
    expect(await hashOnWorker(bytes)).toBe(hashContent(bytes));
  });
});

describe.skipIf(availableParallelism() < 2)('hashInBackground', () => {
  test('gives the digest whenever asked: before the worker answers (on this thread), and after; then calls whenHashed once', async () => {
    await hashOnWorker(big('warm up\n'));
    for (const askAtOnce of [true, false]) {
      const bytes = big(`text ${askAtOnce}\n`);
      const { offThread, onThread } = hashWorkerStats();
      let released = 0;
      const digest = hashInBackground(bytes, () => released++);
      if (askAtOnce) {
        expect(digest()).toBe(hashContent(bytes));
        expect(hashWorkerStats().onThread).toBe(onThread + 1);
      }
      expect(released).toBe(0);
      await vi.waitFor(() => expect(released).toBe(1));
      expect(hashWorkerStats().offThread).toBe(offThread + 1);
      // Once the worker has answered, the bytes are not read again: changing them changes nothing.
      bytes.fill(0);
      expect(digest()).toBe(hashContent(big(`text ${askAtOnce}\n`)));
      expect(hashWorkerStats().onThread).toBe(onThread + (askAtOnce ? 1 : 0));
      expect(released).toBe(1);
    }
  });
});

describe('sharedUtf8', () => {
  test('gives the bytes Buffer.from gives, for ASCII, accents, emoji across the split and lone surrogates', () => {
    const n = OFF_THREAD_MIN_BYTES;
    const texts = [
      'a'.repeat(n + 5),
      `${'a'.repeat(n - 1)}😀${'b'.repeat(10)}`,
      `é${'a'.repeat(n)}`,
      `${'a'.repeat(n)}\uD800x\uDC00`,
      '😀'.repeat(n),
      'short é',
    ];
    for (const text of texts) expect(sharedUtf8(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(sharedUtf8('a'.repeat(n)).buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('readWholeFile', () => {
  test('reads empty, small and large files whole', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-read-whole-'));
    try {
      const large = Buffer.alloc(3 * OFF_THREAD_MIN_BYTES + 7, 'x');
      large[large.length - 1] = 0x0a;
      for (const [name, bytes] of [
        ['empty', Buffer.alloc(0)],
        ['small', Buffer.from('one\ntwo\n')],
        ['edge', Buffer.alloc(8192, 'y')],
        ['large', large],
      ] as const) {
        await writeFile(path.join(dir, name), bytes);
        expect((await readWholeFile(path.join(dir, name))).equals(bytes)).toBe(true);
      }
      await expect(readWholeFile(path.join(dir, 'missing'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
