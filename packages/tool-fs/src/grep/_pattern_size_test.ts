import { describe, expect, test } from 'vitest';
import { checkPatternSize } from './_pattern_size.ts';
import { parsePattern } from './_pattern_syntax.ts';
import { compilePattern } from './_pattern.ts';

const check =
  (pattern: string, ignoreCase = false) =>
  () =>
    checkPatternSize(pattern, parsePattern(pattern, ignoreCase));

describe('checkPatternSize', () => {
  test("a Unicode class repeated past ripgrep's 100 MB is refused, naming the part and what to write", () => {
    expect(check('foo\\w{1000}\\d')).toThrow(
      'The regex "foo\\\\w{1000}\\\\d" is too large: it would compile to about 111 MB, over ripgrep\'s limit of 100 MB',
    );
    expect(check('foo\\w{1000}\\d')).toThrow(
      /Its largest part is "\\\\w\{1000\}" \(about 111 MB\).* Use a smaller count \(\\w\{1,50\}\), \+ or \* \(\\w\+\), or an ASCII class/,
    );
    // Nested counts multiply.
    expect(check('(?:(?:\\pL|x){10}-){100}')).toThrow(/largest part is "\(\?:\(\?:\\\\pL\|x\)\{10\}-\)\{100\}"/);
  });

  test('patterns ripgrep takes in everyday use pass', () => {
    for (const pattern of [
      '\\w{1,50}',
      '[0-9]{4}-[0-9]{2}',
      '.{0,200}',
      '\\w{800}',
      '(?:\\w+\\s+){1,20}',
      'a{1000}',
      '(a{10}){100}',
    ])
      expect(check(pattern), pattern).not.toThrow();
  });

  test("counted repetitions that expand past 1000 copies in all are refused by the JS engine, with ripgrep's way out", () => {
    // ripgrep takes these (its DFA is quick on them); RE2's matcher steps every copy on every character.
    expect(check('.{1000}.{1000}\\d')).toThrow(
      /too large for the JS engine: its counted repetitions make 2000 copies of their pattern, over its limit of 1000 in all .* Its largest part is "\.\{1000\}" \(1000 copies\)\. Use smaller counts, or \+ or \*/,
    );
    // RE2's own limit (one count up to 1000, nested ones multiplied) is told the same way.
    expect(check('[a-z]{5000}')).toThrow(/make 5000 copies/);
    expect(check('(a{100}){100}')).toThrow(/make 10000 copies/);
  });

  test('compilePattern refuses before compiling, whatever the engine would take', async () => {
    await expect(compilePattern({ pattern: '\\w{1000}\\d', ignoreCase: false, multiline: false })).rejects.toThrow(
      /is too large/,
    );
  });
});
