import { describe, expect, test } from 'vitest';
import { rssGrowth } from './rss_growth.ts';

describe('rssGrowth', () => {
  test('sees memory the operation holds while it runs, and returns its value', async () => {
    const held: Buffer[] = [];
    const { value, growthMb } = await rssGrowth(async () => {
      for (let i = 0; i < 8; i++) held.push(Buffer.alloc(16 * 2 ** 20, 1));
      await new Promise((resolve) => setTimeout(resolve, 30));
      return held.length;
    });
    expect(value).toBe(8);
    expect(growthMb).toBeGreaterThan(100);
    held.length = 0;
  });

  test('stops sampling when the operation throws, and throws its error', async () => {
    await expect(rssGrowth(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
