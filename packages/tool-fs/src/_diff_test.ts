import { describe, expect, test } from 'vitest';
import { diffLines, formatDiff } from './_diff.ts';

describe('diffLines', () => {
  test('a changed line reads as removal then addition, with kept lines around', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'B', 'c'])).toEqual([
      { op: ' ', line: 'a', n: 1 },
      { op: '-', line: 'b', n: 2 },
      { op: '+', line: 'B', n: 2 },
      { op: ' ', line: 'c', n: 3 },
    ]);
  });

  test('inserted lines in the middle are aligned, not shown as a rewrite', () => {
    const diff = diffLines(['a', 'b', 'c', 'd'], ['a', 'b', 'x', 'c', 'd']);
    expect(diff.filter((d) => d.op !== ' ')).toEqual([{ op: '+', line: 'x', n: 3 }]);
  });
});

describe('formatDiff', () => {
  test('shows changes with context and elides distant unchanged lines', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const b = [...a];
    b[2] = 'X';
    b[17] = 'Y';
    const text = formatDiff(diffLines(a, b), { context: 1 });
    expect(text).toContain('-    3 l2');
    expect(text).toContain('+    3 X');
    expect(text).toContain('…');
    expect(text).not.toContain('l9');
  });

  test('nothing changed gives an empty string', () => {
    expect(formatDiff(diffLines(['a'], ['a']))).toBe('');
  });
});
