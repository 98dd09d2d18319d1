import { ChildProcess, execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RIPGREP } from '../_test_engines.ts';
import { type CutPiece, cutTree } from './_rg_cut.ts';
import { searchPiecesInOrder } from './_rg_ordered_pieces.ts';
import { searchInPathOrder } from './_rg_two_runs.ts';

/** Where an open descriptor of this process leads, if it is still open. */
function fdTarget(fd: string): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

const ARGS = ['--null', '--sort', 'path', '-n', '--with-filename', '--no-heading', '--regexp', 'hit', '--'];

describe.skipIf(RIPGREP === undefined || process.platform !== 'linux')(
  'searchPiecesInOrder with spillAhead (every line wanted, more than memory may hold)',
  () => {
    let dir: string;
    let tmp: string;
    let pieces: CutPiece[];
    let expected: string;
    const tmpBefore = process.env.TMPDIR;
    const signals: string[] = [];
    const kill = ChildProcess.prototype.kill;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'rg-pieces-spill-'));
      tmp = await mkdtemp(path.join(os.tmpdir(), 'rg-pieces-spill-tmp-'));
      process.env.TMPDIR = tmp;
      // Four folders of 40 files of 200 matching lines: about 1.6 MB of output.
      for (const folder of ['a', 'b', 'c', 'd']) {
        await mkdir(path.join(dir, folder));
        for (let f = 0; f < 40; f++) {
          const lines = Array.from({ length: 200 }, (_, l) => `hit ${folder}${f} line ${l}`).join('\n');
          await writeFile(path.join(dir, folder, `f${String(f).padStart(2, '0')}.ts`), `${lines}\n`);
        }
      }
      pieces = (await cutTree(dir, [0.25, 0.25, 0.25, 0.25]))!;
      expected = execFileSync(RIPGREP!, ['--no-config', ...ARGS], {
        cwd: dir,
        maxBuffer: 1 << 26,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).toString();
      // Every signal sent to a child, to see whether a piece was paused.
      ChildProcess.prototype.kill = function (this: ChildProcess, signal?: NodeJS.Signals | number) {
        signals.push(String(signal));
        return kill.call(this, signal);
      };
    });
    afterAll(async () => {
      ChildProcess.prototype.kill = kill;
      if (tmpBefore === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpBefore;
      await rm(dir, { recursive: true, force: true });
      await rm(tmp, { recursive: true, force: true });
    });

    /** Runs the pieces with 8 KB of memory for what is ahead; the sink may look at each chunk. */
    async function search(
      spillAhead: boolean,
      sink: (bytes: Buffer) => boolean = () => false,
      signal?: AbortSignal,
      spillUnwrittenBytes?: number,
    ) {
      signals.length = 0;
      const chunks: Buffer[] = [];
      const spillsSeen: string[] = [];
      await searchPiecesInOrder(ARGS, pieces, {
        rg: RIPGREP!,
        cwd: dir,
        concurrency: 2,
        heldBytes: 8 * 1024,
        spillAhead,
        spillUnwrittenBytes,
        signal,
        onChunks: (bytes) => {
          // The first chunk is taken slowly: meanwhile the piece ahead fills its pipe, so that what
          // it printed is past the bound while the first piece is still going (else, on a fast
          // machine, the first piece could end before the second printed much).
          if (chunks.length === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
          chunks.push(Buffer.from(bytes));
          // The held files, open (their names are removed as soon as they are made).
          for (const fd of readdirSync('/proc/self/fd')) {
            const target = fdTarget(fd);
            if (target?.startsWith(tmp)) spillsSeen.push(path.relative(tmp, target));
          }
          return sink(bytes);
        },
      });
      return { got: Buffer.concat(chunks).toString(), spillsSeen };
    }

    test('gives the lines of one sorted run; pieces ahead go on into a file, never paused; the file is removed', async () => {
      expect(pieces).toHaveLength(4);
      const { got, spillsSeen } = await search(true);
      expect(got).toBe(expected);
      expect(signals).not.toContain('SIGSTOP');
      expect(spillsSeen.some((name) => name.startsWith('toolshed-grep-held-'))).toBe(true);
      expect(await readdir(tmp)).toEqual([]);
      // And closed: no descriptor of a held file is left open.
      expect(readdirSync('/proc/self/fd').filter((fd) => fdTarget(fd)?.startsWith(tmp))).toEqual([]);
    });

    test('searchInPathOrder of every line spills (not pauses), and gives one sorted run', async () => {
      signals.length = 0;
      const chunks: Buffer[] = [];
      const outcome = await searchInPathOrder(ARGS, {
        rg: RIPGREP!,
        cwd: dir,
        cores: 2,
        unsortedBytes: 8 * 1024,
        pieceShares: [0.5, 0.5],
        onChunks: (bytes) => {
          if (chunks.length === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
          chunks.push(Buffer.from(bytes));
          return false;
        },
      });
      expect(outcome.used).toBe('pieces');
      expect(Buffer.concat(chunks).toString()).toBe(expected);
      expect(signals).not.toContain('SIGSTOP');
      expect(await readdir(tmp)).toEqual([]);
    });

    test('a disk that falls behind: past the bound on what waits for a write, the pieces ahead are paused after all', async () => {
      // Any chunk waiting for its write is past a bound of one byte.
      const { got } = await search(true, () => false, undefined, 1);
      expect(got).toBe(expected);
      expect(signals).toContain('SIGSTOP');
    });

    test('without it, the same search pauses the pieces ahead at the bound (what spilling replaces)', async () => {
      const { got } = await search(false);
      expect(got).toBe(expected);
      expect(signals, JSON.stringify(signals)).toContain('SIGSTOP');
      expect(await readdir(tmp)).toEqual([]);
    });

    test('a sink that has enough while held output is on disk: the runs are killed and the file removed', async () => {
      let lines = 0;
      const { got } = await search(true, (bytes) => {
        lines += bytes.toString().split('\n').length - 1;
        return lines > expected.split('\n').length * 0.6;
      });
      expect(expected.startsWith(got)).toBe(true);
      expect(await readdir(tmp)).toEqual([]);
    });

    test('aborted, or a sink that throws, while held output is on disk: it rejects, and the file is removed', async () => {
      const controller = new AbortController();
      let given = 0;
      await expect(
        search(
          true,
          (bytes) => {
            given += bytes.length;
            if (given > 600_000) controller.abort(new Error('stop here'));
            return false;
          },
          controller.signal,
        ),
      ).rejects.toThrow('stop here');
      expect(await readdir(tmp)).toEqual([]);
      given = 0;
      await expect(
        search(true, (bytes) => {
          given += bytes.length;
          if (given > 900_000) throw new Error('sink broke');
          return false;
        }),
      ).rejects.toThrow('sink broke');
      expect(await readdir(tmp)).toEqual([]);
    });
  },
);
