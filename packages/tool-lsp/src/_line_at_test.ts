import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rssGrowth } from '@toolshed/core/testing';
import { LINE_AT_MAX_CHARS, lineAt } from './_line_at.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-lsp-line-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lineAt', () => {
  test('gives one line of a small file as it is, without its CR, and undefined past the end', async () => {
    const file = path.join(dir, 'small.ts');
    await writeFile(file, 'first\r\nsecond\n\nfourth');
    expect(await lineAt(file, 1)).toBe('first');
    expect(await lineAt(file, 2)).toBe('second');
    expect(await lineAt(file, 3)).toBe('');
    expect(await lineAt(file, 4)).toBe('fourth');
    expect(await lineAt(file, 5)).toBeUndefined();
  });

  test('finds a line past 600 MB of a file, keeping only the start of a long line (memory follows the line shown)', async () => {
    const file = path.join(dir, 'generated.js');
    const handle = await open(file, 'w');
    await handle.write('const a = 1;\n');
    // 600 MB of one line (a sparse hole: NUL bytes that take no disk), then two short lines.
    const end = 600 * 2 ** 20;
    await handle.write('\nexport function target() {}\n', end);
    await handle.close();
    const { growthMb } = await rssGrowth(async () => {
      expect(await lineAt(file, 3)).toBe('export function target() {}');
      const long = await lineAt(file, 2);
      expect(long!.length).toBe(LINE_AT_MAX_CHARS);
    });
    expect(growthMb).toBeLessThan(300);
  });
});
