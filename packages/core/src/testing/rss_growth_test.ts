import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { rssGrowth } from './rss_growth.ts';

// Garbage other test files left in this worker, collected during the operation, would offset
// what it holds: collect it first (gc is not exposed to tests otherwise).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

describe('rssGrowth', () => {
  test('sees memory the operation holds while it runs, and returns its value', async () => {
    collectGarbage();
    const held: Buffer[] = [];
    const { value, growthMb } = await rssGrowth(async () => {
      // 40 MB each: past malloc's largest mmap threshold (32 MB), so fresh pages, never memory
      // another test file freed and the allocator kept.
      for (let i = 0; i < 4; i++) held.push(Buffer.alloc(40 * 2 ** 20, 1));
      await new Promise((resolve) => setTimeout(resolve, 30));
      return held.length;
    });
    expect(value).toBe(4);
    expect(growthMb).toBeGreaterThan(100);
    held.length = 0;
  });

  test('stops sampling when the operation throws, and throws its error', async () => {
    await expect(rssGrowth(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
