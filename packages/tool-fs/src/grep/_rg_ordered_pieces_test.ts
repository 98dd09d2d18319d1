import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { type CutPiece, cutTree } from './_rg_cut.ts';
import { inRange, searchPiecesInOrder } from './_rg_ordered_pieces.ts';
import { writeFakeRg } from './_test_fake_rg.ts';

describe('inRange', () => {
  const b = (text: string) => Buffer.from(text);
  test('a run whose first and last records are in range is kept as it is (the same buffer)', () => {
    const run = b('b/1\u00001:x\n--\nb/2\u00004:y\n');
    expect(inRange(run, { from: b('b'), to: b('c') })).toBe(run);
    expect(inRange(run, {})).toBe(run);
  });
  test('records before the start or at and after the end are left out, with the separators after them', () => {
    const run = b('a\u00001:x\n--\nb/1\u00001:y\n--\nb/2\u00002:z\nc\u00001:w\n--\nd\u00001:v\n');
    expect(inRange(run, { from: b('b'), to: b('c') }).toString()).toBe('b/1\u00001:y\n--\nb/2\u00002:z\n');
    // Walk order: the folder `b` and what is in it come before `b-c` and `b.d`.
    expect(inRange(b('b-c\u00001:x\nb/z\u00001:y\n'), { to: b('b-c') }).toString()).toBe('b/z\u00001:y\n');
  });
  test('a run holding part of a name with a line break is kept whole (its paths cannot be read line by line)', () => {
    const run = b('a\u00001:x\nodd\nname\u00001:y\n');
    expect(inRange(run, { from: b('b') })).toBe(run);
  });
});

