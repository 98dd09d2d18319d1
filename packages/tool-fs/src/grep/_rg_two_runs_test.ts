import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { searchInPathOrder } from './_rg_two_runs.ts';
import { writeFakeRg } from './_test_fake_rg.ts';

const ALL = Array.from(
  { length: 18 },
  (_, i) => `f${Math.floor(i / 3)}.ts\0${(i % 3) + 1}:hit ${Math.floor(i / 3)} ${(i % 3) + 1}\n`,
).join('');

describe('searchInPathOrder', () => {
  let dir: string;
  let rg: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'two-runs-'));
    rg = await writeFakeRg(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function search(
    env: Record<string, string>,
    options: { pauseSortedAfterMs?: number; unsortedBytes?: number; limit?: number; pageLines?: number } = {},
  ) {
    Object.assign(process.env, {
      LOG: path.join(dir, `log-${Math.random()}`),
      SORTED_FIRST: '0',
      SORTED_WAIT_MS: '0',
      UNSORTED_WAIT_MS: '0',
      UNSORTED_PAD: '0',
      ...env,
    });
    let got = '';
    const outcome = await searchInPathOrder(['--null', '--sort', 'path', '--regexp', 'hit'], {
      rg,
      cwd: dir,
      pauseSortedAfterMs: options.pauseSortedAfterMs,
      // The sorted run and the unsorted one: pieces are _rg_ordered_pieces_test.ts's.
      pieceShares: [],
      unsortedBytes: options.unsortedBytes,
      pageLines: options.pageLines,
      onChunks: (bytes) => {
        got += bytes.toString();
        return options.limit !== undefined && got.split('\n').length > options.limit;
      },
    });
    return { got, outcome };
  }

  test('lines the sorted run gave before the unsorted one ended are not given again, the rest follow in path order', async () => {
    // The sorted run gives 4 lines, then stalls for 20 s; at 500 ms it is paused and the unsorted run starts.
    const { got, outcome } = await search(
      { SORTED_FIRST: '4', SORTED_WAIT_MS: '20000', UNSORTED_WAIT_MS: '100' },
      { pauseSortedAfterMs: 500 },
    );
    expect(outcome.used).toBe('unsorted');
    expect(got).toBe(ALL);
  });

  test('a sorted run paused for an unsorted one that outgrows its bound resumes where it was and gives every line once', async () => {
    const { got, outcome } = await search(
      { SORTED_FIRST: '2', SORTED_WAIT_MS: '300', UNSORTED_WAIT_MS: '100', UNSORTED_PAD: '4096' },
      { pauseSortedAfterMs: 50, unsortedBytes: 1024 },
    );
    expect(outcome.used).toBe('sorted');
    expect(got).toBe(ALL);
  });

  test('a page the sorted run fills ends the search: the unsorted run is killed and nothing is added', async () => {
    const log = path.join(dir, 'log-full');
    // Never paused here: the stand-in takes longer to start than ripgrep.
    const started = Date.now();
    const { got, outcome } = await search(
      { LOG: log, SORTED_FIRST: '18', UNSORTED_WAIT_MS: '5000' },
      { limit: 3, pauseSortedAfterMs: 10_000 },
    );
    expect(outcome).toMatchObject({ used: 'sorted', stopped: true });
    expect(got).toBe(ALL);
    // Not waited for: the unsorted run (still in its 5 s wait) was killed.
    expect(Date.now() - started).toBeLessThan(4000);
  });

  test('a sorted run that has given a third of its page by the pause goes on alone: the unsorted run is stopped', async () => {
    const started = Date.now();
    const { got, outcome } = await search(
      { SORTED_FIRST: '6', SORTED_WAIT_MS: '600', UNSORTED_WAIT_MS: '20000' },
      { pauseSortedAfterMs: 400, pageLines: 18 },
    );
    expect(outcome.used).toBe('sorted');
    expect(got).toBe(ALL);
    // Not paused for the unsorted run (which would have taken 20 s).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a sorted run short of a third of its page by then is paused for the unsorted one', async () => {
    const { got, outcome } = await search(
      { SORTED_FIRST: '5', SORTED_WAIT_MS: '20000', UNSORTED_WAIT_MS: '600' },
      { pauseSortedAfterMs: 400, pageLines: 18 },
    );
    expect(outcome.used).toBe('unsorted');
    expect(got).toBe(ALL);
  });

  test('the unsorted output alone, put in path order, when the sorted run has given nothing yet', async () => {
    const { got, outcome } = await search(
      { SORTED_FIRST: '0', SORTED_WAIT_MS: '5000', UNSORTED_WAIT_MS: '50' },
      { pauseSortedAfterMs: 0 },
    );
    expect(outcome.used).toBe('unsorted');
    expect(got).toBe(ALL);
  });

  test('arguments without --sort are one run: no second one is started', async () => {
    const log = path.join(dir, 'log-unsorted-only');
    Object.assign(process.env, {
      LOG: log,
      SORTED_FIRST: '0',
      SORTED_WAIT_MS: '0',
      UNSORTED_WAIT_MS: '300',
      UNSORTED_PAD: '0',
    });
    let got = '';
    const outcome = await searchInPathOrder(['--null', 'hit'], {
      rg,
      cwd: dir,
      pauseSortedAfterMs: 0,
      onChunks: (bytes) => {
        got += bytes.toString();
        return false;
      },
    });
    expect(outcome.used).toBe('sorted');
    expect(got.split('\n')).toHaveLength(19);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  test('an abort kills both runs and rejects with its reason', async () => {
    Object.assign(process.env, {
      LOG: path.join(dir, 'log-abort'),
      SORTED_FIRST: '0',
      SORTED_WAIT_MS: '5000',
      UNSORTED_WAIT_MS: '5000',
      UNSORTED_PAD: '0',
    });
    const controller = new AbortController();
    const pids: number[] = [];
    const run = searchInPathOrder(['--sort', 'path', 'hit'], {
      rg,
      cwd: dir,
      signal: controller.signal,
      onChunks: () => false,
      pauseSortedAfterMs: 1000,
    });
    // Aborted once both stand-ins are running (each logs its pid as it starts).
    const { readFileSync } = await import('node:fs');
    const started = () =>
      readFileSync(path.join(dir, 'log-abort'), { encoding: 'utf8', flag: 'a+' }).trim().split('\n').length === 2;
    while (!started()) await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('user pressed Esc'));
    await expect(run).rejects.toThrow('user pressed Esc');
    await new Promise((r) => setTimeout(r, 50));
    const { readFile } = await import('node:fs/promises');
    for (const line of (await readFile(path.join(dir, 'log-abort'), 'utf8')).trim().split('\n'))
      pids.push(Number(line.split(' ')[1]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
