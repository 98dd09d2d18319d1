import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { rssGrowth } from './rss_growth.ts';

describe('rssGrowth', () => {
  // In a process of its own: in a test worker, memory other test files freed can go back to the
  // system while the operation runs and hide what it holds (seen three times in full runs).
  test('sees memory the operation holds while it runs, and returns its value', () => {
    const script = [
      `import { rssGrowth } from ${JSON.stringify(path.join(import.meta.dirname, 'rss_growth.ts'))};`,
      'const held = [];',
      'const { value, growthMb } = await rssGrowth(async () => {',
      '  for (let i = 0; i < 4; i++) held.push(Buffer.alloc(40 * 2 ** 20, 1));',
      '  await new Promise((resolve) => setTimeout(resolve, 30));',
      '  return held.length;',
      '});',
      'console.log(JSON.stringify({ value, growthMb }));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    });
    const { value, growthMb } = JSON.parse(out) as { value: number; growthMb: number };
    expect(value).toBe(4);
    expect(growthMb).toBeGreaterThan(100);
  });

  test('stops sampling when the operation throws, and throws its error', async () => {
    await expect(rssGrowth(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
