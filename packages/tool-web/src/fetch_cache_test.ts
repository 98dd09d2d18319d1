import { describe, expect, test } from 'vitest';
import { FetchCache } from './fetch_cache.ts';

describe('FetchCache', () => {
  test('FetchCache serves an entry until its time to live passes', () => {
    let now = 1_000;
    const cache = new FetchCache<string>({ ttlMs: 100, now: () => now });
    cache.set('a', 'A', 1);
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('FetchCache evicts the least recently used entries once the total size passes its limit', () => {
    const cache = new FetchCache<string>({ maxSize: 10 });
    cache.set('a', 'A', 4);
    cache.set('b', 'B', 4);
    expect(cache.get('a')).toBe('A'); // a is now more recent than b
    cache.set('c', 'C', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(8);
  });

  test('FetchCache does not keep an entry larger than the whole cache, and replacing an entry frees its old size', () => {
    const cache = new FetchCache<string>({ maxSize: 10 });
    expect(cache.set('huge', 'H', 11)).toBe(false);
    expect(cache.count).toBe(0);
    cache.set('a', 'A1', 6);
    cache.set('a', 'A2', 3);
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBe('A2');
    cache.clear();
    expect(cache.count).toBe(0);
  });

  test('FetchCache rejects a negative time to live', () => {
    expect(() => new FetchCache({ ttlMs: -1 })).toThrow(RangeError);
  });
});
