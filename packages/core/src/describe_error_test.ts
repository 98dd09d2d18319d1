import { expect, test } from 'vitest';
import { describeError } from './describe_error.ts';
import { ToolshedError } from './errors.ts';

test.each([
  [Object.assign(new Error('no such file\n    at x (y.js:1:1)'), { code: 'ENOENT' }), 'ENOENT: no such file'],
  [new TypeError('x is not a function'), 'TypeError: x is not a function'],
  [new Error('plain message'), 'plain message'],
  [new ToolshedError('aborted', 'A specific message'), 'A specific message'],
  ['a string\nsecond line', 'a string'],
  [{ weird: 1 }, 'non-error value thrown: {"weird":1}'],
  [new Error(''), '(no message)'],
])('describeError gives one line without a stack (%#)', (error, expected) => {
  expect(describeError(error)).toBe(expected);
});
