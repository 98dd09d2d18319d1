import { describe, expect, test } from 'vitest';
import { expandBraces, globToRegExp } from './_glob_regex.ts';

describe('globToRegExp', () => {
  test.each([
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['*.ts', 'x/a.ts', false],
    ['src/**', 'src/a/b', true],
    ['src/**/*.{ts,tsx}', 'src/a.tsx', true],
    ['src/**/*.{ts,tsx}', 'src/q/a.js', false],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['[ab].txt', 'a.txt', true],
    ['[!ab].txt', 'a.txt', false],
    ['{a,b/{c,d}}.js', 'b/d.js', true],
    ['*.ts', '.hidden.ts', true],
    ['./src/*.ts', 'src/a.ts', true],
    ['a-b (1).ts', 'a-b (1).ts', true],
    ['docs/?.md', 'docs/ab.md', false],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
  ])('%s against %s is %s', (glob, file, want) => {
    expect(globToRegExp(glob).test(file)).toBe(want);
  });

  test('an unclosed brace or bracket is a SyntaxError that names the position', () => {
    expect(() => globToRegExp('src/{a,b')).toThrow(/unclosed "\{" at position 4/);
    expect(() => globToRegExp('[ab')).toThrow(/unclosed "\["/);
  });
});

describe('expandBraces', () => {
  test('expands alternatives, nested ones too, and leaves other patterns alone', () => {
    expect(expandBraces('*.{ts,tsx}')).toEqual(['*.ts', '*.tsx']);
    expect(expandBraces('{a,b/{c,d}}.js')).toEqual(['a.js', 'b/c.js', 'b/d.js']);
    expect(expandBraces('plain/*.md')).toEqual(['plain/*.md']);
    expect(expandBraces('{single}.x')).toEqual(['{single}.x']);
  });
});
