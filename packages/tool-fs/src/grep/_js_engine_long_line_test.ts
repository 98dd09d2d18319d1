import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsSearch } from './_js_engine.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

// One line of letters: `\w{1,850}\d` steps all of its 1 700 RE2 instructions on every character
// there, about a minute a megabyte; this line alone keeps a thread busy for seconds.
const PATHOLOGICAL = '\\w{1,850}\\d';
const LINE_CHARS = 200_000;

describe('jsSearch on one long line a pattern is slow on', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-jsgrep-long-'));
    await writeFile(path.join(dir, 'bundle.min.js'), `${'a'.repeat(LINE_CHARS)}\n`);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const query = (mode: GrepQuery['mode'] = 'files_with_matches'): GrepQuery => ({
    pattern: PATHOLOGICAL,
    dir,
    file: 'bundle.min.js',
    mode,
    before: 0,
    after: 0,
    ignoreCase: false,
    multiline: false,
    globs: [],
  });
  const sink = (): GrepSink => ({ file() {}, count() {}, line() {}, full: false });

  /** Runs `search` with a 10 ms interval timer beside it: the longest wait between two ticks. */
  async function longestTimerGap(search: () => Promise<unknown>): Promise<{ gap: number; ticks: number }> {
    let last = performance.now();
    let gap = 0;
    let ticks = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
      ticks++;
    }, 10);
    try {
      await search();
    } finally {
      clearInterval(tick);
    }
    return { gap, ticks };
  }

  test('timers keep firing while the line is matched, and an abort stops the search within a second', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const abortLater = setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, 600);
    let stoppedAt = 0;
    const { gap, ticks } = await longestTimerGap(async () => {
      await expect(jsSearch(query(), sink(), { signal: controller.signal })).rejects.toThrow(/abort/i);
      stoppedAt = performance.now();
    });
    clearTimeout(abortLater);
    expect(abortedAt).toBeGreaterThan(0);
    // Generous margins for a loaded machine: without the worker the abort fires after the line
    // is done (seconds), and the timer waits as long.
    expect(stoppedAt - abortedAt).toBeLessThan(1000);
    expect(gap).toBeLessThan(300);
    expect(ticks).toBeGreaterThan(10);
  });

  test('a line still being matched after the budget ends the search with what to do', async () => {
    const started = performance.now();
    const error = await jsSearch(query('content'), sink(), { budgetMs: 300 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error?.message).toContain('bundle.min.js');
    expect(error?.message).toContain(JSON.stringify(PATHOLOGICAL));
    expect(error?.message).toContain(`a line of ${LINE_CHARS} characters`);
    expect(error?.message).toMatch(/0\.3 s/);
    // The search was of that file alone: no glob to leave it out of.
    expect(error?.message).toMatch(/Search other files, simplify the pattern/);
    expect(error?.message).toMatch(/install ripgrep/);
  });

  test('with multiline, a long file still being matched after the budget ends the search naming it', async () => {
    const error = await jsSearch({ ...query('count'), multiline: true }, sink(), { budgetMs: 300 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(
      `the whole of ${path.join(dir, 'bundle.min.js')} (${LINE_CHARS + 1} characters, multiline)`,
    );
  });

  test('an abort before the search reaches the line stops it without matching', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(jsSearch(query(), sink(), { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
