import { describe, expect, test } from 'vitest';
import { expandBraces } from './_expand_braces.ts';
import { compileGlob } from './_glob_match.ts';

describe('compileGlob', () => {
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
    ['[a-c]?.txt', 'b1.txt', true],
    ['[!a]/x', '//x', false],
    ['**', 'a/b/c', true],
    ['*', 'a/b', false],
    ['caf?/*.md', 'café/x.md', true],
    ['caf?.md', 'café.md', true],
    ['?.png', '😀.png', true],
  ])('%s against %s is %s', (glob, file, want) => {
    expect(compileGlob(glob).test(file)).toBe(want);
  });

  test('an unclosed brace or bracket is a SyntaxError that names the position', () => {
    expect(() => compileGlob('src/{a,b')).toThrow(/unclosed "\{" at position 4/);
    expect(() => compileGlob('[ab')).toThrow(/unclosed "\["/);
    expect(() => compileGlob('[z-a].txt')).toThrow(/range "z-a" out of order in the class at position 0/);
  });

  test('the step count grows linearly with the path on a glob that makes a backtracking regex explode', () => {
    const stepsFor = (length: number) => {
      const m = compileGlob('*a*a*a*a*a*a*a*a*b');
      expect(m.test(`${'a'.repeat(length)}c`)).toBe(false);
      return m.steps;
    };
    const [s1, s2, s4] = [stepsFor(1000), stepsFor(2000), stepsFor(4000)];
    // Linear: doubling the path at most doubles the work (plus the few states built at the start).
    expect(s2).toBeLessThan(2 * s1 + 200);
    expect(s4).toBeLessThan(2 * s2 + 200);
    expect(s4).toBeLessThan(4000 * 3);
  });

  test('one matcher reused over many paths keeps its answers (the cached automaton agrees with a fresh one)', () => {
    const glob = 'src/**/{a,b*}/*.{ts,tsx}';
    const shared = compileGlob(glob);
    const paths = [
      'src/a/x.ts',
      'src/q/b1/y.tsx',
      'src/a/x.js',
      'src/b/c/d.ts',
      'lib/a/x.ts',
      'src/bb/z.tsx',
      'src/a/.h.ts',
    ];
    for (let round = 0; round < 3; round++) {
      for (const p of paths) expect(shared.test(p)).toBe(compileGlob(glob).test(p));
    }
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
