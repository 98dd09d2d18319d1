import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolResultBlock, ToolUseBlock } from '@toolshed/core';
import { suiteRecord, writeSuiteRecord, type SuiteRecord } from './_suite.ts';
import { parseBenchArgs } from './main.ts';
import {
  orderingProblems,
  parallelSchedulingSuite,
  type ParallelSchedulingParams,
} from './parallel_scheduling_bench.ts';
import { pipelineOverheadSuite, type PipelineOverheadParams } from './pipeline_overhead_bench.ts';
import { runSuites } from './run_suites.ts';
import { SUITES } from './suites.ts';

const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Smaller than quick mode: these runs check the shape and the ordering, not the figures.
const TINY_PIPELINE: PipelineOverheadParams = { timeMs: 5, iterations: 4, warmupMs: 0, warmupIterations: 0, batch: 4 };
const TINY_PARALLEL: ParallelSchedulingParams = {
  calls: 3,
  latencyMs: 10,
  boundedConcurrency: 2,
  iterations: 2,
  warmupIterations: 0,
};

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const quiet = { log: () => {}, table: () => {} };

async function readRecord(file: string): Promise<SuiteRecord> {
  return JSON.parse(await readFile(file, 'utf8')) as SuiteRecord;
}

function expectRecordShape(record: SuiteRecord, suite: string, tasks: number): void {
  expect(record).toMatchObject({ suite, quick: true, nodeVersion: process.version, failures: [] });
  expect(Number.isNaN(Date.parse(record.date))).toBe(false);
  expect(record.results).toHaveLength(tasks);
  for (const row of record.results) {
    expect(row).toEqual({
      task: expect.any(String),
      opsPerSec: expect.any(Number),
      meanMs: expect.any(Number),
      p50Ms: expect.any(Number),
      p99Ms: expect.any(Number),
      rmePercent: expect.any(Number),
      samples: expect.any(Number),
      opsPerSample: expect.any(Number),
    });
    expect(row.meanMs).toBeGreaterThan(0);
    expect(row.samples).toBeGreaterThan(0);
  }
}

describe('pipeline_overhead', () => {
  test('pipeline_overhead writes a record with the direct call, the pipeline and both variants, and their ratio', async () => {
    const { files, failures } = await runSuites([pipelineOverheadSuite], {
      quick: true,
      resultsDir: dir,
      params: { pipeline_overhead: { ...TINY_PIPELINE } },
      ...quiet,
    });
    expect(failures).toEqual([]);
    expect(files).toEqual([path.join(dir, 'pipeline_overhead.json')]);
    const record = await readRecord(files[0]!);
    expectRecordShape(record, 'pipeline_overhead', 4);
    expect(record.params).toEqual(TINY_PIPELINE);
    expect(record.results.map((r) => r.task)).toEqual([
      'direct tool.call',
      'session.run, 1 block',
      'session.run + allow rule',
      'session.run + PreToolUse hook + allow rule',
    ]);
    expect(record.results.every((r) => r.opsPerSample === TINY_PIPELINE.batch)).toBe(true);
    const summary = record.summary as Record<string, number>;
    for (const key of [
      'directOpsPerSec',
      'pipelineOpsPerSec',
      'directMeanUs',
      'pipelineMeanUs',
      'overheadFactor',
      'overheadUsPerCall',
      'hookCostUs',
      'hookAndRuleCostUs',
    ]) {
      expect(summary[key], key).toEqual(expect.any(Number));
    }
    expect(summary.overheadFactor).toBeCloseTo(summary.pipelineMeanUs! / summary.directMeanUs!, -1);
  });
});

