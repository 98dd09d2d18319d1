import { describe, expect, test } from 'vitest';
import { isSettledTime } from './settled_time.ts';

describe('isSettledTime', () => {
  const now = 1_700_000_010_500;

  test('a fine-grained time is settled once it is more than 50 ms old', () => {
    expect(isSettledTime(now - 49.5, now)).toBe(false);
    expect(isSettledTime(now - 51.25, now)).toBe(true);
  });

  test('a whole-second time is settled only two seconds and the margin after it, as on FAT, HFS+ or NFS', () => {
    const second = 1_700_000_010_000;
    // Half a second after the stamp: a change now would get the same stamp on a coarse file system.
    expect(isSettledTime(second, now)).toBe(false);
    expect(isSettledTime(second, second + 2049)).toBe(false);
    expect(isSettledTime(second, second + 2051)).toBe(true);
  });

  test('a time that cannot be read (NaN) is never settled', () => {
    expect(isSettledTime(Number.NaN, now)).toBe(false);
  });
});
