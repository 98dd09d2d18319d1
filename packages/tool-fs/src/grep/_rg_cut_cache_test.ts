import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PIECE_SHARES } from './_rg_cut.ts';
import { cachedCutTree } from './_rg_cut_cache.ts';

describe('cachedCutTree', () => {
  let dir: string;
  let clock = 0;
  const now = () => clock;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rg-cut-cache-'));
    for (const folder of ['a', 'b', 'c', 'd']) {
      await mkdir(path.join(dir, folder));
      for (let i = 0; i < 5; i++) await writeFile(path.join(dir, folder, `f${i}.ts`), 'x\n');
    }
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('reuses the cut of the same folder, by whatever path, within the window', async () => {
    const first = await cachedCutTree(dir, PIECE_SHARES, { now });
    expect(first?.length).toBe(4);
    clock += 29_000;
    expect(await cachedCutTree(dir, PIECE_SHARES, { now })).toBe(first);
    await symlink(dir, `${dir}-link`);
    try {
      expect(await cachedCutTree(`${dir}-link`, PIECE_SHARES, { now })).toBe(first);
    } finally {
      await rm(`${dir}-link`);
    }
    // Other shares are another cut.
    const halves = await cachedCutTree(dir, [0.5, 0.5], { now });
    expect(halves?.length).toBe(2);
  });

  test('cuts again once the window is over, or the folder’s own entries changed', async () => {
    const first = await cachedCutTree(dir, PIECE_SHARES, { now });
    clock += 30_001;
    const later = await cachedCutTree(dir, PIECE_SHARES, { now });
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
    // A folder of a hundred files at the top: the pieces fall elsewhere at once.
    await mkdir(path.join(dir, 'e'));
    for (let i = 0; i < 100; i++) await writeFile(path.join(dir, 'e', `f${i}.ts`), 'x\n');
    const changed = await cachedCutTree(dir, PIECE_SHARES, { now });
    expect(changed).not.toEqual(first);
    expect(changed!.at(-1)!.from?.toString()).toMatch(/^e/);
  });

  test('a folder that cannot be read is not cut (and nothing is kept of it)', async () => {
    expect(await cachedCutTree(path.join(dir, 'missing'), PIECE_SHARES, { now })).toBeUndefined();
  });
});
