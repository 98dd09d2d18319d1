import { describe, expect, test } from 'vitest';
import { toolSavedResult } from './_tool_saved_result.ts';

describe('toolSavedResult', () => {
  test('takes a file directly in the session results folder', () => {
    expect(toolSavedResult('/s/tool-results/toolu_1.txt', '/s')).toBe('/s/tool-results/toolu_1.txt');
  });

  test.each([
    ['a file elsewhere', '/home/u/notes.txt'],
    ['the results folder itself', '/s/tool-results'],
    ['a way out of it', '/s/tool-results/../settings.json'],
    ['a folder below it', '/s/tool-results/x/y.txt'],
    ['a relative path', 'tool-results/toolu_1.txt'],
  ])('refuses %s', (_what, file) => {
    expect(toolSavedResult(file, '/s')).toBeUndefined();
  });
});
