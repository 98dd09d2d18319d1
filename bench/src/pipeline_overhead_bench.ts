import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { z } from 'zod';
import {
  buildTool,
  contentToText,
  createSession,
  type Session,
  type ToolCallOptions,
  type ToolContext,
  type ToolUseBlock,
} from '@toolshed/core';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { batched, rowOf, taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode pipelineOverheadSuite}. */
export interface PipelineOverheadParams {
  /** Measuring time per task, in milliseconds. */
  timeMs: number;
  /** Minimum measured iterations per task. */
  iterations: number;
  /** Warm-up time per task, in milliseconds (0 with `warmupIterations` 0 turns warm-up off). */
  warmupMs: number;
  /** Minimum warm-up iterations per task. */
  warmupIterations: number;
  /** Calls per iteration; each sample is the mean of a batch (see `batched`). */
  batch: number;
}

const TASK_DIRECT = 'direct tool.call';
const TASK_PIPELINE = 'session.run, 1 block';
const TASK_ALLOW = 'session.run + allow rule';
const TASK_HOOK = 'session.run + PreToolUse hook + allow rule';

const noopInput = z.object({ text: z.string().describe('Any text; it is returned as is') });

/** A tool that does nothing but return its text: all that remains is the cost of getting there. */
const noopTool = buildTool({
  name: 'Noop',
  description: 'Returns its text. Used to measure what the pipeline costs around a call.',
  inputSchema: noopInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ text }) {
    return { data: text };
  },
});

/**
 * Pipeline overhead: a no-op tool called through `session.run([block])` against calling its
 * `call` directly, in the same run; then with an allow rule, and with an in-process
 * PreToolUse function hook plus the allow rule, to show what each of those adds per call.
 *
 * @example
 * ```ts
 * const { results, summary } = await pipelineOverheadSuite.run({ quick: true });
 * summary.overheadUsPerCall; // microseconds the seven steps add to one call
 * ```
 */
export const pipelineOverheadSuite: BenchSuite<PipelineOverheadParams> = {
  name: 'pipeline_overhead',
  description:
    'What the seven-step pipeline (session.run of one block) costs per call over calling a no-op tool directly, and what a PreToolUse function hook and an allow rule add.',
  defaults: {
    full: { timeMs: 1500, iterations: 64, warmupMs: 250, warmupIterations: 16, batch: 64 },
    quick: { timeMs: 300, iterations: 16, warmupMs: 50, warmupIterations: 4, batch: 32 },
  },
  run: runPipelineOverhead,
};

