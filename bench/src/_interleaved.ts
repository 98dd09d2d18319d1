import type { ResultRow } from './_suite.ts';

/** One task of {@linkcode measureInterleaved}. */
export interface InterleavedTask {
  name: string;
  /** The timed operation. */
  run: () => Promise<unknown>;
  /** Untimed preparation before each run (say, removing the file a Write creates). */
  before?: () => Promise<unknown>;
}

/**
 * Times tasks in turns: round after round, each task once, so that a baseline and what it is
 * compared with see the same load on a shared machine (a ratio of two runs minutes apart moves
 * with whatever else ran meanwhile). Rows carry the mean, median and 99th percentile.
 *
 * @param tasks The tasks; the first is usually the baseline.
 * @param rounds How many times each task runs (after one untimed warm-up round).
 * @returns One row per task, in order.
 *
 * @example
 * ```ts
 * const [base, edit] = await measureInterleaved([{ name: 'writeFile', run: write }, { name: 'Write', run: viaTool }], 9);
 * edit.p50Ms / base.p50Ms;
 * ```
 */
export async function measureInterleaved(tasks: readonly InterleavedTask[], rounds: number): Promise<ResultRow[]> {
  const times = await timeInterleaved(tasks, rounds);
  return tasks.map((task, t) => rowFrom(task.name, times[t]!));
}

/**
 * The durations behind {@linkcode measureInterleaved}: per task, one per round, in milliseconds
 * (for a suite that pools the rounds of several runs before making rows).
 *
 * @param tasks The tasks.
 * @param rounds How many times each task runs (after one untimed warm-up round).
 * @returns Per task, its durations in round order.
 *
 * @example
 * ```ts
 * const [base, bridge] = await timeInterleaved([{ name: 'SDK', run: direct }, { name: 'bridge', run: bridged }], 60);
 * ```
 */
export async function timeInterleaved(tasks: readonly InterleavedTask[], rounds: number): Promise<number[][]> {
  const times: number[][] = tasks.map(() => []);
  for (let round = -1; round < rounds; round++) {
    for (let t = 0; t < tasks.length; t++) {
      const task = tasks[t]!;
      await task.before?.();
      const start = performance.now();
      await task.run();
      const elapsed = performance.now() - start;
      if (round >= 0) times[t]!.push(elapsed);
    }
  }
  return times;
}

/** The fastest run behind a row made here: what a gate compares, being what load moves least. */
export const bestMs = new WeakMap<ResultRow, number>();

/**
 * The ratio of two rows' fastest runs (see {@linkcode bestMs}), or of their medians for rows
 * made elsewhere.
 *
 * @param row The measured row.
 * @param base Its baseline.
 * @returns The ratio.
 *
 * @example
 * ```ts
 * gate('Write over writeFile', bestRatio(write, writeFile), 1.5, failures);
 * ```
 */
export function bestRatio(row: ResultRow, base: ResultRow): number {
  return (bestMs.get(row) ?? row.p50Ms) / (bestMs.get(base) ?? base.p50Ms);
}

/**
 * A result row from raw durations.
 *
 * @param task The task's name.
 * @param durations Milliseconds, one per operation.
 * @returns The row (`rmePercent` from the standard error of the mean).
 *
 * @example
 * ```ts
 * rowFrom('Grep', [12.1, 11.8, 12.4]).p50Ms; // 12.1
 * ```
 */
export function rowFrom(task: string, durations: readonly number[]): ResultRow {
  const sorted = [...durations].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(sorted.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, n - 1));
  const at = (q: number) => sorted[Math.min(n - 1, Math.floor(q * (n - 1) + 0.5))]!;
  const row: ResultRow = {
    task,
    opsPerSec: mean > 0 ? 1000 / mean : 0,
    meanMs: mean,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    rmePercent: mean > 0 ? ((1.96 * sd) / Math.sqrt(n) / mean) * 100 : 0,
    samples: n,
    opsPerSample: 1,
  };
  bestMs.set(row, sorted[0]!);
  return row;
}

/**
 * The check a quick run in CI makes: a ratio fails only far past its goal, so that load on a
 * shared machine does not fail CI while a regression of the worst kind still does. Suites gate
 * on the ratio of the fastest runs ({@linkcode bestRatio}) and report the ratio of medians.
 *
 * @param label What the ratio is.
 * @param ratio The measured ratio.
 * @param goal The goal (the figure).
 * @param failures Where a failure is added.
 * @param slack How far past the goal fails. @default 3
 *
 * @example
 * ```ts
 * gate('Edit of 20 MB over read+replace+write', 1.3, 1.5, failures);
 * ```
 */
export function gate(label: string, ratio: number, goal: number, failures: string[], slack = 3): void {
  if (!(ratio <= goal * slack)) failures.push(`${label}: ${ratio.toFixed(2)}, past ${slack}× its goal of ${goal}`);
}