describe('parallel_scheduling', () => {
  test('parallel_scheduling writes a record whose ordering check held for shuffled delays', async () => {
    const { files, failures } = await runSuites([parallelSchedulingSuite], {
      quick: true,
      resultsDir: dir,
      params: { parallel_scheduling: { ...TINY_PARALLEL } },
      ...quiet,
    });
    expect(failures).toEqual([]);
    const record = await readRecord(files[0]!);
    expectRecordShape(record, 'parallel_scheduling', 3);
    const summary = record.summary as {
      orderingPreserved: boolean;
      idealSpeedup: number;
      speedup: number;
      boundedIdealSpeedup: number;
      ordering: Record<
        'unbounded' | 'bounded',
        {
          preserved: boolean;
          delaysMs: number[];
          resultOrder: string[];
          completionOrder: string[];
          completionOrderDiffered: boolean;
        }
      >;
    };
    expect(summary.orderingPreserved).toBe(true);
    expect(summary.idealSpeedup).toBe(3);
    expect(summary.boundedIdealSpeedup).toBe(1.5);
    expect(summary.speedup).toEqual(expect.any(Number));
    for (const variant of ['unbounded', 'bounded'] as const) {
      const check = summary.ordering[variant];
      expect(check.preserved).toBe(true);
      expect(check.resultOrder).toEqual(['order_0', 'order_1', 'order_2']);
      expect([...check.completionOrder].sort()).toEqual(['order_0', 'order_1', 'order_2']);
      expect(new Set(check.delaysMs).size).toBe(3);
    }
    // The delays are shuffled so that, unbounded, the calls finish out of block order: the
    // order of the results is then the session's doing, not the timers'.
    expect(summary.ordering.unbounded.completionOrderDiffered).toBe(true);
  });

  test('parallel_scheduling refuses fewer than two calls per turn', async () => {
    await expect(parallelSchedulingSuite.run({ quick: true, params: { ...TINY_PARALLEL, calls: 1 } })).rejects.toThrow(
      /at least 2 calls per turn, got 1/,
    );
  });

  test("orderingProblems reports results that come back out of block order or with another call's output", () => {
    const blocks: ToolUseBlock[] = [3, 1, 2].map((ms, i) => ({
      type: 'tool_use',
      id: `b${i}`,
      name: 'Delay',
      input: { ms },
    }));
    const result = (id: string, text: string): ToolResultBlock => ({
      type: 'tool_result',
      tool_use_id: id,
      content: text,
    });
    const inOrder = blocks.map((b) => result(b.id, `${b.id} waited ${(b.input as { ms: number }).ms} ms`));
    expect(orderingProblems(blocks, inOrder)).toEqual([]);
    expect(orderingProblems(blocks, [...inOrder].reverse())[0]).toBe(
      'results came back as [b2, b1, b0], expected block order [b0, b1, b2]',
    );
    const swapped = [inOrder[0]!, { ...inOrder[1]!, content: 'b2 waited 2 ms' }, inOrder[2]!];
    expect(orderingProblems(blocks, swapped)).toEqual(['result 1 is "b2 waited 2 ms", expected "b1 waited 1 ms"']);
    expect(orderingProblems(blocks, [inOrder[0]!, { ...inOrder[1]!, is_error: true }, inOrder[2]!])).toHaveLength(1);
  });
});

describe('command line', () => {
  test('parseBenchArgs runs every suite when none is named, and skips the `--` pnpm passes on', () => {
    expect(parseBenchArgs([])).toEqual({ quick: false, help: false, suites: [...SUITES] });
    expect(parseBenchArgs(['--', '--quick'])).toEqual({ quick: true, help: false, suites: [...SUITES] });
  });

  test('parseBenchArgs takes suites by name or file name, each once, in the order given', () => {
    const args = parseBenchArgs(['parallel_scheduling', 'pipeline_overhead_bench', 'parallel_scheduling', '--quick']);
    expect(args.suites.map((s) => s.name)).toEqual(['parallel_scheduling', 'pipeline_overhead']);
    expect(args.quick).toBe(true);
  });

  test('parseBenchArgs rejects an unknown suite and lists the suites there are', () => {
    expect(() => parseBenchArgs(['pipeline'])).toThrow(RangeError);
    expect(() => parseBenchArgs(['pipeline'])).toThrow(
      /Unknown suite "pipeline"\.\nSuites:\n {2}pipeline_overhead .*\n {2}parallel_scheduling /,
    );
    expect(() => parseBenchArgs(['--fast'])).toThrow(/Unknown option "--fast"/);
  });

  test('the bench exits 2 and lists the suites for an unknown suite name', async () => {
    const tsx = path.join(BENCH_DIR, 'node_modules', '.bin', 'tsx');
    // `@toolshed/source` resolves core to its source, as vitest does, so no build is needed.
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          tsx,
          ['--conditions=@toolshed/source', 'src/main.ts', 'no_such_suite', '--quick'],
          { cwd: BENCH_DIR, timeout: 15_000 },
          (_error, stdout, stderr) => {
            resolve({ code: child.exitCode, stdout, stderr });
          },
        );
      },
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('Unknown suite "no_such_suite".');
    for (const suite of SUITES) expect(stderr).toContain(`  ${suite.name}`);
  });
});

describe('writeSuiteRecord', () => {
  test('writeSuiteRecord writes <suite>.json and leaves no temp file', async () => {
    const record = suiteRecord(
      { name: 'demo', description: 'A demo.' },
      { results: [], summary: { x: 1 }, failures: [] },
      { quick: true, params: { n: 1 } },
    );
    const file = await writeSuiteRecord(path.join(dir, 'nested', 'results'), record);
    expect(file).toBe(path.join(dir, 'nested', 'results', 'demo.json'));
    expect(await readRecord(file)).toEqual(record);
    expect(await readdir(path.dirname(file))).toEqual(['demo.json']);
  });

  test('writeSuiteRecord names the file it could not write', async () => {
    const blocker = path.join(dir, 'not-a-dir');
    await writeFile(blocker, 'x');
    const record = suiteRecord(
      { name: 'demo', description: 'A demo.' },
      { results: [], summary: {}, failures: [] },
      { quick: false, params: {} },
    );
    await expect(writeSuiteRecord(blocker, record)).rejects.toThrow(
      `Could not write the results of suite "demo" to "${path.join(blocker, 'demo.json')}"`,
    );
  });
});
