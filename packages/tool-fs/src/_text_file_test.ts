import { describe, expect, test } from 'vitest';
import { decodeText, dominantLineEnding, encodeText, isBinary, splitLines } from './_text_file.ts';

describe('decodeText and encodeText', () => {
  test('a UTF-8 BOM is dropped from the text and written back', () => {
    const bytes = Buffer.from('\uFEFFhé\r\n', 'utf8');
    const { text, format } = decodeText(bytes);
    expect(text).toBe('hé\r\n');
    expect(format).toEqual({ encoding: 'utf8', bom: true, lineEnding: '\r\n', ascii: false });
    expect(encodeText(text, format).equals(bytes)).toBe(true);
  });

  test('a UTF-16LE file with a BOM round-trips and is not taken for binary', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\nb', 'utf16le')]);
    expect(isBinary(bytes)).toBe(false);
    const { text, format } = decodeText(bytes);
    expect(text).toBe('a\nb');
    expect(format.encoding).toBe('utf16le');
    expect(encodeText(text, format).equals(bytes)).toBe(true);
  });
});

describe('isBinary', () => {
  test('a NUL byte in the first 8 KB makes content binary, text without one is not', () => {
    expect(isBinary(Buffer.from('abc\0def'))).toBe(true);
    expect(isBinary(Buffer.from('plain text\n'))).toBe(false);
  });
});

describe('dominantLineEnding', () => {
  test('the line ending most breaks use wins, LF for text without breaks', () => {
    expect(dominantLineEnding('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantLineEnding('a\nb\r\nc\n')).toBe('\n');
    expect(dominantLineEnding('abc')).toBe('\n');
  });
});

describe('splitLines', () => {
  test('splits like cat -n counts: a final newline adds no line and CR is dropped', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
});
