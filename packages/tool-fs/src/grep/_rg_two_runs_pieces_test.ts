import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { searchInPathOrder } from './_rg_two_runs.ts';

describe.skipIf(RIPGREP === undefined || process.platform === 'win32')(
  'searchInPathOrder with ripgrep: which runs it takes',
  () => {
    let dir: string;
    let sorted: string;
    const args = [
      '--hidden',
      '--null',
      '--sort',
      'path',
      '-n',
      '--with-filename',
      '--no-heading',
      '--regexp',
      'hit',
      '--',
    ];
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'two-runs-pieces-'));
      for (let i = 0; i < 200; i++) {
        const name = `p${i % 6}/q${i % 4}/f${i}.ts`;
        await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
        await writeFile(path.join(dir, name), i % 3 === 0 ? `hit ${i}\nmiss\nhit ${i} again\n` : 'miss\n');
      }
      sorted = execFileSync(RIPGREP!, ['--no-config', ...args], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).toString();
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    async function search(
      options: { pageLines?: number; cores?: number; pieceShares?: number[]; denseBytes?: number },
      cwd = dir,
    ) {
      let got = '';
      const outcome = await searchInPathOrder(args, {
        rg: RIPGREP!,
        cwd,
        ...options,
        onChunks: (bytes) => {
          got += bytes.toString();
          return false;
        },
      });
      return { got, outcome };
    }

    test.each([
      ['every line', {}],
      ['a page', { pageLines: 250 }],
      ['a small page (written line by line)', { pageLines: 20 }],
      // Past 200 bytes written line by line, each piece's run starts again 8 KB at a time.
      ['a page whose pieces turn out dense', { pageLines: 250, denseBytes: 200 }],
      ['three cores', { cores: 3 }],
    ])('%s on two or more cores: sorted pieces, the lines of one sorted run', async (_, options) => {
      const { got, outcome } = await search(options);
      expect(outcome.used).toBe('pieces');
      expect(got).toBe(sorted);
    });

    test('on one core: not cut (nothing to share the walk with), the older runs, the same lines', async () => {
      const { got, outcome } = await search({ cores: 1 });
      // The sorted run, or where it has not ended in 15 ms (a loaded machine), the unsorted one.
      expect(outcome.used).not.toBe('pieces');
      expect(got).toBe(sorted);
    });

    test('a tree that cannot be cut (a name no glob can say) takes the sorted and unsorted runs, same lines', async () => {
      const odd = await mkdtemp(path.join(tmpdir(), 'two-runs-odd-'));
      try {
        await writeFile(path.join(odd, 'a\nb.ts'), 'hit\n');
        for (let i = 0; i < 5; i++) await writeFile(path.join(odd, `f${i}.ts`), `hit ${i}\n`);
        const expected = execFileSync(RIPGREP!, ['--no-config', ...args], {
          cwd: odd,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const { got, outcome } = await search({}, odd);
        expect(outcome.used).not.toBe('pieces');
        expect(got).toBe(expected.toString());
      } finally {
        await rm(odd, { recursive: true, force: true });
      }
    });
  },
);
