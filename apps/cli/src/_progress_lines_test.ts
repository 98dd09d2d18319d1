import { describe, expect, test } from 'vitest';
import { progressLines } from './_progress_lines.ts';

describe('progressLines', () => {
  test('each line of a timer-driven tail is printed once, in order', () => {
    const lines = progressLines();
    expect(lines({ message: 'step 1', totalChars: 7, lastLines: ['step 1'] })).toEqual(['step 1']);
    expect(lines({ message: 'step 1', totalChars: 7, lastLines: ['step 1'] })).toEqual([]);
    // Two lines arrived between reports: both, in order (step 2 was never the last line of a report).
    expect(lines({ message: 'step 3', totalChars: 21, lastLines: ['step 1', 'step 2', 'step 3'] })).toEqual([
      'step 2',
      'step 3',
    ]);
    expect(lines({ message: 'step 3', totalChars: 21, lastLines: ['step 1', 'step 2', 'step 3'] })).toEqual([]);
  });

  test('a tail that scrolled keeps only what is new', () => {
    const lines = progressLines();
    lines({ totalChars: 10, lastLines: ['a', 'b', 'c'] });
    expect(lines({ totalChars: 20, lastLines: ['c', 'd', 'e'] })).toEqual(['d', 'e']);
  });

  test('reports with only a message print it when it changes', () => {
    const lines = progressLines();
    expect(lines({ message: 'indexing' })).toEqual(['indexing']);
    expect(lines({ message: 'indexing' })).toEqual([]);
    expect(lines({ message: 'done' })).toEqual(['done']);
    expect(lines({})).toEqual([]);
  });
});