async function runPipelineOverhead(options: SuiteRunOptions<PipelineOverheadParams>): Promise<SuiteOutcome> {
  const params = resolveParams(pipelineOverheadSuite, options);
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-pipeline-'));
  let hookCalls = 0;
  const sessions: Session[] = [];
  try {
    let captured: ToolContext | undefined;
    // Only a real session hands out a real context; the probe keeps the direct call honest
    // about what a tool receives, without adding work to the measured no-op.
    const probe = buildTool({
      name: 'CaptureContext',
      description: 'Records the context it is called with.',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      async call(_input, ctx) {
        captured = ctx;
        return { data: 'captured' };
      },
    });
    const plain = await createSession({ cwd: stateDir, stateDir, tools: [noopTool, probe] });
    const allowed = await createSession({
      cwd: stateDir,
      stateDir,
      tools: [noopTool],
      permissions: { allow: ['Noop'] },
    });
    const hooked = await createSession({
      cwd: stateDir,
      stateDir,
      tools: [noopTool],
      permissions: { allow: ['Noop'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Noop',
            hooks: [
              {
                type: 'function',
                name: 'bench-pass-through',
                fn: () => {
                  hookCalls++;
                },
              },
            ],
          },
        ],
      },
    });
    sessions.push(plain, allowed, hooked);

    const failures: string[] = [];
    const [probeResult] = await plain.run([{ type: 'tool_use', id: 'probe', name: 'CaptureContext', input: {} }]);
    if (!captured)
      throw new Error(
        `The context probe did not run: ${probeResult ? contentToText(probeResult.content) : 'no result'}`,
      );
    const ctx: ToolContext = captured;
    const callOptions: ToolCallOptions = { onProgress: () => {}, signal: new AbortController().signal };
    const input = { text: 'ok' };

    let seq = 0;
    const block = (): ToolUseBlock => ({ type: 'tool_use', id: `toolu_${++seq}`, name: 'Noop', input });
    // Each path is checked once before it is timed: a denied or failing call is fast too,
    // and would make the figures meaningless.
    for (const [label, session] of [
      [TASK_PIPELINE, plain],
      [TASK_ALLOW, allowed],
      [TASK_HOOK, hooked],
    ] as const) {
      const [result] = await session.run([block()]);
      if (!result || result.is_error || contentToText(result.content) !== 'ok') {
        failures.push(
          `"${label}" did not return the no-op's output: ${result ? contentToText(result.content) : 'no result'}`,
        );
      }
    }
    if (hookCalls !== 1)
      failures.push(`The PreToolUse function hook ran ${hookCalls} times for one call, expected once`);
    if (failures.length) return { results: [], summary: {}, failures };

    const bench = new Bench({
      name: pipelineOverheadSuite.name,
      time: params.timeMs,
      iterations: params.iterations,
      warmup: params.warmupMs > 0 || params.warmupIterations > 0,
      warmupTime: params.warmupMs,
      warmupIterations: params.warmupIterations,
      throws: true,
    });
    const n = params.batch;
    bench
      .add(
        TASK_DIRECT,
        batched(n, () => noopTool.call(input, ctx, callOptions)),
        { async: true },
      )
      .add(
        TASK_PIPELINE,
        batched(n, () => plain.run([block()])),
        { async: true },
      )
      .add(
        TASK_ALLOW,
        batched(n, () => allowed.run([block()])),
        { async: true },
      )
      .add(
        TASK_HOOK,
        batched(n, () => hooked.run([block()])),
        { async: true },
      );
    const hookCallsBefore = hookCalls;
    const rows = (await bench.run()).map((task) => taskRow(task, n));
    if (hookCalls === hookCallsBefore)
      failures.push('The PreToolUse function hook never ran while the hook variant was measured');

    return { results: rows, summary: summarize(rows), failures };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await rm(stateDir, { recursive: true, force: true });
  }
}

function summarize(rows: readonly ResultRow[]): Record<string, unknown> {
  const row = (task: string): ResultRow => rowOf(rows, task);
  const [direct, pipeline, allow, hook] = [row(TASK_DIRECT), row(TASK_PIPELINE), row(TASK_ALLOW), row(TASK_HOOK)];
  const us = (ms: number) => round(ms * 1000, 3);
  return {
    directOpsPerSec: Math.round(direct.opsPerSec),
    pipelineOpsPerSec: Math.round(pipeline.opsPerSec),
    directMeanUs: us(direct.meanMs),
    pipelineMeanUs: us(pipeline.meanMs),
    // How many times slower one call through `session.run` is than the bare `call`.
    overheadFactor: round(pipeline.meanMs / direct.meanMs, 1),
    // What the pipeline adds to every call.
    overheadUsPerCall: us(pipeline.meanMs - direct.meanMs),
    allowRuleMeanUs: us(allow.meanMs),
    // Negative when the rule decides sooner than the default read-only passthrough does.
    allowRuleCostUs: us(allow.meanMs - pipeline.meanMs),
    hookAndRuleMeanUs: us(hook.meanMs),
    hookAndRuleOverheadFactor: round(hook.meanMs / direct.meanMs, 1),
    // What the function hook adds on top of the allow rule.
    hookCostUs: us(hook.meanMs - allow.meanMs),
    // What the hook and the rule together add to the plain pipeline.
    hookAndRuleCostUs: us(hook.meanMs - pipeline.meanMs),
    // The same differences from medians, which garbage-collection pauses sway less than means.
    p50: {
      overheadUsPerCall: us(pipeline.p50Ms - direct.p50Ms),
      allowRuleCostUs: us(allow.p50Ms - pipeline.p50Ms),
      hookCostUs: us(hook.p50Ms - allow.p50Ms),
      hookAndRuleCostUs: us(hook.p50Ms - pipeline.p50Ms),
    },
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
