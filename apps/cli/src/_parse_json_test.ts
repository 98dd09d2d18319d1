import { describe, expect, test } from 'vitest';
import { parseJson } from './_parse_json.ts';

describe('parseJson', () => {
  test('parseJson returns the value of valid JSON', () => {
    expect(parseJson('{"a":[1,2.5e3,"x\\u00e9",true,null]}')).toEqual({
      ok: true,
      value: { a: [1, 2500, 'xé', true, null] },
    });
  });

  test('parseJson locates an unexpected token that V8 reports without a position', () => {
    const r = parseJson('{\n  "a": }');
    expect(r).toMatchObject({ ok: false, line: 2, column: 8 });
    if (!r.ok) expect(r.message).toBe("Unexpected token '}'");
  });

  test('parseJson locates a trailing comma, a missing colon and single quotes', () => {
    expect(parseJson('{"a":1,}')).toMatchObject({ ok: false, line: 1, column: 8 });
    expect(parseJson('{"a" 1}')).toMatchObject({ ok: false, line: 1, column: 6 });
    expect(parseJson("[\n\n{'a':1}]")).toMatchObject({ ok: false, line: 3, column: 2 });
  });

  test('parseJson puts the end of a truncated input after its last character', () => {
    expect(parseJson('[1,\n2')).toMatchObject({ ok: false, line: 2, column: 2 });
    expect(parseJson('')).toMatchObject({ ok: false, line: 1, column: 1 });
  });

  test('parseJson does not copy a long input into its message', () => {
    const r = parseJson(`[${'1,'.repeat(5000)}}]`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message.length).toBeLessThan(100);
  });
});
