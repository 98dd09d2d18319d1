import { describe, expect, test } from 'vitest';
import { foldPath } from './_fold_path.ts';

describe('foldPath', () => {
  test('on a case-insensitive file system folds case and NFD to the same text as NFC', () => {
    expect(foldPath('/p/CAFE\u0301.txt', true)).toBe(foldPath('/p/caf\u00e9.txt', true));
  });

  test('on a case-sensitive file system leaves case and normalization as written', () => {
    expect(foldPath('/p/Cafe\u0301.txt', false)).toBe('/p/Cafe\u0301.txt');
    expect(foldPath('/p/Cafe\u0301.txt', undefined)).not.toBe(foldPath('/p/caf\u00e9.txt', undefined));
  });
});

describe('foldPath folds every case form of a letter to one', () => {
  test.each([
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['ſecret', 'SECRET'],
    ['\u212Aelvin', 'kelvin'],
    ['ǅemal', 'ǆemal'],
  ])('%s and %s are one name', (a, b) => {
    expect(foldPath(a, true)).toBe(foldPath(b, true));
  });

  test.each([
    ['straße', 'strase'],
    ['straße', 'strasse'],
    ['σ', 's'],
  ])('%s and %s stay two names', (a, b) => {
    expect(foldPath(a, true)).not.toBe(foldPath(b, true));
  });
});
