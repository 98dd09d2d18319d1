import { describe, expect, test } from 'vitest';
import { defineFamily } from './family.ts';
import { echoTool } from './_test_tools.ts';

describe('defineFamily', () => {
  test('an eager family has its tools without loading', async () => {
    const family = defineFamily({ name: 'echo', version: '1.0.0', tools: [echoTool] });
    expect(family.tools).toEqual([echoTool]);
    expect(await family.loadTools()).toEqual([echoTool]);
  });

  test('a lazy family loads once, and retries after a failed load', async () => {
    let calls = 0;
    const family = defineFamily({
      name: 'lazy',
      version: '1.0.0',
      manifest: [{ name: 'Echo', description: 'Echoes.' }],
      load: async () => {
        calls++;
        if (calls === 1) throw new Error('module not found');
        return [echoTool];
      },
    });
    expect(family.tools).toBeUndefined();
    await expect(family.loadTools()).rejects.toThrow('module not found');
    expect(await family.loadTools()).toEqual([echoTool]);
    expect(await family.loadTools()).toEqual([echoTool]);
    expect(calls).toBe(2);
  });

  test('a lazy family without a manifest, or a family without tools, is a TypeError', () => {
    expect(() => defineFamily({ name: 'x', version: '1', load: async () => [] })).toThrow(
      'Lazy family "x" needs a manifest',
    );
    expect(() => defineFamily({ name: 'x', version: '1' })).toThrow('Family "x" has neither tools nor a load function');
    expect(() => defineFamily({ name: '', version: '1', tools: [] })).toThrow('A family needs a name, got ""');
  });

  test('an external family is re-listed on every load (its tool list may change)', async () => {
    let n = 0;
    const family = defineFamily({
      name: 'mcp',
      version: '1',
      external: true,
      load: async () => (++n > 1 ? [echoTool] : []),
    });
    expect(await family.loadTools()).toEqual([]);
    expect(await family.loadTools()).toEqual([echoTool]);
  });
});
