/**
 * `tsx src/main.ts [suite...] [--quick]`: runs the named benchmark suites, or all of them, and
 * writes `bench/results/<suite>.json` for each, then `bench/results/report.md` with SVG charts
 * (quick runs write to `bench/results/quick/` instead). Exit 0 when every check held, 1 when a suite's
 * check failed (for instance results out of block order), 2 for a usage error.
 *
 * ```sh
 * pnpm bench                              # every suite, full size
 * pnpm bench pipeline_overhead --quick    # one suite, quick
 * ```
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { findSuite, SUITES } from './suites.ts';
import { runSuites } from './run_suites.ts';
import type { BenchSuite } from './_suite.ts';
import { writeReport } from './report.ts';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));
// Quick runs never overwrite the committed full-run results (gitignored).
const QUICK_RESULTS_DIR = fileURLToPath(new URL('../results/quick/', import.meta.url));

/** What the command line asked for. */
export interface BenchArgs {
  quick: boolean;
  help: boolean;
  // Suites differ in their parameter types; `run` is a method, so `BenchSuite<object>` takes each one.
  suites: BenchSuite<object>[];
}

/**
 * Parses the bench's arguments. A bare `--` (what `pnpm run bench -- --quick` passes on) is
 * skipped.
 *
 * @param argv The arguments after the script.
 * @returns The suites to run (all when none is named, each once) and the flags.
 * @throws {RangeError} For an unknown suite or flag; the message lists the suites.
 *
 * @example
 * ```ts
 * parseBenchArgs(['pipeline_overhead', '--quick']); // { quick: true, help: false, suites: [pipelineOverheadSuite] }
 * ```
 */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { quick: false, help: false, suites: [] };
  for (const arg of argv) {
    if (arg === '--') continue;
    if (arg === '--quick' || arg === '-q') args.quick = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg.startsWith('-'))
      throw new RangeError(`Unknown option "${arg}". Options: --quick, --help.\n${suiteList()}`);
    else {
      const suite = findSuite(arg);
      if (!suite) throw new RangeError(`Unknown suite "${arg}".\n${suiteList()}`);
      if (!args.suites.includes(suite)) args.suites.push(suite);
    }
  }
  if (args.suites.length === 0) args.suites = [...SUITES];
  return args;
}

function suiteList(): string {
  const width = Math.max(...SUITES.map((s) => s.name.length));
  return `Suites:\n${SUITES.map((s) => `  ${s.name.padEnd(width)}  ${s.description}`).join('\n')}`;
}

const USAGE = 'Usage: tsx src/main.ts [suite...] [--quick]   (from the root: pnpm bench [suite...] [--quick])';

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(
      `${USAGE}\n${suiteList()}\nResults: ${RESULTS_DIR}<suite>.json and report.md (quick runs: ${QUICK_RESULTS_DIR})`,
    );
    return 0;
  }
  console.log(
    `Toolshed bench: ${args.suites.map((s) => s.name).join(', ')}${args.quick ? ' (quick)' : ''} on Node ${process.version}`,
  );
  const resultsDir = args.quick ? QUICK_RESULTS_DIR : RESULTS_DIR;
  const { failures } = await runSuites(args.suites, { quick: args.quick, resultsDir });
  const report = await writeReport({
    outDir: resultsDir,
    fullResultsDir: RESULTS_DIR,
    refreshed: args.suites.map((s) => s.name),
    quick: args.quick,
  });
  console.log(
    `\nReport: ${report.file} (${report.charts.length} charts${report.skipped.length ? `; not drawn: ${report.skipped.join('; ')}` : ''})`,
  );
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    return 1;
  }
  return 0;
}

// Only as the entry point: the test imports `parseBenchArgs` without starting a run.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exitCode = 1;
    },
  );
}
