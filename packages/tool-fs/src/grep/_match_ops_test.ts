import { describe, expect, test } from 'vitest';
import { multilineMatches, runMatchOp } from './_match_ops.ts';
import { compilePattern } from './_pattern.ts';

const compiled = (pattern: string, multiline = false) => compilePattern({ pattern, ignoreCase: false, multiline });

describe('runMatchOp', () => {
  test('lines: the indexes of the matching lines of a piece, a CR kept on its line', async () => {
    const re = await compiled('\\d$');
    expect(runMatchOp(re, { op: 'lines', text: 'a1\nb\r\nc2\r\nd3', first: false })).toEqual([0, 3]);
  });

  test('lines with first: only the first matching line', async () => {
    const re = await compiled('foo');
    expect(runMatchOp(re, { op: 'lines', text: 'x\nfoo\nfoo again', first: true })).toEqual([1]);
  });

  test('lines: an empty piece is one empty line, which ^$ matches', async () => {
    expect(runMatchOp(await compiled('^$'), { op: 'lines', text: '', first: false })).toEqual([0]);
  });

  test('test: whether a piece of whole lines holds a match', async () => {
    const re = await compiled('b\\d');
    expect(runMatchOp(re, { op: 'test', text: 'a1\nb2' })).toBe(true);
    expect(runMatchOp(re, { op: 'test', text: 'a1\nb' })).toBe(false);
  });

  test('multiline: the lines the matches touch, sorted, and the count as multilineMatches says', async () => {
    const re = await compiled('b\\nc', true);
    const text = 'a\nb\nc\nb\nc\n';
    const answer = runMatchOp(re, { op: 'multiline', text, lineCount: 5 });
    expect(answer).toEqual({ lines: [1, 2, 3, 4], count: 2 });
    const steps = multilineMatches(text, re, { lineCount: 5 });
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect({ lines: [...step.value.lines].sort(), count: step.value.count }).toEqual(answer);
  });
});
