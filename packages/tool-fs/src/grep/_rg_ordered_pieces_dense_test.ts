import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { searchPiecesInOrder } from './_rg_ordered_pieces.ts';

/**
 * ripgrep behind a script that hands on a line-by-line run's output one line per write, a
 * millisecond apart (as ripgrep with --line-buffered may, when the reader keeps up), so that a
 * `--` separator can be the last line the reader has when the run turns dense.
 */
const slowWriter = (rg: string, changeOnRestart = '') => `#!${process.execPath}
const { spawn } = require('node:child_process');
if (${JSON.stringify(changeOnRestart)} && !process.argv.includes('--line-buffered')) {
  const fs = require('node:fs');
  // A line near the top starts to match, in place: the lines after it keep their numbers.
  fs.writeFileSync(${JSON.stringify(changeOnRestart)}, fs.readFileSync(${JSON.stringify(changeOnRestart)}, 'utf8').replace('miss 1\\n', 'hit 1!\\n'));
}
const child = spawn(${JSON.stringify(rg)}, process.argv.slice(2), { stdio: ['ignore', 'pipe', 'inherit'] });
if (!process.argv.includes('--line-buffered')) {
  child.stdout.pipe(process.stdout);
} else {
  const lines = [];
  let rest = '';
  let ended = false;
  child.stdout.on('data', (d) => { const parts = (rest + d).split(/(?<=\\n)/); rest = parts.pop(); if (rest.endsWith('\\n')) { parts.push(rest); rest = ''; } lines.push(...parts); });
  child.stdout.on('end', () => { ended = true; });
  const next = () => {
    if (lines.length > 0) process.stdout.write(lines.shift(), () => setTimeout(next, 1));
    else if (!ended) setTimeout(next, 1);
  };
  next();
}
`;

/** The bytes a single-piece search gives, its runs writing line by line until `denseBytes`. */
async function searchDense(args: string[], options: { rg: string; cwd: string; denseBytes: number }) {
  const chunks: Buffer[] = [];
  const outcome = await searchPiecesInOrder(args, [{ args: [] }], {
    ...options,
    concurrency: 1,
    lineBufferedFrom: 0,
    onChunks: (bytes) => {
      chunks.push(Buffer.from(bytes));
      return false;
    },
  });
  return { outcome, out: Buffer.concat(chunks).toString() };
}

describe.skipIf(RIPGREP === undefined || process.platform !== 'linux')(
  'searchPiecesInOrder: a dense run started again, with context',
  () => {
    let dir: string;
    let rg: string;
    const args = [
      '--null',
      '--sort',
      'path',
      '-n',
      '--with-filename',
      '--no-heading',
      '-C',
      '1',
      '--regexp',
      'hit',
      '--',
    ];
    let sorted: Buffer;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'rg-dense-context-'));
      // Matches three lines apart: each group of context ends in a `--` separator before the next.
      const text = Array.from({ length: 120 }, (_, i) => (i % 4 === 0 ? `hit ${i}` : `other ${i}`)).join('\n');
      await writeFile(path.join(dir, 'a.txt'), `${text}\n`);
      rg = path.join(dir, '..', `${path.basename(dir)}.rg`);
      await writeFile(rg, slowWriter(RIPGREP!), { mode: 0o755 });
      sorted = execFileSync(RIPGREP!, ['--no-config', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(rg, { force: true });
    });

    // The run turns dense on a record, or on the `--` separator after one (the next record not printed yet).
    test.each(['a record', 'a separator'])(
      'the run turning dense on %s, the pieces give the bytes of one sorted run: no separator twice',
      async (on) => {
        const text = sorted.toString();
        const separator = text.indexOf('\n--\n', text.length / 3) + 1;
        // Printed past the bound with the line at `separator` (the separator) or the one after it.
        const denseBytes = on === 'a separator' ? separator : separator + 3;
        const { outcome, out } = await searchDense(args, { rg, cwd: dir, denseBytes });
        expect(outcome.run.code).toBe(0);
        expect(out).toBe(text);
      },
    );

    test('a pattern -n, without line numbers in the output: what was given is left out by count, nothing lost', async () => {
      const file = path.join(dir, 'c.txt');
      await writeFile(file, `${Array.from({ length: 200 }, (_, i) => `x -n ${i}`).join('\n')}\n`);
      try {
        const plain = ['--null', '--sort', 'path', '--with-filename', '--no-heading', '--regexp', '-n', '--', 'c.txt'];
        const expected = execFileSync(RIPGREP!, ['--no-config', ...plain], {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const { out } = await searchDense(plain, { rg, cwd: dir, denseBytes: 1000 });
        expect(out).toBe(expected.toString());
      } finally {
        await rm(file, { force: true });
      }
    });

    // Counting the lines given, the new run left out one line fewer than it should (a line given twice).
    test('a line above where a run got to starting to match before it is started again: no line is given twice', async () => {
      const file = path.join(dir, 'b.txt');
      await writeFile(
        file,
        `${Array.from({ length: 240 }, (_, i) => (i % 2 === 0 ? `hit ${i}` : `miss ${i}`)).join('\n')}\n`,
      );
      const changing = path.join(dir, '..', `${path.basename(dir)}.changing.rg`);
      await writeFile(changing, slowWriter(RIPGREP!, file), { mode: 0o755 });
      try {
        const noContext = args.filter((a) => a !== '-C' && a !== '1').slice(0, -1);
        const { out } = await searchDense([...noContext, '--', 'b.txt'], { rg: changing, cwd: dir, denseBytes: 1000 });
        const lines = out.split('\n').filter(Boolean);
        const texts = lines.map((l) => l.split(':').slice(1).join(':'));
        const numbers = lines.map((l) => Number(l.split('\0')[1]!.split(':')[0]));
        expect(lines.length).toBeGreaterThan(100);
        // Each line once, and in order: what the first run gave, then the rest of the file as it is now.
        expect(new Set(texts).size, lines.join('\n')).toBe(texts.length);
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      } finally {
        await rm(changing, { force: true });
        await rm(file, { force: true });
      }
    });
  },
);
