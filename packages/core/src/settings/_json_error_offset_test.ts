import { describe, expect, test } from 'vitest';
import { jsonErrorOffset } from './_json_error_offset.ts';

describe('jsonErrorOffset', () => {
  const table: [text: string, offset: number | undefined][] = [
    ['{"a": [1, 2], "b": {"c": null, "d": true, "e": -1.5e3, "f": "x\\"y"}}', undefined],
    ['{"a": [1,]}', 9],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['{"a": tru}', 6],
    ['{"a": 1', 7],
    ['{"a": "x', 8],
    ['{} x', 3],
    ['// comment\n{}', 0],
  ];
  test.each(table)('finds the first error of %j at %j', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});
