import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from '../_test_session.ts';
import { SEARCH_ENGINES } from '../_test_engines.ts';

// Patterns the JS engine's RE2 or its literal detector read differently from ripgrep, each with
// the lines ripgrep 13 gives for it (checked with `rg -n` on the same file): both engines must give them.
const LINES = ['café', '٣', 'a\u00a0b', 'line\r', 'b', 'a/b', 'one', 'x_y', 'Ⓐ'];
const CASES: [pattern: string, lines: number[]][] = [
  ['^\\w+$', [1, 2, 5, 7, 8, 9]], // Unicode \w: é, ٣ and Ⓐ are word characters
  ['^\\W$', []],
  ['^[\\w]+$', [1, 2, 5, 7, 8, 9]],
  ['^\\d$', [2]], // Unicode \d: ٣ is a digit
  ['^\\D+$', [1, 3, 4, 5, 6, 7, 8, 9]],
  ['a\\sb', [3]], // Unicode \s: a no-break space
  ['a\\Sb', [6]],
  ['\\Ab', [5]], // \A and \z anchor at each line, as ripgrep matches line by line
  ['b\\z', [3, 5, 6]],
  ['(?-m)^b$', [5]],
  ['ne$', [7]], // $ does not match before the CR of a CRLF line (no --crlf)
  ['line$', []],
  ['[[:word:]]\\.?', [1, 3, 4, 5, 6, 7, 8]],
];

describe.each(SEARCH_ENGINES)('Grep patterns read as ripgrep reads them, with the %s engine', (engine) => {
  let bench: TestBench;
  beforeAll(async () => {
    bench = await makeBench({ family: { searchEngine: engine } });
    await writeFile(path.join(bench.dir, 't.txt'), `${LINES.join('\n')}\n`);
  });
  afterAll(async () => {
    await bench.cleanup();
  });

  test.each(CASES)('%s gives the lines ripgrep gives', async (pattern, lines) => {
    const { text, isError } = await bench.call('Grep', { pattern, path: 't.txt', output_mode: 'content', '-n': true });
    expect(isError, text).toBe(false);
    const found = [...text.matchAll(/^(?:\S*t\.txt:)?(\d+):/gm)].map((m) => Number(m[1]));
    expect(found, text).toEqual(lines);
  });

  // rg -U counts matches where one holds a line break, else lines with a match; none past the last line.
  test.each([
    ['x*', 'm.txt:4'],
    ['😀', 'm.txt:2'],
    ['(?s).', 'm.txt:10'],
    ['a\\nb', 'm.txt:1'],
    ['😀|a\\n', 'm.txt:4'],
    ['\\z', 'No matches found'],
  ])('with multiline, %s is counted as ripgrep counts it', async (pattern, count) => {
    await writeFile(path.join(bench.dir, 'm.txt'), '😀a\nb\n😀😀\nc\n');
    const { text } = await bench.call('Grep', { pattern, path: 'm.txt', multiline: true, output_mode: 'count' });
    expect(text.split('\n')[0]).toMatch(new RegExp(`^(?:\\S*/)?${count}$`));
  });

  test('plain text and escaped punctuation still match as text', async () => {
    for (const [pattern, line] of [
      ['caf', 1],
      ['a/\\.?b', 6],
      ['x_y|z\\-z', 8],
      ['line', 4],
    ] as const) {
      const { text } = await bench.call('Grep', { pattern, path: 't.txt', output_mode: 'content', '-n': true });
      expect(text, pattern).toMatch(new RegExp(`^(?:\\S*t\\.txt:)?${line}:`, 'm'));
    }
  });
});

describe('the JS engine refuses what it would read differently from ripgrep', () => {
  let bench: TestBench;
  beforeAll(async () => {
    bench = await makeBench({ family: { searchEngine: 'js' } });
    await writeFile(path.join(bench.dir, 't.txt'), 'a<b\n');
  });
  afterAll(async () => {
    await bench.cleanup();
  });

  test.each([
    ['\\<b', /uses \\< or \\>, which ripgrep reads as the start or end of a word .* write \\b for/],
    ['a\\>', /uses \\< or \\>/],
    ['\\é', /is invalid: invalid escape sequence: `\\é`/],
    ['[\\W_]', /has \\W inside a class.* as \[\^\\w\]/],
  ])('%s is refused with what to write instead', async (pattern, message) => {
    const { text, isError } = await bench.call('Grep', { pattern });
    expect(isError).toBe(true);
    expect(text).toMatch(message);
  });

  test('an invalid pattern is quoted as written, not as translated', async () => {
    const { text } = await bench.call('Grep', { pattern: '\\w(' });
    expect(text).toContain('missing closing ): `\\w(`');
  });
});