/** The lines of `hit` the pieces give, and those of one sorted run of the folder as it is now. */
async function piecesAgainstOneRun(dir: string, pieces: CutPiece[]): Promise<{ got: string; expected: string }> {
  const args = ['--null', '--sort', 'path', '-n', '--with-filename', '--no-heading', '--regexp', 'hit', '--'];
  const expected = execFileSync(RIPGREP!, ['--no-config', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  await searchPiecesInOrder(args, pieces, {
    rg: RIPGREP!,
    cwd: dir,
    concurrency: 2,
    onChunks: (bytes) => {
      chunks.push(Buffer.from(bytes));
      return false;
    },
  });
  return { got: Buffer.concat(chunks).toString(), expected: expected.toString() };
}

describe.skipIf(RIPGREP === undefined || process.platform !== 'linux')(
  'searchPiecesInOrder over a tree changed after its cut',
  () => {
    test('names made after the cut, beside split ones, are given once, in their place', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'rg-pieces-changed-'));
      try {
        for (let i = 0; i < 60; i++) {
          const name = `m${i % 6}/d${i % 5}/f${i}.ts`;
          await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
          await writeFile(path.join(dir, name), `hit ${i}\n`);
        }
        const pieces = (await cutTree(dir, [0.25, 0.25, 0.25, 0.25]))!;
        // Before, between and after the cut names, at the root and inside a folder read for the cut.
        for (const name of ['a.ts', 'm2a.ts', 'm3/d2a.ts', 'm3/zz/new.ts', 'zz.ts', 'm0/a.ts']) {
          await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
          await writeFile(path.join(dir, name), 'hit new\n');
        }
        const { got, expected } = await piecesAgainstOneRun(dir, pieces);
        expect(got).toBe(expected);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
    test('a name made before the first entry of a folder whose piece starts there, or a folder made a file, is given', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'rg-pieces-gap-'));
      try {
        // Four folders of ten files: each piece after the first starts at a folder's first file,
        // and the pieces before it leave that whole folder out.
        for (const folder of ['a', 'b', 'c', 'd']) {
          await mkdir(path.join(dir, folder));
          for (let i = 0; i < 10; i++) await writeFile(path.join(dir, folder, `f${i}.ts`), `hit ${folder}${i}\n`);
        }
        const pieces = (await cutTree(dir, [0.25, 0.25, 0.25, 0.25]))!;
        expect(pieces.map((p) => p.from?.toString())).toEqual([undefined, 'b', 'c', 'd']);
        // In the gap before `b/f0.ts` and `c/f0.ts`, which only the piece that starts there searches.
        await writeFile(path.join(dir, 'b', '0.ts'), 'hit new b\n');
        await mkdir(path.join(dir, 'c', '0'));
        await writeFile(path.join(dir, 'c', '0', 'x.ts'), 'hit new c\n');
        // The folder `d` becomes a file: only the last piece does not leave `d` out.
        await rm(path.join(dir, 'd'), { recursive: true });
        await writeFile(path.join(dir, 'd'), 'hit new d\n');
        const { got, expected } = await piecesAgainstOneRun(dir, pieces);
        expect(got).toBe(expected);
        expect(expected).toContain('hit new d');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);

/** Pids of this process's ripgrep children that have not exited. */
function liveRgChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …
      const [, comm, state, ppid] = /^\d+ \((.*)\) (\S) (\d+)/.exec(stat) ?? [];
      if (comm === 'rg' && state !== 'Z' && Number(ppid) === process.pid) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

async function noRgLeft(): Promise<number[]> {
  for (let i = 0; i < 100 && liveRgChildren().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return liveRgChildren();
}

describe.skipIf(RIPGREP === undefined || process.platform !== 'linux')('searchPiecesInOrder with ripgrep', () => {
  let dir: string;
  let pieces: CutPiece[];
  let sorted: Buffer;
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
    dir = await mkdtemp(path.join(tmpdir(), 'rg-pieces-'));
    for (let i = 0; i < 400; i++) {
      const name = `m${i % 8}/d${i % 5}/f${i}.ts`;
      await mkdir(path.join(dir, path.dirname(name)), { recursive: true });
      // Every fourth file has a long run of matches: output that outgrows small bounds.
      const body = Array.from({ length: i % 4 === 0 ? 200 : 3 }, (_, l) => `hit ${i} ${l}`).join('\n');
      await writeFile(path.join(dir, name), `${body}\n`);
    }
    pieces = (await cutTree(
      dir,
      Array.from({ length: 8 }, () => 0.125),
    ))!;
    expect(pieces.length).toBeGreaterThan(4);
    sorted = execFileSync(RIPGREP!, ['--no-config', ...args], {
      cwd: dir,
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function collect(options: {
    concurrency: number;
    heldBytes?: number;
    lineBufferedFrom?: number;
    denseBytes?: number;
    skipRecords?: number;
    rg?: string;
  }) {
    const chunks: Buffer[] = [];
    const outcome = await searchPiecesInOrder(args, pieces, {
      rg: RIPGREP!,
      cwd: dir,
      ...options,
      onChunks: (bytes) => {
        chunks.push(Buffer.from(bytes));
        return false;
      },
    });
    return { outcome, out: Buffer.concat(chunks) };
  }

  test('a run writing line by line whose output turns out dense is started again writing 8 KB at a time, and so are the pieces after it', async () => {
    // ripgrep behind a script that logs each run's arguments.
    const log = path.join(dir, '..', `${path.basename(dir)}.log`);
    const rg = path.join(dir, '..', `${path.basename(dir)}.rg`);
    await writeFile(rg, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${RIPGREP}' "$@"\n`, { mode: 0o755 });
    try {
      const { out } = await collect({ concurrency: 1, lineBufferedFrom: 0, denseBytes: 4096, rg });
      expect(out.equals(sorted)).toBe(true);
      const runs = readFileSync(log, 'utf8').trim().split('\n');
      // Each piece printing over 4 KB: a run line by line, then one 8 KB at a time; the others, one run.
      const dense = pieces.map(
        (piece) =>
          execFileSync(RIPGREP!, ['--no-config', ...args.slice(0, -1), ...piece.args, '--'], {
            cwd: dir,
            maxBuffer: 1 << 26,
            stdio: ['ignore', 'pipe', 'pipe'],
          }).length > 4096,
      );
      // Dense pieces (those holding m0 and m4, whose files have 200 lines each) and sparse ones.
      expect(dense.filter(Boolean).length).toBeGreaterThanOrEqual(2);
      expect(dense.filter((d) => !d).length).toBeGreaterThanOrEqual(2);
      // One piece at a time: up to the first dense piece, each runs line by line (that one then again 8 KB
      // at a time); every piece after it starts 8 KB at a time (the output is dense).
      const firstDense = dense.indexOf(true);
      const expected = dense.flatMap((d, i) => {
        const lineByLine = [...args.slice(0, -1), '--line-buffered', ...pieces[i]!.args, '--'].join(' ');
        const buffered = lineByLine.replace(' --line-buffered', '');
        return i < firstDense ? [lineByLine] : i === firstDense ? [lineByLine, buffered] : [buffered];
      });
      expect(firstDense).toBeLessThan(pieces.length - 1);
      expect(runs.map((r) => r.replace(/^--no-config /, ''))).toEqual(expected);
      // Below the bound, never.
      await rm(log);
      await collect({ concurrency: 2, lineBufferedFrom: 0, denseBytes: sorted.length, rg });
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(pieces.length);
    } finally {
      await rm(rg, { force: true });
      await rm(log, { force: true });
    }
  });

  test.each([
    ['one at a time', { concurrency: 1 }],
    ['two at a time', { concurrency: 2 }],
    ['all at once, line by line', { concurrency: 8, lineBufferedFrom: 0 }],
    // Every piece ahead of its turn paused as soon as it prints: one at a time in effect.
    ['paused ahead of their turn (a bound of one byte)', { concurrency: 3, heldBytes: 1 }],
    ['with a bound of 64 KB', { concurrency: 3, heldBytes: 64 * 1024 }],
    // The runs of dense pieces are started again 8 KB at a time after their first 4 KB: nothing twice, nothing lost.
    ['line by line, each started again once dense', { concurrency: 2, lineBufferedFrom: 0, denseBytes: 4096 }],
    [
      'line by line, started again while paused ahead',
      { concurrency: 3, lineBufferedFrom: 0, denseBytes: 4096, heldBytes: 1 },
    ],
  ])('%s, the pieces give the bytes of one sorted run', async (_, options) => {
    const { outcome, out } = await collect(options);
    // Separators between context groups aside, there are none here: byte for byte.
    expect(out.equals(sorted)).toBe(true);
    expect(outcome).toEqual({ run: { code: 0, stderr: '' }, stopped: false });
    expect(await noRgLeft()).toEqual([]);
  });

  test('records already given elsewhere are left out, and only they', async () => {
    const { out } = await collect({ concurrency: 2, skipRecords: 1000 });
    const lines = sorted.toString().split(/(?<=\n)/);
    expect(out.toString()).toBe(lines.slice(1000).join(''));
  });

  test('once the sink has enough, every piece is killed and it says it stopped', async () => {
    let lines = 0;
    const outcome = await searchPiecesInOrder(args, pieces, {
      rg: RIPGREP!,
      cwd: dir,
      concurrency: 3,
      heldBytes: 1,
      onChunks: (bytes) => (lines += bytes.toString().split('\n').length - 1) >= 10,
    });
    expect(outcome.stopped).toBe(true);
    expect(await noRgLeft()).toEqual([]);
  });

  test('an abort rejects with its reason and leaves no ripgrep running, paused ones included', async () => {
    const controller = new AbortController();
    let first = true;
    const search = searchPiecesInOrder(args, pieces, {
      rg: RIPGREP!,
      cwd: dir,
      signal: controller.signal,
      concurrency: 3,
      heldBytes: 1,
      onChunks: () => {
        if (first) controller.abort(new Error('user pressed Esc'));
        first = false;
        return false;
      },
    });
    await expect(search).rejects.toThrow('user pressed Esc');
    expect(await noRgLeft()).toEqual([]);
  });

  test("ripgrep's complaint about the pattern comes back as exit code 2", async () => {
    const bad = [...args.slice(0, -3), '--regexp', 'a(', '--'];
    const outcome = await searchPiecesInOrder(bad, pieces, {
      rg: RIPGREP!,
      cwd: dir,
      concurrency: 2,
      onChunks: () => false,
    });
    expect(outcome.run.code).toBe(2);
    expect(outcome.run.stderr).toMatch(/unclosed group/);
  });
});

describe.skipIf(process.platform !== 'linux')('searchPiecesInOrder with runs that stall', () => {
  test('once the sink has enough, the pieces still running or paused ahead of their turn are killed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rg-pieces-stall-'));
    try {
      const rg = await writeFakeRg(dir);
      // Each run prints one line, then stalls for 20 s.
      Object.assign(process.env, { LOG: path.join(dir, 'log'), SORTED_FIRST: '1', SORTED_WAIT_MS: '20000' });
      let lines = 0;
      const outcome = await searchPiecesInOrder(
        ['--sort', 'path', 'hit'],
        [{ args: [] }, { args: [] }, { args: [] }, { args: [] }],
        {
          rg,
          cwd: dir,
          concurrency: 3,
          heldBytes: 1,
          // Full at the head's first line, once a second run has started (held here till then).
          onChunks: () => {
            for (let i = 0; i < 250 && readFileSync(path.join(dir, 'log'), 'utf8').split('\n').length <= 2; i++) {
              Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
            }
            return ++lines >= 1;
          },
        },
      );
      expect(outcome.stopped).toBe(true);
      // A run paused before it has logged (its start is slow) counts too: every child is looked at.
      expect(readFileSync(path.join(dir, 'log'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(2);
      expect(await noRgLeft()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(process.platform !== 'linux')('searchPiecesInOrder, the first piece alone', () => {
  test.each([
    // Dense: it has given its 5 lines, past soloRecords: the others would only take its core.
    ['stays alone while it is filling the page fast', '5', 1],
    // Sparse: one line by then; the other pieces join.
    ['is joined by the others when it is not', '1', 3],
  ])('%s', async (_, first, runsStarted) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rg-pieces-solo-'));
    const controller = new AbortController();
    try {
      const rg = await writeFakeRg(dir);
      const log = path.join(dir, 'log');
      Object.assign(process.env, { LOG: log, SORTED_FIRST: first, SORTED_WAIT_MS: '20000' });
      const search = searchPiecesInOrder(['--sort', 'path', 'hit'], [{ args: [] }, { args: [] }, { args: [] }], {
        rg,
        cwd: dir,
        signal: controller.signal,
        concurrency: 3,
        // Long enough for the stand-in to start and print on a loaded machine.
        soloMs: 2000,
        soloRecords: 3,
        onChunks: () => false,
      });
      search.catch(() => {});
      // Past the window (the stand-in takes about 50 ms to start).
      await new Promise((r) => setTimeout(r, 2600));
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(runsStarted);
      controller.abort(new Error('done'));
      await expect(search).rejects.toThrow('done');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
