import type { FnReturnedObject, Task } from 'tinybench';
import type { ResultRow } from './_suite.ts';

/**
 * Wraps an async operation so one tinybench iteration runs it `count` times in a row and
 * reports the mean per call. A direct call of a no-op tool takes well under a microsecond,
 * below what one timer read around one `await` can resolve; averaging a batch gives the
 * same precision to every task compared, so both sides of a ratio are timed alike.
 *
 * @param count Calls per iteration, at least 1.
 * @param operation The operation.
 * @returns A tinybench task function.
 * @throws {RangeError} If `count` is not a positive integer.
 *
 * @example
 * ```ts
 * bench.add('direct', batched(64, () => tool.call(input, ctx, options)), { async: true });
 * ```
 */
export function batched(count: number, operation: () => Promise<unknown>): () => Promise<FnReturnedObject> {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`A batch needs a positive whole number of calls, got ${count}`);
  return async () => {
    const start = performance.now();
    for (let i = 0; i < count; i++) await operation();
    const elapsed = performance.now() - start;
    return { overriddenDuration: elapsed / count, overriddenIterationCost: elapsed };
  };
}

/**
 * The result row of a finished tinybench task.
 *
 * @param task The task, after `bench.run()`.
 * @param opsPerSample How many operations each sample averages over (see {@linkcode batched}).
 * @returns The row.
 * @throws {Error} If the task errored or was aborted without statistics (the message carries the task's error).
 *
 * @example
 * ```ts
 * const rows = (await bench.run()).map((task) => taskRow(task, 64));
 * ```
 */
export function taskRow(task: Task, opsPerSample = 1): ResultRow {
  const result = task.result;
  if (result.state === 'errored')
    throw new Error(`Benchmark task "${task.name}" failed: ${result.error.message}`, { cause: result.error });
  if (result.state !== 'completed' && result.state !== 'aborted-with-statistics') {
    throw new Error(`Benchmark task "${task.name}" has no statistics (state "${result.state}")`);
  }
  const { latency } = result;
  return {
    task: task.name,
    opsPerSec: latency.mean > 0 ? 1000 / latency.mean : 0,
    meanMs: latency.mean,
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    rmePercent: latency.rme,
    samples: latency.samplesCount,
    opsPerSample,
  };
}

/**
 * Rows as printable table records, durations in the unit that suits them.
 *
 * @param rows The rows.
 * @returns Records for `console.table`.
 *
 * @example
 * ```ts
 * console.table(tableOf(outcome.results));
 * ```
 */
export function tableOf(rows: readonly ResultRow[]): Record<string, string | number>[] {
  return rows.map((row) => ({
    task: row.task,
    'ops/s': formatRate(row.opsPerSec),
    mean: formatDuration(row.meanMs),
    p50: formatDuration(row.p50Ms),
    p99: formatDuration(row.p99Ms),
    '±': `${row.rmePercent.toFixed(2)} %`,
    samples: row.samples,
  }));
}

/**
 * A duration in milliseconds as text in ns, µs, ms or s.
 *
 * @param ms The duration in milliseconds.
 * @returns For example `"12.3 µs"`.
 *
 * @example
 * ```ts
 * formatDuration(0.0123); // "12.3 µs"
 * ```
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0.001) return `${(ms * 1e6).toPrecision(3)} ns`;
  if (ms < 1) return `${(ms * 1e3).toPrecision(3)} µs`;
  if (ms < 1000) return `${ms.toPrecision(3)} ms`;
  return `${(ms / 1000).toPrecision(3)} s`;
}

function formatRate(perSecond: number): string {
  return perSecond >= 100 ? Math.round(perSecond).toLocaleString('en-US') : perSecond.toPrecision(3);
}

/**
 * The row of one task, by name; a missing row is a bug in the suite, so it throws.
 *
 * @param rows The suite's rows.
 * @param task The task's name.
 * @returns The row.
 * @throws {Error} When no row has that name.
 *
 * @example
 * ```ts
 * const direct = rowOf(rows, 'direct tool.call').meanMs;
 * ```
 */
export function rowOf(rows: readonly ResultRow[], task: string): ResultRow {
  const row = rows.find((r) => r.task === task);
  if (!row) throw new Error(`Benchmark task "${task}" has no result row`);
  return row;
}
