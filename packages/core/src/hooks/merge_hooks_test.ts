import { describe, expect, test } from 'vitest';
import { mergeHooks } from './merge_hooks.ts';
import type { HooksConfig } from './types.ts';

describe('mergeHooks', () => {
  test('concatenates the groups of each event, first config first', () => {
    const a = () => {};
    const b = () => {};
    const merged = mergeHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [a] }] }, undefined, {
      PreToolUse: [{ hooks: [b] }],
      PostToolUse: [{ hooks: [b] }],
    });
    expect(merged).toEqual({
      PreToolUse: [{ matcher: 'Bash', hooks: [a] }, { hooks: [b] }],
      PostToolUse: [{ hooks: [b] }],
    });
  });

  test('gives undefined when there are no hooks', () => {
    expect(mergeHooks(undefined, {})).toBeUndefined();
  });

  test('refuses an event whose value is not a list instead of dropping its hooks', () => {
    expect(() => mergeHooks({ PreToolUse: { hooks: [] } } as unknown as HooksConfig)).toThrow(TypeError);
  });
});
