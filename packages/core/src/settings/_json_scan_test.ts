import { describe, expect, test } from 'vitest';
import { jsonDuplicateKey, jsonErrorOffset } from './_json_scan.ts';

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

describe('jsonDuplicateKey', () => {
  const table: [text: string, key: string | undefined][] = [
    ['{"a": 1, "b": {"a": 2}}', undefined],
    ['{"a": 1, "a": 2}', 'a'],
    ['{"permissions": {"deny": ["Read(./.env)"]}, "permissions": {"allow": ["Bash"]}}', 'permissions'],
    ['{"permissions": {"deny": [], "deny": []}}', 'permissions.deny'],
    ['{"hooks": {"PreToolUse": [{"matcher": "A", "matcher": "B"}]}}', 'hooks.PreToolUse[0].matcher'],
    ['{"a\\u0062": 1, "ab": 2}', 'ab'],
    ['[{"x": 1}, {"x": 2}]', undefined],
  ];
  test.each(table)('finds the first duplicate key of %j: %j', (text, key) => {
    expect(jsonDuplicateKey(text)).toBe(key);
  });
});
