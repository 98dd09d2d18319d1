import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** One measured task of a suite: what a row of its table and its JSON `results` hold. */
export interface ResultRow {
  /** The task, as printed in the table. */
  task: string;
  /** Operations per second, `1000 / meanMs`, so it agrees with the mean latency. */
  opsPerSec: number;
  /** Mean latency of one operation, in milliseconds. */
  meanMs: number;
  /** Median latency, in milliseconds. */
  p50Ms: number;
  /** 99th percentile latency, in milliseconds. */
  p99Ms: number;
  /** Relative margin of error of the mean (95 %), in percent. */
  rmePercent: number;
  /** How many samples the statistics are made from. */
  samples: number;
  /** Operations each sample averages over (batched timing of very short calls). */
  opsPerSample: number;
}

/** What a suite's `run` takes. */
export interface SuiteRunOptions<Params> {
  /** Quick mode: smaller sizes and shorter timings, for a check rather than a figure. */
  quick: boolean;
  /** Overrides of the suite's sizes and timings (tests pass even smaller ones). */
  params?: Partial<Params>;
}

/** What a suite's `run` gives back. */
export interface SuiteOutcome {
  /** One row per measured task. */
  results: ResultRow[];
  /** The suite's answer to its question: ratios, speed-ups, checks. */
  summary: Record<string, unknown>;
  /** Checks that failed; any entry makes the bench exit 1. */
  failures: string[];
}

/**
 * A benchmark suite: one question (CONVENTIONS.md rule 10), answered against a baseline in
 * the same run.
 */
export interface BenchSuite<Params = Record<string, unknown>> {
  /** The name given on the command line and used for `results/<name>.json`. */
  readonly name: string;
  /** One sentence: what the suite measures. */
  readonly description: string;
  /** The sizes and timings of a full run and of a quick run. */
  readonly defaults: { readonly full: Params; readonly quick: Params };
  /** Runs the suite. */
  run(options: SuiteRunOptions<Params>): Promise<SuiteOutcome>;
}

/** What `results/<suite>.json` holds. */
export interface SuiteRecord extends SuiteOutcome {
  suite: string;
  description: string;
  /** When the run finished, ISO 8601. */
  date: string;
  /** `process.version` of the run. */
  nodeVersion: string;
  platform: string;
  cpu: string;
  quick: boolean;
  /** The sizes and timings used. */
  params: Record<string, unknown>;
}

/**
 * Merges a suite's defaults for the mode with the caller's overrides.
 *
 * @param suite The suite.
 * @param options The run options.
 * @returns The parameters to run with.
 *
 * @example
 * ```ts
 * const params = resolveParams(parallelSchedulingSuite, { quick: true, params: { calls: 3 } });
 * ```
 */
export function resolveParams<Params>(
  suite: Pick<BenchSuite<Params>, 'defaults'>,
  options: SuiteRunOptions<Params>,
): Params {
  const base = options.quick ? suite.defaults.quick : suite.defaults.full;
  const merged = { ...base };
  for (const [key, value] of Object.entries(options.params ?? {})) {
    // An explicit `undefined` keeps the default rather than erasing it.
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * Builds the record of one suite run, with the facts about the machine that make its
 * figures comparable.
 *
 * @param suite The suite that ran.
 * @param outcome What it returned.
 * @param options Whether it was a quick run, and the parameters it ran with.
 * @returns The record to write.
 *
 * @example
 * ```ts
 * const record = suiteRecord(suite, await suite.run({ quick: true }), { quick: true, params: suite.defaults.quick });
 * ```
 */
export function suiteRecord(
  suite: Pick<BenchSuite<unknown>, 'name' | 'description'>,
  outcome: SuiteOutcome,
  options: { quick: boolean; params: unknown },
): SuiteRecord {
  return {
    suite: suite.name,
    description: suite.description,
    date: new Date().toISOString(),
    nodeVersion: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: `${os.cpus()[0]?.model.trim() ?? 'unknown'} x${os.cpus().length}`,
    quick: options.quick,
    params: { ...(options.params as Record<string, unknown>) },
    results: outcome.results,
    summary: outcome.summary,
    failures: outcome.failures,
  };
}

/**
 * Writes a record to `<dir>/<suite>.json`, atomically (temp file + rename), so a chart
 * reading the folder never sees half a file.
 *
 * @param dir The results folder; created if missing.
 * @param record The record.
 * @returns The path written.
 * @throws {Error} If the folder cannot be created or the file written (the message names the path).
 *
 * @example
 * ```ts
 * const file = await writeSuiteRecord('bench/results', record); // bench/results/pipeline_overhead.json
 * ```
 */
export async function writeSuiteRecord(dir: string, record: SuiteRecord): Promise<string> {
  const file = path.join(dir, `${record.suite}.json`);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
    await rename(temp, file);
  } catch (e) {
    throw new Error(`Could not write the results of suite "${record.suite}" to "${file}": ${(e as Error).message}`, {
      cause: e,
    });
  }
  return file;
}
