import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { leaseMatchWorker, MatchBudgetError, matchWorkerStats, stopWarmMatchWorker } from './_match_workers.ts';
import { compilePattern } from './_pattern.ts';

// `\w{1,850}\d` over a line of letters: seconds of work per hundred thousand characters.
const SLOW = { pattern: '\\w{1,850}\\d', ignoreCase: false, multiline: false };
const QUICK = { pattern: 'foo\\d+', ignoreCase: false, multiline: false };
const LETTERS = 'a'.repeat(200_000);

/** Waits until `alive` workers are left (a terminated thread exits a moment later). */
async function untilAlive(alive: number): Promise<number> {
  for (let i = 0; i < 100 && matchWorkerStats().alive > alive; i++) await new Promise((r) => setTimeout(r, 20));
  return matchWorkerStats().alive;
}

describe('match workers', () => {
  afterEach(async () => {
    await stopWarmMatchWorker();
  });

  test('a worker given back is kept warm: the next search uses it without starting one', async () => {
    await stopWarmMatchWorker();
    const first = leaseMatchWorker();
    expect(await first.run(QUICK, { op: 'lines', text: 'a\nfoo1\nb\nfoo22', first: false })).toEqual([1, 3]);
    first.release();
    const started = matchWorkerStats().started;
    const second = leaseMatchWorker();
    expect(await second.run(QUICK, { op: 'test', text: 'no match here' })).toBe(false);
    second.release();
    expect(matchWorkerStats().started).toBe(started);
  });

  test('a lease that never runs anything starts no worker', () => {
    const started = matchWorkerStats().started;
    leaseMatchWorker().release();
    expect(matchWorkerStats().started).toBe(started);
  });

  test('searches at once get a worker each: one stuck in a long line holds up no other', async () => {
    const controller = new AbortController();
    const stuck = leaseMatchWorker();
    const other = leaseMatchWorker();
    const alive = matchWorkerStats().alive;
    const slow = stuck.run(SLOW, { op: 'test', text: LETTERS }, { signal: controller.signal });
    try {
      expect(await other.run(QUICK, { op: 'test', text: 'x foo1' })).toBe(true);
    } finally {
      controller.abort();
      other.release();
      stuck.release();
    }
    await expect(slow).rejects.toThrow(/abort/i);
    // The aborted worker is terminated, not kept warm; the other one is.
    expect(await untilAlive(alive + 1)).toBe(alive + 1);
  });

  test('an abort terminates the worker at once and rejects with the signal’s reason', async () => {
    const lease = leaseMatchWorker();
    await lease.run(QUICK, { op: 'test', text: 'warm up' });
    const alive = matchWorkerStats().alive;
    const controller = new AbortController();
    const running = lease.run(SLOW, { op: 'test', text: LETTERS }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('the user pressed Esc')), 100);
    const started = performance.now();
    await expect(running).rejects.toThrow('the user pressed Esc');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await untilAlive(alive - 1)).toBe(alive - 1);
    // The lease starts a new worker for its next piece.
    expect(await lease.run(QUICK, { op: 'test', text: 'foo2' })).toBe(true);
    lease.release();
  });

  test('a piece past its budget rejects with MatchBudgetError and its worker is terminated', async () => {
    const lease = leaseMatchWorker();
    await lease.run(QUICK, { op: 'test', text: 'warm up' });
    const alive = matchWorkerStats().alive;
    const error = await lease.run(SLOW, { op: 'test', text: LETTERS }, { budgetMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MatchBudgetError);
    expect((error as MatchBudgetError).budgetMs).toBe(200);
    expect(await untilAlive(alive - 1)).toBe(alive - 1);
    lease.release();
  });

  test.each([
    ['JavaScript', 'not_there.js'],
    ['TypeScript, run from sources', 'not_there.ts'],
  ])(
    'a worker whose program (%s) is missing: the piece is answered on the calling thread when it may be',
    async (_, file) => {
      const program = new URL(`./${file}`, import.meta.url);
      const inThread = await compilePattern(QUICK);
      const lease = leaseMatchWorker({ program });
      expect(await lease.run(QUICK, { op: 'lines', text: 'a\nfoo1', first: false }, { inThread })).toEqual([1]);
      lease.release();
      const strict = leaseMatchWorker({ program });
      await expect(strict.run(QUICK, { op: 'test', text: 'foo1' })).rejects.toThrow(
        /Grep's match worker failed: .*not_there/,
      );
      strict.release();
      // The default program still works for every other search.
      const ordinary = leaseMatchWorker();
      expect(await ordinary.run(QUICK, { op: 'test', text: 'foo1' })).toBe(true);
      ordinary.release();
    },
  );

  test('an already aborted signal sends nothing', async () => {
    const lease = leaseMatchWorker();
    const jobs = matchWorkerStats().jobs;
    await expect(
      lease.run(QUICK, { op: 'test', text: 'foo1' }, { signal: AbortSignal.abort(new Error('gone')) }),
    ).rejects.toThrow('gone');
    expect(matchWorkerStats().jobs).toBe(jobs);
    lease.release();
  });
});

describe('a process whose Grep used a match worker', () => {
  test('exits by itself: no worker thread is left holding it, warm or aborted', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-match-exit-'));
    try {
      const script = path.join(dir, 'search.mts');
      await writeFile(path.join(dir, 'bundle.min.js'), `${'a'.repeat(200_000)}\nfoo1\n`);
      await writeFile(
        script,
        [
          `import { jsSearch } from ${JSON.stringify(path.join(import.meta.dirname, '_js_engine.ts'))};`,
          `const query = { pattern: 'foo\\\\d', dir: ${JSON.stringify(dir)}, file: 'bundle.min.js', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] };`,
          'let count = 0;',
          'const sink = { file() {}, line() {}, count(_r, n) { count = n; }, full: false };',
          // A search stuck in the long line, aborted.
          'const controller = new AbortController();',
          'setTimeout(() => controller.abort(), 300);',
          "await jsSearch({ ...query, pattern: '\\\\w{1,850}\\\\d' }, sink, { signal: controller.signal }).catch((e) => console.log(`stopped: ${e.name}`));",
          // Through the worker (the long line), which is then kept warm.
          'await jsSearch(query, sink);',
          'console.log(`count ${count}`);',
        ].join('\n'),
      );
      const started = performance.now();
      const out = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', script],
          { cwd: import.meta.dirname, timeout: 15_000 },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        );
      });
      expect(out).toBe('stopped: AbortError\ncount 1\n');
      // Well before the warm worker's 30 s idle end: nothing held the process.
      expect(performance.now() - started).toBeLessThan(14_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
