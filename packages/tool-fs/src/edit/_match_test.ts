import { describe, expect, test } from 'vitest';
import {
  applyReplacements,
  closestRegion,
  findReplacements,
  lineOf,
  linesOf,
  MAX_SCORED_LINES,
  noMatchMessage,
  replacementLines,
  straightenQuotes,
} from './_match.ts';
import { countLines } from '../_text_file.ts';

describe('findReplacements', () => {
  test('an exact match wins over the fallbacks', () => {
    expect(findReplacements('a "b" c', { oldString: '"b"', newString: '"x"', replaceAll: false })).toEqual({
      kind: 'ok',
      how: 'exact',
      replacements: [{ index: 2, length: 3, text: '"x"' }],
    });
  });

  test('straight quotes in old_string match curly ones, and the replacement takes the curly style, apostrophes included', () => {
    const text = 'He said ‘it’s “fine”’.';
    const result = findReplacements(text, {
      oldString: `'it's "fine"'`,
      newString: `'it's "great"'`,
      replaceAll: false,
    });
    expect(result.kind).toBe('ok');
    if (result.kind !== 'ok') return;
    expect(applyReplacements(text, result.replacements)).toBe('He said ‘it’s “great”’.');
  });

  test('LF in old_string matches the CRLF of the file', () => {
    const result = findReplacements('a\r\nb\r\n', { oldString: 'a\nb', newString: 'a\r\nB', replaceAll: false });
    expect(result).toMatchObject({ kind: 'ok', how: 'line endings' });
  });

  test('several matches without replace_all report the count and lines; with it, every one is replaced', () => {
    expect(findReplacements('x\ny\nx\n', { oldString: 'x', newString: 'z', replaceAll: false })).toEqual({
      kind: 'many',
      count: 2,
      lines: [1, 3],
    });
    const all = findReplacements('x\ny\nx\n', { oldString: 'x', newString: 'z', replaceAll: true });
    expect(all.kind === 'ok' && applyReplacements('x\ny\nx\n', all.replacements)).toBe('z\ny\nz\n');
  });

  test('nothing similar gives none', () => {
    expect(findReplacements('abc', { oldString: 'xyz', newString: 'q', replaceAll: false })).toEqual({ kind: 'none' });
  });
});

describe('helpers', () => {
  test('straightenQuotes keeps the length, so indices carry over', () => {
    const s = '“a” ‘b’';
    expect(straightenQuotes(s)).toBe('"a" \'b\'');
    expect(straightenQuotes(s).length).toBe(s.length);
  });

  test('lineOf counts 1-based lines', () => {
    expect(lineOf('a\nb\nc', 0)).toBe(1);
    expect(lineOf('a\nb\nc', 4)).toBe(3);
  });

  test('noMatchMessage says when nothing in the file resembles old_string', () => {
    expect(noMatchMessage('alpha\nbeta\n', { oldString: 'zzzz qqqq', file: '/f' })).toContain(
      'Nothing in the file resembles it',
    );
  });

  test('noMatchMessage shows a long line around where it differs, not whole (a minified line is megabytes)', () => {
    const line = `${'a'.repeat(50_000)}OLD${'b'.repeat(50_000)}`;
    const message = noMatchMessage(`${line}\n`, { oldString: line.replace('OLD', 'NEW'), file: '/min.js' });
    expect(message.length).toBeLessThan(2_000);
    expect(message).toMatch(/- {4}1 …\(49\d{3} characters\)…a+OLDb+…\(49\d{3} more characters\)/);
    expect(message).toMatch(/\+ {6}…\(49\d{3} characters\)…a+NEWb+…\(49\d{3} more characters\)/);
    // Short lines are shown whole, as before.
    expect(noMatchMessage('const a = 1;\n', { oldString: 'const a = 2;', file: '/f' })).toContain(
      '+      const a = 2;',
    );
  });

  test('noMatchMessage finds the closest region in a large file quickly by shared lines', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `const v${i} = ${i};`);
    lines[31_000] = 'function target() {';
    lines[31_001] = '  return 42;';
    const message = noMatchMessage(lines.join('\n'), {
      oldString: 'function target() {\n  return 41;',
      file: '/big.ts',
    });
    expect(message).toContain('The closest region is lines 31001-31002');
  });
});

