import { appendFile, link, mkdtemp, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FileStateCache } from './file_state_cache.ts';
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { SavedResults, savedFileStats } from './saved_results.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-saved-results-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function savedFile(name = 't1.txt'): Promise<{ saved: SavedResults; file: string }> {
  const file = path.join(dir, name);
  await writeFile(file, 'the whole result');
  const saved = SavedResults.of(new FileStateCache());
  saved.record(file, savedFileStats(statSync(file)));
  return { saved, file };
}

describe('SavedResults', () => {
  test('one registry per file-state cache; a cache with nothing saved has none', () => {
    const cache = new FileStateCache();
    expect(SavedResults.find(cache)).toBeUndefined();
    expect(SavedResults.find(undefined)).toBeUndefined();
    const saved = SavedResults.of(cache);
    expect(SavedResults.of(cache)).toBe(saved);
    expect(SavedResults.find(cache)).toBe(saved);
    expect(SavedResults.find(new FileStateCache())).toBeUndefined();
  });

  test('a saved file is its own while unchanged, and the registry lists it for close()', async () => {
    const { saved, file } = await savedFile();
    expect(saved.isOwn(file)).toBe(true);
    expect([...saved]).toEqual([file]);
  });

  test('a file written after it was saved, or with its times reset, is no longer its own', async () => {
    const { saved, file } = await savedFile();
    await appendFile(file, ' and a secret');
    expect(saved.isOwn(file)).toBe(false);
    const again = await savedFile('t2.txt');
    const before = new Date(Date.now() - 60_000);
    await utimes(again.file, before, before);
    expect(again.saved.isOwn(again.file)).toBe(false);
  });

  test('a file of the same name put in its place, a hard link to another file, a symlink, a missing file: none is its own', async () => {
    const { saved, file } = await savedFile();
    const other = path.join(dir, 'other.txt');
    await writeFile(other, 'the whole result');
    const planted = path.join(dir, 'planted.txt');
    await link(other, planted);
    expect(saved.isOwn(planted)).toBe(false);
    await symlink(file, path.join(dir, 'link.txt'));
    expect(saved.isOwn(path.join(dir, 'link.txt'))).toBe(false);
    expect(saved.isOwn(path.join(dir, 'missing.txt'))).toBe(false);
    await rename(other, file);
    expect(saved.isOwn(file)).toBe(false);
  });

  test('a hard link made to the saved file changes it (its link count), so it is no longer its own', async () => {
    const { saved, file } = await savedFile();
    await link(file, path.join(dir, 'copy.txt'));
    expect(saved.isOwn(file)).toBe(false);
  });

  test('a path recorded without the stats of its writer (or only added) is kept for close() but never its own', async () => {
    const saved = SavedResults.of(new FileStateCache());
    const file = path.join(dir, 't1.txt');
    await writeFile(file, 'the whole result');
    saved.record(file, undefined);
    saved.add(dir);
    expect(saved.size).toBe(2);
    expect(saved.isOwn(file)).toBe(false);
    expect(saved.isOwn(dir)).toBe(false);
  });

  test('what is recorded is the file the handle wrote: one renamed over its path before the record is not its own', async () => {
    const file = path.join(dir, 't1.txt');
    const handle = await open(file, 'wx', 0o600);
    await handle.writeFile('the whole result');
    const written = savedFileStats(await handle.stat());
    await handle.close();
    const other = path.join(dir, 'other.txt');
    await writeFile(other, 'the whole result');
    await rename(other, file);
    const saved = SavedResults.of(new FileStateCache()).record(file, written);
    expect(saved.has(file)).toBe(true);
    expect(saved.isOwn(file)).toBe(false);
  });
});
