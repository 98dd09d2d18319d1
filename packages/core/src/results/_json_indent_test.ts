import { expect, test } from 'vitest';
import { indentJson } from './_json_indent.ts';

test('re-indents an object or array, changing only the whitespace between tokens', () => {
  const text = '{"a":[1,2.50,{"b":"x, y: [z]"}],"e":{},"f":[],"big":12345678901234567890123,"s":"q\\"u\\\\"}';
  const out = indentJson(text)!;
  expect(out).toBe(
    [
      '{',
      '  "a": [',
      '    1,',
      '    2.50,',
      '    {',
      '      "b": "x, y: [z]"',
      '    }',
      '  ],',
      '  "e": {},',
      '  "f": [],',
      '  "big": 12345678901234567890123,',
      '  "s": "q\\"u\\\\"',
      '}',
    ].join('\n'),
  );
  expect(JSON.parse(out)).toEqual(JSON.parse(text));
});

test('whitespace already there is replaced, not added to', () => {
  expect(indentJson(' [ 1 ,\n\t2 ] ')).toBe('[\n  1,\n  2\n]');
});

test('is undefined for what is not one JSON object or array', () => {
  expect(indentJson('not json')).toBeUndefined();
  expect(indentJson('"a string"')).toBeUndefined();
  expect(indentJson('{"a":1} trailing')).toBeUndefined();
  expect(indentJson('[1,2')).toBeUndefined();
});

test('gives up on nesting too deep to indent usefully, in steps that follow the input', () => {
  // 20 000 levels: re-indenting would write 400 million spaces (it threw "Invalid string length").
  const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
  expect(indentJson(deep)).toBeUndefined();
  expect(indentJson(`${'['.repeat(64)}1${']'.repeat(64)}`)).toContain(`\n${'  '.repeat(64)}1`);
});
