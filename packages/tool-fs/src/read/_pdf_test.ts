import { describe, expect, test } from 'vitest';
import { capPdfPages, parsePageSpec } from './_pdf.ts';

describe('capPdfPages', () => {
  test('keeps the leading pages that fit, and at least one page, cut with a marker when it alone is over', () => {
    const page = (n: number, size: number) => ({ page: n, text: 'x'.repeat(size) });
    expect(
      capPdfPages([page(1, 30_000), page(2, 30_000), page(3, 30_000), page(4, 30_000)], 100_000).map((p) => p.page),
    ).toEqual([1, 2, 3]);
    const [only, ...rest] = capPdfPages([page(7, 250_000), page(8, 10)], 100_000);
    expect(rest).toEqual([]);
    expect(only!.page).toBe(7);
    expect(only!.text.endsWith('… [page truncated: 250000 characters]')).toBe(true);
    expect(only!.text.length).toBeLessThan(100_100);
    expect(capPdfPages([page(1, 10), page(2, 10)], 100_000)).toHaveLength(2);
  });
});

describe('parsePageSpec', () => {
  test('reads single pages, ranges, open ranges and lists, and refuses pages past the end', () => {
    expect(parsePageSpec('1-3,7', 10)).toEqual([1, 2, 3, 7]);
    expect(parsePageSpec('9-', 10)).toEqual([9, 10]);
    expect(() => parsePageSpec('12', 10)).toThrow('page 12 does not exist: the PDF has 10 pages.');
    expect(() => parsePageSpec('3-1', 10)).toThrow(/a range goes upwards/);
    expect(() => parsePageSpec('a', 10)).toThrow(/forms like "3", "1-5"/);
  });
});
