import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gate, measureInterleaved } from './_interleaved.ts';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';

/** Sizes and timings of {@linkcode cliStartupSuite}. */
export interface CliStartupParams {
  /** Starts of each command, taken in turns with `node -e 0`. */
  rounds: number;
}

/** Issue 18's goals, as ratios to `node -e 0` in the same run. */
const GOALS = { help: 2, callReadOnlyFs: 3 };

const CLI = fileURLToPath(new URL('../../apps/cli/bin/toolshed.js', import.meta.url));

/**
 * What starting the `toolshed` binary costs: `toolshed --help` and `toolshed call Read --only fs`
 * (a small file) against `node -e 0`, each a fresh process, timed in turns. Each command imports
 * only what it uses, so `--help` loads neither core nor a family and `call Read --only fs` loads
 * core and tool-fs. Needs `pnpm build` (it starts the built CLI).
 *
 * @example
 * ```ts
 * const { summary } = await cliStartupSuite.run({ quick: true });
 * summary.helpOverNode;
 * ```
 */
export const cliStartupSuite: BenchSuite<CliStartupParams> = {
  name: 'cli_startup',
  description: '`toolshed --help` and `toolshed call Read --only fs` against `node -e 0`, each a new process.',
  defaults: { full: { rounds: 20 }, quick: { rounds: 5 } },
  run: runCliStartup,
};

function run(args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args], { cwd, env: { ...process.env, HOME: cwd } }, (error, _out, stderr) =>
      error ? reject(new Error(`node ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(),
    );
  });
}

async function runCliStartup(options: SuiteRunOptions<CliStartupParams>): Promise<SuiteOutcome> {
  const params = resolveParams(cliStartupSuite, options);
  if (!existsSync(fileURLToPath(new URL('../../apps/cli/dist/main.js', import.meta.url))))
    return { results: [], summary: {}, failures: ['the CLI is not built: run `pnpm build` first'] };
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-cli-')));
  try {
    await writeFile(path.join(dir, 'a.txt'), 'hello\n');
    const rows = await measureInterleaved(
      [
        { name: 'node -e 0', run: () => run(['-e', '0'], dir) },
        { name: 'toolshed --help', run: () => run([CLI, '--help'], dir) },
        {
          name: 'toolshed call Read --only fs',
          run: () => run([CLI, 'call', 'Read', '{"file_path":"a.txt"}', '--only', 'fs', '--cwd', dir], dir),
        },
      ],
      params.rounds,
    );
    const [node, help, read] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    const ratio = (row: typeof node) => Math.round((row.p50Ms / node.p50Ms) * 100) / 100;
    const summary = {
      nodeMs: Math.round(node.p50Ms),
      helpOverNode: ratio(help),
      callReadOnlyFsOverNode: ratio(read),
      goals: GOALS,
    };
    const failures: string[] = [];
    gate('toolshed --help over node -e 0 (medians)', summary.helpOverNode, GOALS.help, failures);
    gate(
      'toolshed call Read --only fs over node -e 0 (medians)',
      summary.callReadOnlyFsOverNode,
      GOALS.callReadOnlyFs,
      failures,
    );
    return { results: rows, summary, failures };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
