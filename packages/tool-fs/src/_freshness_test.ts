import { describe, expect, test } from 'vitest';
import { FileStateCache } from '@toolshed/core';
import { hashContent } from '@toolshed/core/internal';
import { isRepeatRead, readTicket, recordRead, recordWrite } from './_freshness.ts';

const KEY = '/repo/a.txt';
const hash = hashContent('v1');
const shown = (start: number, count: number, total = 100) => ({
  contentHash: hash,
  mtimeMs: 1,
  size: 2,
  start,
  shown: count,
  total,
});

describe('recordRead', () => {
  test('overlapping and touching ranges of one content add up, and all lines make a full read', () => {
    const cache = new FileStateCache();
    recordRead(cache, KEY, shown(1, 20));
    recordRead(cache, KEY, shown(21, 30));
    expect(cache.get(KEY)).toMatchObject({ partial: true, offset: 1, limit: 50 });
    recordRead(cache, KEY, shown(40, 61));
    expect(cache.get(KEY)).toMatchObject({ partial: false, offset: 1, limit: 100 });
  });

  test('a range apart from the earlier one replaces it, and other content starts over', () => {
    const cache = new FileStateCache();
    recordRead(cache, KEY, shown(1, 10));
    recordRead(cache, KEY, shown(50, 10));
    expect(cache.get(KEY)).toMatchObject({ partial: true, offset: 50, limit: 10 });
    recordRead(cache, KEY, { ...shown(1, 5), contentHash: hashContent('v2') });
    expect(cache.get(KEY)).toMatchObject({ partial: true, offset: 1, limit: 5 });
  });

  test('a part read again after the whole file keeps the read full', () => {
    const cache = new FileStateCache();
    recordRead(cache, KEY, shown(1, 100));
    recordRead(cache, KEY, shown(30, 5));
    expect(cache.get(KEY)).toMatchObject({ partial: false });
  });
});

describe('isRepeatRead', () => {
  test('is true only for the same lines of the same content, read before this Read started', () => {
    const cache = new FileStateCache();
    const early = readTicket();
    recordRead(cache, KEY, shown(1, 10));
    expect(isRepeatRead(cache, KEY, { ...shown(1, 10), ticket: early })).toBe(false);
    const late = readTicket();
    expect(isRepeatRead(cache, KEY, { ...shown(1, 10), ticket: late })).toBe(true);
    expect(isRepeatRead(cache, KEY, { ...shown(1, 11), ticket: late })).toBe(false);
    expect(isRepeatRead(cache, KEY, { ...shown(1, 10), contentHash: hashContent('v2'), ticket: late })).toBe(false);
  });

  test('is false once the cache forgot the file, or a write recorded other content', () => {
    const cache = new FileStateCache();
    recordRead(cache, KEY, shown(1, 10));
    cache.clear();
    expect(isRepeatRead(cache, KEY, { ...shown(1, 10), ticket: readTicket() })).toBe(false);
    recordRead(cache, KEY, shown(1, 10));
    const st = { mtimeMs: 2, size: 2 } as import('node:fs').Stats;
    recordWrite(cache, KEY, { bytes: Buffer.from('v3'), text: 'v3', st, seen: { from: 1, to: 10 } });
    expect(isRepeatRead(cache, KEY, { ...shown(1, 10), contentHash: hashContent('v3'), ticket: readTicket() })).toBe(
      false,
    );
  });
});
