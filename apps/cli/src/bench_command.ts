import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from './cli_io.ts';

/** The help text of `toolshed bench`. */
export const BENCH_USAGE = [
  'Usage: toolshed bench [suite...] [--quick]',
  '',
  'Runs the benchmark suites of a Toolshed checkout (what "pnpm bench" runs, without the build: run',
  '"pnpm build" first), writes bench/results/<suite>.json and bench/results/report.md with SVG charts',
  'beside it. --quick runs small sizes and writes to bench/results/quick/ instead, leaving the',
  'committed full-run results alone. "toolshed bench --help" lists the suites.',
  '',
  'Exit codes: 0 every check held; 1 a check failed or a suite broke; 2 a usage error.',
  '',
].join('\n');

/** Options of {@linkcode benchCommand}, for tests. */
export interface BenchCommandOptions {
  /** The checkout's `bench` folder. @default the one beside this CLI in the monorepo */
  benchDir?: string;
}

/**
 * `toolshed bench [suite...] [--quick]`: runs the bench's entry (`bench/src/main.ts`, through the
 * bench's own `tsx`) in a child process with the arguments given, streams its output, and exits
 * with its code. The bench lives in the monorepo, not in the CLI's package: outside a checkout
 * the command says so and exits 2.
 *
 * @param argv The arguments after `bench`.
 * @param io Where the output goes.
 * @param options Where the bench is.
 * @returns The bench's exit code (2 when there is no bench to run).
 *
 * @example
 * ```ts
 * import { benchCommand, type CliIo } from '@toolshed/cli';
 * declare const io: CliIo;
 *
 * process.exitCode = await benchCommand(['result_persistence', '--quick'], io);
 * ```
 */
export async function benchCommand(
  argv: readonly string[],
  io: CliIo,
  options: BenchCommandOptions = {},
): Promise<number> {
  const benchDir = options.benchDir ?? fileURLToPath(new URL('../../../bench/', import.meta.url));
  const main = path.join(benchDir, 'src', 'main.ts');
  if (!existsSync(main)) {
    io.stderr.write(
      `toolshed: "toolshed bench" runs the benchmarks of a Toolshed checkout, and there is none at "${benchDir}" (no src/main.ts). Clone the repository, run "pnpm install && pnpm build", then "toolshed bench" or "pnpm bench" there.\n`,
    );
    return 2;
  }
  let tsx: string;
  try {
    tsx = createRequire(path.join(benchDir, 'package.json')).resolve('tsx/cli');
  } catch {
    io.stderr.write(
      `toolshed: the bench at "${benchDir}" has no tsx installed; run "pnpm install" at the repository root first.\n`,
    );
    return 2;
  }
  return await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [tsx, main, ...argv], {
      cwd: benchDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...io.env },
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => io.stdout.write(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => io.stderr.write(chunk));
    const onAbort = () => child.kill('SIGTERM');
    io.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      io.stderr.write(`toolshed: could not start the bench (${e.message}).\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      io.signal?.removeEventListener('abort', onAbort);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
