import { describe, expect, test } from 'vitest';
import { checkBraceVariants, countBraceVariants, expandBraces } from './_expand_braces.ts';

describe('expandBraces and countBraceVariants', () => {
  test('expands groups in order, nested and one after another; a group without a comma or an escaped brace stays', () => {
    expect(expandBraces('*.{ts,tsx}')).toEqual(['*.ts', '*.tsx']);
    expect(expandBraces('{a,{b,c}d}e')).toEqual(['ae', 'bde', 'cde']);
    expect(expandBraces('{a,b}{1,2}')).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect(expandBraces('{a}{,x}')).toEqual(['{a}', '{a}x']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
  });

  test('the count is the number of globs expandBraces makes, for every shape', () => {
    const parts = ['a', '{a,b}', '{x,{y,z}w}', '{,q}', '{solo}', '\\{', ',', '}', '{'];
    for (let seed = 1; seed < 400; seed++) {
      let glob = '';
      for (let i = 0, r = seed; i < 5; i++, r = (r * 7 + 3) % 97) glob += parts[r % parts.length];
      expect(countBraceVariants(glob), glob).toBe(expandBraces(glob).length);
    }
  });

  test('counts 2^30 without making them, and stops at the cap', () => {
    const glob = `${'{a,b}'.repeat(30)}*.ts`;
    expect(countBraceVariants(glob)).toBe(2 ** 30);
    expect(countBraceVariants(glob, 1000)).toBe(1001);
    expect(countBraceVariants('{a,b}'.repeat(5000), 4096)).toBe(4097);
  });

  test('checkBraceVariants lets 4096 through and refuses 8192, naming the count', () => {
    expect(() => checkBraceVariants('{a,b}'.repeat(12))).not.toThrow();
    expect(() => checkBraceVariants('{a,b}'.repeat(13))).toThrow(/stands for 8192 globs/);
    expect(() => checkBraceVariants('{a,b}'.repeat(60))).toThrow(/stands for over 2\^40 globs/);
  });
});
