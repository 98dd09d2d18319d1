import { describe, expect, test } from 'vitest';
import { trustedHash } from './_trusted_hash.ts';

describe('trustedHash', () => {
  // A file last changed an hour ago, its mode changed at a whole second (a file system that keeps
  // whole seconds), and read 300 ms after that change.
  const second = 1_796_402_483_000;
  const recorded = { contentHash: 'h', mtimeMs: second - 3_600_000, ctimeMs: second, size: 13, readAt: second + 300 };

  test('a change time that had not settled at the Read is not trusted, though mtime, change time and size are as recorded', () => {
    // A same-size write in that second, with the mtime put back (touch -r), leaves all three as they were.
    expect(trustedHash(recorded, { mtimeMs: recorded.mtimeMs, ctimeMs: second, size: 13 })).toBeUndefined();
  });

  test('settled times that are still as recorded give the recorded hash', () => {
    const settled = { ...recorded, readAt: second + 2100 };
    expect(trustedHash(settled, { mtimeMs: settled.mtimeMs, ctimeMs: second, size: 13 })).toBe('h');
    const fine = { ...recorded, ctimeMs: second - 500.25, readAt: second };
    expect(trustedHash(fine, { mtimeMs: fine.mtimeMs, ctimeMs: fine.ctimeMs, size: 13 })).toBe('h');
  });

  test('any difference, a missing change time or no record means hashing again', () => {
    const settled = { ...recorded, readAt: second + 2100 };
    const st = { mtimeMs: settled.mtimeMs, ctimeMs: second, size: 13 };
    expect(trustedHash(settled, { ...st, ctimeMs: second + 1000 })).toBeUndefined();
    expect(trustedHash(settled, { ...st, mtimeMs: st.mtimeMs + 1 })).toBeUndefined();
    expect(trustedHash(settled, { ...st, size: 14 })).toBeUndefined();
    expect(trustedHash({ ...settled, ctimeMs: undefined }, st)).toBeUndefined();
    expect(trustedHash(undefined, st)).toBeUndefined();
  });
});
