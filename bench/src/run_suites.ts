import { resolveParams, suiteRecord, writeSuiteRecord, type BenchSuite, type SuiteRecord } from './_suite.ts';
import { tableOf } from './_task_stats.ts';

/** What {@linkcode runSuites} takes. */
export interface RunSuitesOptions {
  /** Quick mode for every suite. @default false */
  quick?: boolean;
  /** Where `<suite>.json` goes. */
  resultsDir: string;
  /** Per-suite parameter overrides, by suite name. @default {} */
  params?: Readonly<Record<string, Record<string, unknown>>>;
  /** Where the tables and progress lines go. @default console.log */
  log?: (...args: unknown[]) => void;
  /** Prints a table of rows. @default console.table */
  table?: (rows: readonly Record<string, unknown>[]) => void;
}

/** What {@linkcode runSuites} gives back. */
export interface RunSuitesResult {
  /** One record per suite, as written. */
  records: SuiteRecord[];
  /** The files written. */
  files: string[];
  /** Every failed check, prefixed by its suite. */
  failures: string[];
}

/**
 * Runs suites one after another (never together: they would time each other), writes each
 * one's JSON and prints its table and summary.
 *
 * @param suites The suites to run.
 * @param options Mode, results folder, overrides, output.
 * @returns The records, the files and the failed checks.
 * @throws {Error} If a suite throws (a broken suite, not a failed check) or its JSON cannot be written.
 *
 * @example
 * ```ts
 * const { failures } = await runSuites(SUITES, { quick: true, resultsDir: 'bench/results' });
 * process.exitCode = failures.length ? 1 : 0;
 * ```
 */
export async function runSuites(
  suites: readonly BenchSuite<object>[],
  options: RunSuitesOptions,
): Promise<RunSuitesResult> {
  const quick = options.quick ?? false;
  const log = options.log ?? console.log;
  const table = options.table ?? ((rows) => console.table(rows));
  const out: RunSuitesResult = { records: [], files: [], failures: [] };
  for (const suite of suites) {
    const overrides = options.params?.[suite.name];
    const runOptions = overrides ? { quick, params: overrides } : { quick };
    const params = resolveParams(suite, runOptions);
    log(`\n▶ ${suite.name}${quick ? ' (quick)' : ''}: ${suite.description}`);
    const started = performance.now();
    const outcome = await suite.run(runOptions);
    const record = suiteRecord(suite, outcome, { quick, params });
    const file = await writeSuiteRecord(options.resultsDir, record);
    if (record.results.length) table(tableOf(record.results));
    log(formatSummary(record.summary));
    for (const failure of record.failures) log(`✗ ${failure}`);
    log(
      `${record.failures.length ? '✗ failed' : '✓ done'} in ${((performance.now() - started) / 1000).toFixed(1)} s → ${file}`,
    );
    out.records.push(record);
    out.files.push(file);
    out.failures.push(...record.failures.map((f) => `${suite.name}: ${f}`));
  }
  return out;
}

/** Scalars as `key: value` lines, nested objects as dotted keys; lists stay in the JSON only. */
function formatSummary(summary: Record<string, unknown>, prefix = ''): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(summary)) {
    if (Array.isArray(value)) continue;
    if (value !== null && typeof value === 'object') {
      const nested = formatSummary(value as Record<string, unknown>, `${prefix}${key}.`);
      if (nested) lines.push(nested);
    } else {
      lines.push(`  ${prefix}${key}: ${String(value)}`);
    }
  }
  return lines.join('\n');
}
