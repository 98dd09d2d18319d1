import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Bench } from 'tinybench';
import { z } from 'zod';
import {
  buildTool,
  contentToText,
  createSession,
  type Session,
  type ToolResultBlock,
  type ToolUseBlock,
} from '@toolshed/core';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { rowOf, taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode parallelSchedulingSuite}. */
export interface ParallelSchedulingParams {
  /** Calls per turn, at least 2. */
  calls: number;
  /** How long each call waits, in milliseconds. */
  latencyMs: number;
  /** The bound of the concurrency-bound variant (the session's `concurrency`). */
  boundedConcurrency: number;
  /** Measured turns per task. */
  iterations: number;
  /** Warm-up turns per task (0: none). */
  warmupIterations: number;
}

const TASK_SERIAL = 'serial: N session.run of 1 block';
const TASK_PARALLEL = 'parallel: 1 session.run of N blocks';
const TASK_BOUNDED = 'bounded: 1 session.run of N blocks, concurrency';

/** A tool that waits: fixed latency without CPU work, like a network call. */
function delayTool(onDone: (toolUseId: string) => void) {
  return buildTool({
    name: 'Delay',
    description: 'Waits the given number of milliseconds, then says so.',
    inputSchema: z.object({ ms: z.number().int().min(0).describe('Milliseconds to wait') }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call({ ms }, ctx, { signal }) {
      await sleep(ms, undefined, { signal });
      onDone(ctx.toolUseId);
      // The id in the output ties each result to the call that made it, not only to a slot.
      return { data: `${ctx.toolUseId} waited ${ms} ms` };
    },
  });
}

/**
 * Parallel scheduling: N concurrency-safe calls of fixed latency in one `session.run` of N
 * blocks against the same N calls one `session.run` after another, and a variant bounded to
 * `concurrency: 2`; plus a check that results come back in block order when the calls finish
 * in a different order (the suite fails when they do not).
 *
 * @example
 * ```ts
 * const { summary, failures } = await parallelSchedulingSuite.run({ quick: true });
 * summary.speedup; // ≈ N
 * summary.orderingPreserved; // true
 * ```
 */
export const parallelSchedulingSuite: BenchSuite<ParallelSchedulingParams> = {
  name: 'parallel_scheduling',
  description:
    'Speed-up of one session.run of N concurrency-safe fixed-latency calls over N sequential session.run calls (ideal ≈ N), a concurrency-bound variant, and whether results keep block order when calls finish out of order.',
  defaults: {
    full: { calls: 10, latencyMs: 50, boundedConcurrency: 2, iterations: 20, warmupIterations: 2 },
    quick: { calls: 5, latencyMs: 20, boundedConcurrency: 2, iterations: 5, warmupIterations: 1 },
  },
  run: runParallelScheduling,
};

async function runParallelScheduling(options: SuiteRunOptions<ParallelSchedulingParams>): Promise<SuiteOutcome> {
  const params = resolveParams(parallelSchedulingSuite, options);
  const { calls, latencyMs, boundedConcurrency } = params;
  if (!Number.isInteger(calls) || calls < 2)
    throw new RangeError(`parallel_scheduling needs at least 2 calls per turn, got ${calls}`);
  if (!Number.isInteger(boundedConcurrency) || boundedConcurrency < 1) {
    throw new RangeError(`parallel_scheduling needs a boundedConcurrency of 1 or more, got ${boundedConcurrency}`);
  }
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-parallel-'));
  const completions: string[] = [];
  const tool = delayTool((id) => completions.push(id));
  const sessions: Session[] = [];
  try {
    // The unbounded session's bound is the call count, so its default of 10 never caps a larger N.
    const free = await createSession({ cwd: stateDir, stateDir, tools: [tool], concurrency: Math.max(10, calls) });
    const bounded = await createSession({ cwd: stateDir, stateDir, tools: [tool], concurrency: boundedConcurrency });
    sessions.push(free, bounded);

    const blocks = Array.from(
      { length: calls },
      (_, i): ToolUseBlock => ({ type: 'tool_use', id: `toolu_${i}`, name: 'Delay', input: { ms: latencyMs } }),
    );

    const failures: string[] = [];
    const ordering = {
      unbounded: await checkOrdering(free, calls, latencyMs, completions),
      bounded: await checkOrdering(bounded, calls, latencyMs, completions),
    };
    for (const [variant, check] of Object.entries(ordering)) {
      failures.push(...check.problems.map((p) => `Ordering (${variant}): ${p}`));
    }

    const bench = new Bench({
      name: parallelSchedulingSuite.name,
      // A turn is tens of milliseconds of waiting: a fixed number of turns, not a time budget.
      time: 0,
      iterations: params.iterations,
      warmup: params.warmupIterations > 0,
      warmupTime: 0,
      warmupIterations: params.warmupIterations,
      throws: true,
    });
    const errors: string[] = [];
    const expectOk = (results: readonly ToolResultBlock[]) => {
      for (const r of results) if (r.is_error && errors.length < 5) errors.push(contentToText(r.content));
    };
    const boundedTask = `${TASK_BOUNDED} ${boundedConcurrency}`;
    bench
      .add(
        TASK_SERIAL,
        async () => {
          for (const block of blocks) expectOk(await free.run([block]));
        },
        { async: true },
      )
      .add(TASK_PARALLEL, async () => expectOk(await free.run(blocks)), { async: true })
      .add(boundedTask, async () => expectOk(await bounded.run(blocks)), { async: true });
    const rows = (await bench.run()).map((task) => taskRow(task));
    if (errors.length) failures.push(`Delay calls failed while measured: ${errors.join(' | ')}`);

    const mean = (task: string) => rowOf(rows, task).meanMs;
    const serial = mean(TASK_SERIAL);
    const parallel = mean(TASK_PARALLEL);
    const boundedMean = mean(boundedTask);
    const boundedIdeal = calls / Math.ceil(calls / boundedConcurrency);
    const summary = {
      calls,
      latencyMs,
      serialMeanMs: round(serial, 2),
      parallelMeanMs: round(parallel, 2),
      // serial mean / parallel mean; ideal ≈ N.
      speedup: round(serial / parallel, 2),
      idealSpeedup: calls,
      efficiency: round(serial / parallel / calls, 3),
      // What one parallel turn takes beyond the latency of one call: scheduling plus timer slack.
      parallelOverheadMs: round(parallel - latencyMs, 2),
      boundedConcurrency,
      boundedMeanMs: round(boundedMean, 2),
      boundedSpeedup: round(serial / boundedMean, 2),
      // N calls in waves of `concurrency`: N / ceil(N / concurrency).
      boundedIdealSpeedup: round(boundedIdeal, 2),
      orderingPreserved: ordering.unbounded.preserved && ordering.bounded.preserved,
      ordering: {
        unbounded: withoutProblems(ordering.unbounded),
        bounded: withoutProblems(ordering.bounded),
      },
    };
    return { results: rows, summary, failures };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await rm(stateDir, { recursive: true, force: true });
  }
}

interface OrderingCheck {
  preserved: boolean;
  /** The delay of each block, in block order. */
  delaysMs: number[];
  /** The tool_use ids in the order the calls finished. */
  completionOrder: string[];
  /** The tool_use ids of the results, in the order returned. */
  resultOrder: string[];
  /** Whether the calls really finished out of block order (else the check proves little). */
  completionOrderDiffered: boolean;
  problems: string[];
}

/**
 * One turn of N calls with distinct, shuffled delays: the calls finish out of block order, and
 * the results must still come back in block order, each carrying its own call's output.
 */
async function checkOrdering(
  session: Session,
  calls: number,
  latencyMs: number,
  completions: string[],
): Promise<OrderingCheck> {
  const delaysMs = shuffledDelays(calls, latencyMs);
  const blocks = delaysMs.map(
    (ms, i): ToolUseBlock => ({ type: 'tool_use', id: `order_${i}`, name: 'Delay', input: { ms } }),
  );
  completions.length = 0;
  const results = await session.run(blocks);
  const completionOrder = [...completions];
  const resultOrder = results.map((r) => r.tool_use_id);
  const problems = orderingProblems(blocks, results);
  return {
    preserved: problems.length === 0,
    delaysMs,
    completionOrder,
    resultOrder,
    completionOrderDiffered: completionOrder.join() !== blocks.map((b) => b.id).join(),
    problems,
  };
}

/**
 * What is wrong with a turn's results given its `Delay` blocks: results out of block order,
 * missing or extra, failed, or carrying another call's output.
 *
 * @param blocks The turn's blocks, each `{ name: 'Delay', input: { ms } }`.
 * @param results What `session.run(blocks)` returned.
 * @returns One sentence per problem; empty when the order held.
 *
 * @example
 * ```ts
 * orderingProblems(blocks, await session.run(blocks)); // []
 * ```
 */
export function orderingProblems(blocks: readonly ToolUseBlock[], results: readonly ToolResultBlock[]): string[] {
  const problems: string[] = [];
  const resultOrder = results.map((r) => r.tool_use_id);
  const expected = blocks.map((b) => b.id);
  if (resultOrder.join() !== expected.join()) {
    problems.push(`results came back as [${resultOrder.join(', ')}], expected block order [${expected.join(', ')}]`);
  }
  results.forEach((r, i) => {
    const block = blocks[i];
    if (!block) return;
    const want = `${block.id} waited ${(block.input as { ms: number }).ms} ms`;
    const got = contentToText(r.content);
    if (r.is_error || got !== want) problems.push(`result ${i} is "${got}", expected "${want}"`);
  });
  return problems;
}

/**
 * N distinct delays spread up to `latencyMs` (at least 1 ms apart), in a fixed shuffled
 * order that is never ascending, so some later block always finishes before an earlier one.
 */
function shuffledDelays(calls: number, latencyMs: number): number[] {
  const step = Math.max(1, Math.round(latencyMs / calls));
  const delays = Array.from({ length: calls }, (_, i) => (i + 1) * step);
  // A fixed seed: the same order every run, so runs compare.
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = delays.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [delays[i], delays[j]] = [delays[j]!, delays[i]!];
  }
  if (delays.every((d, i) => i === 0 || delays[i - 1]! < d)) delays.reverse();
  return delays;
}

function withoutProblems(check: OrderingCheck): Omit<OrderingCheck, 'problems'> {
  const { problems: _problems, ...rest } = check;
  return rest;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
