import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { searchInPathOrder } from './_rg_two_runs.ts';

/**
 * A stand-in that replays real ripgrep output: the sorted run (`--sort` among its arguments)
 * prints the first `FIRST_LINES` lines of `SORTED_OUT`, then stalls 1.5 s; the unsorted run prints
 * `UNSORTED_OUT` at once. So the unsorted run ends while exactly those lines have been given.
 */
const REPLAY_RG = `#!${process.execPath}
const fs = require('node:fs');
const sorted = process.argv.includes('--sort');
const out = (text) => new Promise((r) => process.stdout.write(text, r));
(async () => {
  if (sorted) {
    const all = fs.readFileSync(process.env.SORTED_OUT);
    let at = 0;
    for (let i = 0; i < Number(process.env.FIRST_LINES); i++) at = all.indexOf(10, at) + 1;
    await out(all.subarray(0, at));
    await new Promise((r) => setTimeout(r, 1500));
    await out(all.subarray(at));
  } else {
    await out(fs.readFileSync(process.env.UNSORTED_OUT));
  }
})();
`;

describe.skipIf(RIPGREP === undefined)('searchInPathOrder on names ripgrep prints with a line break', () => {
  let dir: string;
  let tree: string;
  let rg: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'two-runs-names-'));
    tree = path.join(dir, 'tree');
    await mkdir(tree);
    await writeFile(path.join(tree, 'a\nz.ts'), 'hit a-newline-z\n');
    await writeFile(path.join(tree, 'b.ts'), 'hit b\n');
    await writeFile(path.join(tree, 'm.ts'), 'hit m\n');
    rg = path.join(dir, 'rg');
    await writeFile(rg, REPLAY_RG);
    await chmod(rg, 0o755);
    const args = ['--no-config', '--null', '--line-number', '--with-filename', '--no-heading', '--regexp', 'hit'];
    await writeFile(
      path.join(dir, 'sorted'),
      execFileSync(RIPGREP!, ['--sort', 'path', ...args], { cwd: tree, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    await writeFile(
      path.join(dir, 'unsorted'),
      execFileSync(RIPGREP!, args, { cwd: tree, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('with a name printed across lines, the unsorted output is not used: the sorted run gives every line once', async () => {
    const sorted = (await readFile(path.join(dir, 'sorted'))).toString();
    // The sorted run gives `a` and `z.ts\0 1:hit a-newline-z` (one record), then stalls.
    Object.assign(process.env, {
      SORTED_OUT: path.join(dir, 'sorted'),
      UNSORTED_OUT: path.join(dir, 'unsorted'),
      FIRST_LINES: '2',
    });
    let got = '';
    const outcome = await searchInPathOrder(['--null', '--sort', 'path', '--regexp', 'hit'], {
      rg,
      cwd: tree,
      pauseSortedAfterMs: 300,
      onChunks: (bytes) => {
        got += bytes.toString();
        return false;
      },
    });
    // Its records could not be put in order (nor counted) safely: the paused sorted run resumed.
    expect(outcome.used).toBe('sorted');
    expect(got).toBe(sorted);
  });
});
