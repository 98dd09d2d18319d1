import { describe, expect, test } from 'vitest';
import { compilePattern } from './_pattern.ts';
import { parsePattern } from './_pattern_syntax.ts';
import { unicodeWordBoundaries } from './_word_boundary.ts';

const rewrite = (pattern: string, multiline = false) =>
  unicodeWordBoundaries(pattern, parsePattern(pattern, false), { multiline });
const compile = (pattern: string, multiline = false) => compilePattern({ pattern, ignoreCase: false, multiline });

describe('unicodeWordBoundaries', () => {
  test("a side the pattern fixes needs nothing; the other is taken into the match at the pattern's ends", () => {
    expect(rewrite('foo\\b-').pattern).toBe('foo-');
    expect(rewrite('\\bfoo').pattern).toBe('(?:(?:^|[^\\w\\n]))foo');
    expect(rewrite('foo\\b').pattern).toBe('foo(?:(?:$|[^\\w\\n]))');
    expect(rewrite('-\\bfoo').pattern).toBe('-foo');
    expect(rewrite('a\\bb').pattern).toBe('a[^\\x00-\\x{10FFFF}]b');
  });

  test('a boundary inside the pattern with a fixed next character is checked behind with a lookbehind', () => {
    const r = rewrite('\\s*\\bfoo');
    expect(r.pattern).toBe('\\s*(?:(?<![\\w]))foo');
    expect(r.lookbehind).toBe(true);
  });

  test('a boundary before a class of either kind takes that class and checks it behind', () => {
    const r = rewrite('\\bimport\\b.*from');
    expect(r.pattern).toBe('(?:(?:^|[^\\w\\n]))import(?:(?:(?:.)(?<![\\w]))(?:.){0,}|[^\\x00-\\x{10FFFF}])from');
    expect(r.lookbehind).toBe(true);
  });

  test('a boundary whose next character is neither fixed, nor at the end, nor taken by a class right after it is refused, saying what to write', () => {
    for (const pattern of ['(?:foo\\b)+', '\\b(?:a|-)', 'a\\b(?:x|-)*b'])
      expect(() => rewrite(pattern), pattern).toThrow(
        /cannot match it as ripgrep does: .* Put a literal or a class right after it, outside any group or alternation/,
      );
  });

  test('with multiline, a match ends where ripgrep ends it, and the next one is found after it', async () => {
    const re = await compile('\\bcafé\\b', true);
    expect([...re.matches('café café\ncafé')]).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 9 },
      { start: 10, end: 14 },
    ]);
    const dash = await compile('é\\B', true);
    expect([...dash.matches('éé é')]).toEqual([{ start: 0, end: 1 }]);
  });

  test('a line matches when ripgrep says it does: Unicode word characters on both sides', async () => {
    const re = await compile('\\bcafé\\b');
    expect(['café!', 'xcafé', 'caféx', 'café_', '(café)'].map((l) => re.test(l))).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
  });
});
