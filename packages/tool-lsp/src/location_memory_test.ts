import { open } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { rssGrowth } from '@toolshed/core/testing';
import { FAKE_SERVER, makeBench } from './_test_bench.ts';

// A location's line is shown beside it; what that costs follows the line, not the file it is in.

describe('the line of a location in a huge file', () => {
  test('is found past 600 MB with memory for the line only, and shown as for any file', async () => {
    let big = '';
    const b = await makeBench({
      family: (root) => {
        big = path.join(root, 'generated.js');
        return {
          servers: {
            typescript: { command: process.execPath, args: [FAKE_SERVER, 'far-definition', big], extensions: ['.ts'] },
          },
        };
      },
    });
    try {
      const handle = await open(big, 'w');
      await handle.write('const a = 1;\n');
      // 600 MB of one line (a sparse hole: NUL bytes that take no disk), then the line asked for.
      await handle.write('\nexport function target() {}\n', 600 * 2 ** 20);
      await handle.close();
      const { value: result, growthMb } = await rssGrowth(() =>
        b.call({ operation: 'goToDefinition', filePath: 'src/main.ts', line: 5, character: 37 }),
      );
      expect(result.isError).toBe(false);
      expect(result.text).toContain('generated.js:3:1: export function target() {}');
      expect(growthMb).toBeLessThan(300);
    } finally {
      await b.cleanup();
    }
  }, 60_000);

  test('a file asked about that is over the size sent to a server is refused before it is read, saying what to use', async () => {
    let big = '';
    const b = await makeBench({
      family: (root) => {
        big = path.join(root, 'src', 'huge.ts');
        return {
          servers: {
            typescript: { command: process.execPath, args: [FAKE_SERVER, 'far-definition', big], extensions: ['.ts'] },
          },
        };
      },
    });
    try {
      const handle = await open(big, 'w');
      await handle.truncate(600 * 2 ** 20);
      await handle.close();
      const result = await b.call({ operation: 'documentSymbol', filePath: 'src/huge.ts' });
      expect(result.isError).toBe(true);
      expect(result.text).toContain(
        `${big} is 600.0 MB; the LSP tool sends a file's whole text to the language server and takes files up to 32 MB. Use Grep`,
      );
    } finally {
      await b.cleanup();
    }
  }, 60_000);
});