describe('linesOf', () => {
  test('gives the same lines as lineOf for many indices, long lines and empty lines included', () => {
    const text = ['', 'abc', 'x'.repeat(5000), '', 'tail'].join('\n');
    const indices = [0, 1, 2, 3, 4, 5, 100, 4999, 5005, 5006, 5007, 5008, text.length - 1];
    expect(linesOf(text, indices)).toEqual(indices.map((i) => lineOf(text, i)));
  });
});

describe('closestRegion', () => {
  test('scores every window of a small file', () => {
    expect(closestRegion(['alpha', 'beta', 'gamma'], ['beta', 'xi'])).toMatchObject({ start: 1, windows: 2 });
  });

  test('on a 50 000-line file and a 1 000-line old_string full of common lines it scores a bounded number of windows and still finds the region', () => {
    // Code-like lines that repeat everywhere (`}`, blank lines) make almost every start a candidate.
    const block = (i: number) => [`function f${i}(x) {`, `  const y = x * ${i};`, '  return y;', '}', ''];
    const fileLines = Array.from({ length: 10_000 }, (_, i) => block(i)).flat();
    const oldLines = fileLines.slice(20_000, 21_000);
    oldLines[500] = '  const y = x * 4100 + 1;'; // one changed line: not found exactly
    const found = closestRegion(fileLines, oldLines, { budgetMs: Infinity })!;
    expect(found.windows).toBeLessThanOrEqual(MAX_SCORED_LINES / oldLines.length);
    expect(found.start).toBe(20_000);
    expect(found.score).toBeGreaterThan(0.99);
  });

  test('with no line in common it aligns on lines like the first one, within the same bound', () => {
    const fileLines = Array.from({ length: 50_000 }, (_, i) => `value_${i} = compute(${i});`);
    const oldLines = Array.from({ length: 1000 }, (_, i) => `value_${30_000 + i} = compute(${30_000 + i}) ;`);
    const found = closestRegion(fileLines, oldLines, { budgetMs: Infinity })!;
    expect(found.windows).toBeLessThanOrEqual(MAX_SCORED_LINES / oldLines.length);
    expect(found.start).toBe(30_000);
  });

  test('out of time, it answers with the best window scored so far', () => {
    const fileLines = Array.from({ length: 50_000 }, (_, i) => `value_${i} = compute(${i});`);
    const found = closestRegion(
      fileLines,
      fileLines.slice(100, 1100).map((l) => `${l} `),
      { budgetMs: 0 },
    )!;
    expect(found.windows).toBe(1);
  });
});

describe('replacementLines', () => {
  /** The numbers as Edit used to work them out: three walks of the text and two counts. */
  function byWalking(text: string, replacements: { index: number; length: number; text: string }[]) {
    const after = applyReplacements(text, replacements);
    const last = replacements[replacements.length - 1]!;
    const shift = replacements.slice(0, -1).reduce((sum, r) => sum + r.text.length - r.length, 0);
    const [firstLine, lastLine] = linesOf(after, [
      replacements[0]!.index,
      last.index + shift + Math.max(0, last.text.length - 1),
    ]);
    return {
      starts: linesOf(
        text,
        replacements.map((r) => r.index),
      ),
      ends: linesOf(
        text,
        replacements.map((r) => r.index + Math.max(0, r.length - 1)),
      ),
      firstLine,
      lastLine,
      lineDelta: countLines(after) - countLines(text),
    };
  }

  test('gives the lines that walking the texts before and after gives, for many shapes of replacement', () => {
    const pieces = ['a', '\n', 'bc', '\r\n', '', 'x\ny', '\n\n'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join('');
      if (text === '') continue;
      const replacements: { index: number; length: number; text: string }[] = [];
      let at = 0;
      while (at < text.length && replacements.length < 4) {
        const index = at + next(Math.max(1, text.length - at));
        const length = Math.min(text.length - index, next(4));
        if (index >= text.length) break;
        replacements.push({ index, length, text: pieces[next(pieces.length)]! });
        at = index + Math.max(1, length);
      }
      if (replacements.length === 0) continue;
      expect(replacementLines(text, replacements), JSON.stringify({ text, replacements })).toEqual(
        byWalking(text, replacements),
      );
    }
  });
});
