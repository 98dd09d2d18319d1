import { describe, expect, test } from 'vitest';
import { LineFolder, SAVED_LINE_CHARS } from './line_folder.ts';
import { readView, unfold } from './_test_unfold.ts';

function foldInPieces(text: string, size: number, width?: number): { folded: string; folder: LineFolder } {
  const folder = new LineFolder(width);
  let folded = '';
  for (let i = 0; i < text.length; i += size) folded += folder.fold(text.slice(i, i + size));
  return { folded, folder };
}

describe('LineFolder', () => {
  test('text with no line near the width is returned as it is, with no fold', () => {
    const folder = new LineFolder();
    const text = 'short\nlines\n'.repeat(1000);
    expect(folder.fold(text)).toBe(text);
    expect(folder.folds).toBe(0);
    expect(folder.note()).toBe('');
  });

  test('a 5 MB line becomes lines Read shows whole, and the stated rule gives back every character', () => {
    const text = `${'0123456789'.repeat(500_000)}\ntail`;
    const { folded, folder } = foldInPieces(text, 65_536);
    expect(Math.max(...folded.split('\n').map((l) => l.length))).toBe(SAVED_LINE_CHARS);
    expect(unfold(folded)).toBe(text);
    expect(folder.longestLine).toBe(5_000_000);
    expect(folder.note()).toMatch(/longest line has 5,000,000 characters.*folded every 2,000 characters/);
  });

  test('never splits a surrogate pair, even when a piece ends inside one, and never ends a folded piece with \\r', () => {
    const text = `${'a😀'.repeat(10_000)}\n${'b\r'.repeat(5_000)}\r\nz`;
    for (const size of [1, 7, 1999, 4096]) {
      const { folded } = foldInPieces(text, size, 50);
      for (const line of folded.split('\n')) {
        expect(line.length).toBeLessThanOrEqual(50);
        const last = line.charCodeAt(line.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        // A piece that continues (width-1 or more) never ends with \r; a CRLF line of the output may.
        if (line.length >= 49) expect(line.endsWith('\r')).toBe(false);
      }
      expect(Buffer.from(folded, 'utf8').toString('utf8')).toBe(folded);
      expect(unfold(folded, 50)).toBe(readView(text));
    }
  });

  test('lines of exactly width-1 and width characters get an empty continuation, so the rule has no exception', () => {
    const text = ['x'.repeat(49), 'y'.repeat(50), 'z'.repeat(48), ''].join('\n');
    const { folded } = foldInPieces(text, 1000, 50);
    expect(folded).toBe(['x'.repeat(49), '', 'y'.repeat(50), '', 'z'.repeat(48), ''].join('\n'));
    expect(unfold(folded, 50)).toBe(text);
  });

  // Read drops the \r that ends a line: a CRLF line of width-2 characters and its \r is no
  // longer than width-2 to the model, so it ends there (an added break made it gain an empty line).
  test('a CRLF line is judged by the length Read shows', () => {
    for (const text of [`${'x'.repeat(48)}\r\ntail\n`, `${'x'.repeat(49)}\r\ntail`, `a\r\n${'y'.repeat(120)}\r\n`]) {
      for (const size of [1, 5, 1000]) expect(unfold(foldInPieces(text, size, 50).folded, 50)).toBe(readView(text));
    }
  });

  test('a NUL is saved as ␀ (U+2400), which Read shows, and the note says so', () => {
    const folder = new LineFolder(50);
    expect(folder.fold('a\u0000b\n\u0000')).toBe('a\u2400b\n\u2400');
    expect(folder.note()).toMatch(/2 NUL characters.*␀/);
    expect(Buffer.from(new LineFolder(50).foldAscii(Buffer.from('p\u0000q', 'latin1'))).toString('utf8')).toBe(
      'p\u2400q',
    );
  });

  test('ASCII bytes fold as the same text would', () => {
    const text = `${'k'.repeat(130)}\r\n${'m'.repeat(49)}\n\r${'n'.repeat(200)}`;
    for (const size of [1, 3, 64, 1000]) {
      const bytes = Buffer.from(text, 'latin1');
      const folder = new LineFolder(50);
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size)
        parts.push(Buffer.from(folder.foldAscii(bytes.subarray(i, i + size))));
      expect(Buffer.concat(parts).toString('latin1')).toBe(foldInPieces(text, size, 50).folded);
    }
  });

  test('a width under 3 is refused, naming the value', () => {
    expect(() => new LineFolder(2)).toThrow(/at least 3, got 2/);
  });
});
