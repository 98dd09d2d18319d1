import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from './tool.ts';

const minimal = buildTool({
  name: 'Minimal',
  description: 'Does nothing at all.',
  inputSchema: z.strictObject({ path: z.string() }),
  async call() {
    return { data: { ok: true } };
  },
});

describe('buildTool', () => {
  test('fills in the cautious defaults of DESIGN.md', async () => {
    const input = { path: 'a' };
    expect(minimal.isReadOnly(input)).toBe(false);
    expect(minimal.isConcurrencySafe(input)).toBe(false);
    expect(minimal.isDestructive(input)).toBe(false);
    expect(minimal.isEnabled()).toBe(true);
    expect(await minimal.checkPermissions(input, {} as never)).toEqual({ behavior: 'passthrough' });
    expect(await minimal.validateInput(input, {} as never)).toEqual({ result: true });
    expect(minimal.maxResultSizeChars).toBe(DEFAULT_MAX_RESULT_SIZE_CHARS);
    expect(minimal.maxResultSizeChars).toBe(50_000);
    expect(minimal.interruptBehavior).toBe('block');
    expect(minimal.shouldDefer).toBe(false);
    expect(minimal.alwaysLoad).toBe(false);
    expect(minimal.aliases).toEqual([]);
    expect(minimal.permissionSuggestions(input)).toEqual(['Minimal']);
  });

  test('renders a call from its first string field and maps non-text output to JSON', () => {
    expect(minimal.renderToolUse({ path: 'src/a.ts' })).toBe('Minimal(src/a.ts)');
    expect(minimal.mapResult({ ok: true }, 't1')).toBe('{\n  "ok": true\n}');
    expect(minimal.userFacingName()).toBe('Minimal');
  });

  test.each([
    ['', 'empty'],
    ['has space', 'space'],
    ['a'.repeat(65), 'too long'],
    ['dots.not.allowed', 'dot'],
  ])('refuses the invalid name %j (%s)', (name) => {
    expect(() =>
      buildTool({ name, description: 'x', inputSchema: z.object({}), call: async () => ({ data: 1 }) }),
    ).toThrow(new TypeError(`Tool name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-"`));
  });

  test('refuses a definition without call or schema', () => {
    expect(() => buildTool({ name: 'X', description: 'x', inputSchema: z.object({}) } as never)).toThrow(
      'Tool "X" has no call function',
    );
    expect(() =>
      buildTool({ name: 'X', description: 'x', inputSchema: {} as never, call: async () => ({ data: 1 }) }),
    ).toThrow('Tool "X" needs a zod inputSchema');
  });
});
