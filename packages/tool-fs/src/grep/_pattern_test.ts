import { describe, expect, test } from 'vitest';
import { compilePattern } from './_pattern.ts';

const compile = (pattern: string, options: { ignoreCase?: boolean; multiline?: boolean } = {}) =>
  compilePattern({ pattern, ignoreCase: options.ignoreCase ?? false, multiline: options.multiline ?? false });

describe('compilePattern', async () => {
  test('plain text and alternatives of it go to RegExp; every other pattern to RE2', async () => {
    expect((await compile('needleWidget')).engine).toBe('literal');
    expect((await compile('TODO|FIXME')).engine).toBe('literal');
    expect((await compile('a\\.b\\(c')).engine).toBe('literal');
    expect((await compile('(?i)todo')).engine).toBe('literal');
    // An escape that ripgrep 13 refuses (\/) goes to RE2, which reads it as ripgrep 14 does.
    for (const regex of ['a.b', 'a*', '\\d+', '(a)', '[ab]', 'a|', '\\bword', 'x{2}', '^a', 'a$', '', 'a\\/b']) {
      expect((await compile(regex)).engine).toBe('re2');
    }
  });

  test('plain text matches itself only, with -i or (?i) in any case', async () => {
    expect((await compile('a\\.b\\(c\\)')).test('xa.b(c)y')).toBe(true);
    expect((await compile('a\\.b')).test('axb')).toBe(false);
    expect((await compile('TODO|FIXME')).test('a fixme')).toBe(false);
    expect((await compile('TODO|FIXME', { ignoreCase: true })).test('a fixme')).toBe(true);
    expect((await compile('(?i)straße')).test('STRAẞE')).toBe(true);
    expect((await compile('a/b-c')).test('a/b-c')).toBe(true);
  });

  // The attack: a pattern that backtracks. RegExp takes ~1.6 s on 24 letters, ~26 s on 28, and
  // doubles with each one more; RE2 visits each character a bounded number of times.
  test.each(['(a+)+$', '(a|aa)*b', '^(\\w+\\s?)*$', '(.*a){12}x', '^(a+)+b'])(
    'a pattern that makes RegExp backtrack forever is matched in linear time: %s',
    async (pattern) => {
      const re = await compile(pattern);
      expect(re.engine).toBe('re2');
      // A million letters without the end the pattern needs: RegExp would never finish.
      expect(re.test(`${'a'.repeat(1_000_000)}!`)).toBe(false);
    },
  );

  test('ripgrep syntax RegExp lacks: inline flags anywhere, POSIX classes, \\pL, \\x{…}', async () => {
    expect((await compile('x(?i:abc)y')).test('xABCy')).toBe(true);
    expect((await compile('x(?i:abc)y')).test('XABCy')).toBe(false);
    expect((await compile('[[:alpha:]]+[[:digit:]]')).test('ab1')).toBe(true);
    expect((await compile('\\pL\\x{e9}')).test('cé')).toBe(true);
    expect((await compile('^b$')).test('a\nb\nc')).toBe(true);
  });

  test('multiline: matches across lines, with the line break and with `.`', async () => {
    const re = await compile('a.b', { multiline: true });
    expect([...re.matches('a\nb a-b')]).toEqual([
      { start: 0, end: 3 },
      { start: 4, end: 7 },
    ]);
    expect([...(await compile('é😀x', { multiline: true })).matches('é😀x')]).toEqual([{ start: 0, end: 4 }]);
  });

  test('a bad pattern is refused with the engine complaint and what to do instead', async () => {
    await expect(compile('foo(bar')).rejects.toThrow('The regex "foo(bar" is invalid: missing closing ): `foo(bar`.');
    await expect(compile('(?x) a b')).rejects.toThrow(/set -i or multiline instead of \(\?x\)/);
    await expect(compile('foo(?=bar)')).rejects.toThrow(/Lookaround and backreferences are not supported/);
    await expect(compile('(a)\\1')).rejects.toThrow(/Lookaround and backreferences are not supported/);
    await expect(compile('a\\nb')).rejects.toThrow(/matches a line break \("\\\\n"\).* set multiline: true/);
  });

  test('nsPerChar bounds a character of text by the pattern: plain text least, RE2 by its program, -i over many words most', async () => {
    const cost = async (pattern: string, ignoreCase = false) =>
      (await compilePattern({ pattern, ignoreCase, multiline: false })).nsPerChar;
    // Plain text: lines up to a megabyte are matched on the search's thread; `foo\d+`: up to ~12 000 characters.
    expect(await cost('TODO')).toBeLessThanOrEqual(11);
    expect(await cost('foo\\d+')).toBeGreaterThan(await cost('TODO'));
    expect(await cost('\\w{1,850}\\d')).toBeGreaterThan(100 * (await cost('foo\\d+')));
    const words = Array.from({ length: 2000 }, (_, i) => `word${i}`).join('|');
    expect(await cost(words, true)).toBeGreaterThan(10 * (await cost(words)));
  });

  test('an RE2 pattern is compiled once for the same flags, and matches the same afterwards; each flag set on its own', async () => {
    const first = await compile('f\\d+_3\\(');
    const again = await compile('f\\d+_3\\(');
    expect(again).toBe(first);
    expect([...again.matches('x f12_3( y f9_3(')]).toEqual([
      { start: 2, end: 8 },
      { start: 11, end: 16 },
    ]);
    expect(again.test('f1_4(')).toBe(false);
    const folded = await compile('F\\d+_3\\(', { ignoreCase: true });
    expect(folded).not.toBe(await compile('F\\d+_3\\('));
    expect(folded.test('f7_3(')).toBe(true);
    expect((await compile('F\\d+_3\\(')).test('f7_3(')).toBe(false);
    // Plain text gets its own RegExp each time (its lastIndex is state).
    expect(await compile('needle')).not.toBe(await compile('needle'));
  });

  test('at most 32 compiled patterns are kept, the least recently used dropped first', async () => {
    const kept = await compile('kept\\d');
    const others = [];
    for (let i = 0; i < 40; i++) {
      others.push(await compile(`other${i}\\d`));
      if (i % 10 === 0) await compile('kept\\d'); // used again: stays
    }
    expect(await compile('kept\\d')).toBe(kept);
    expect(await compile('other39\\d')).toBe(others[39]);
    // The first others were pushed out by the later ones: compiled again, as a new object that matches the same.
    const again = await compile('other0\\d');
    expect(again).not.toBe(others[0]);
    expect(again.test('other07')).toBe(true);
  });
});
