import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { contentToText, createSession, type Session, type ToolUseBlock } from '@toolshed/core';
import { classifyCommand, shellTools } from '@toolshed/tool-shell';
import { loadBashParser, runCommand } from '@toolshed/tool-shell/internal';
import { NOT_READ_ONLY_EXAMPLES, READ_ONLY_EXAMPLES } from '@toolshed/tool-shell/testing';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode shellSuite}. */
export interface ShellBenchParams {
  /** Measuring time per classification task, in milliseconds. */
  classifyTimeMs: number;
  /** Uncached classifications per command for the per-command figures. */
  repeatsPerCommand: number;
  /** Measuring time per spawn task, in milliseconds. */
  spawnTimeMs: number;
  /** Minimum measured iterations per spawn task. */
  spawnIterations: number;
  /** Warm-up iterations per task. */
  warmupIterations: number;
}

const TASK_CLASSIFY = 'classifyCommand, uncached (cycling the table)';
const TASK_CLASSIFY_CACHED = 'classifyCommand, cached';
const TASK_SPAWN = 'child_process.spawn bash -c true';
const TASK_RUN = 'runCommand("true")';
const TASK_TOOL = 'Bash "true" via session.run';

/**
 * Shell: how long read-only classification takes per command (p50/p99 over the adversarial and
 * everyday tables, uncached, so each figure is a real parse with tree-sitter), and what running
 * a trivial command through the Bash tool costs over `child_process.spawn` of `bash -c true`
 * directly — first through the process runner alone (process group, merged output, cwd
 * tracking, tree kill), then through the whole pipeline (parse, permission, classification).
 *
 * @example
 * ```ts
 * const { summary } = await shellSuite.run({ quick: true });
 * summary.classifyUsPerCommand; // { p50, p99, max, slowest }
 * summary.toolOverheadMs;       // what the Bash tool adds to one spawn (medians)
 * ```
 */
export const shellSuite: BenchSuite<ShellBenchParams> = {
  name: 'shell',
  description:
    'Bash read-only classification time per command (p50/p99 over the adversarial and everyday tables) and the spawn overhead of a trivial command through the Bash tool against child_process.spawn directly.',
  defaults: {
    full: { classifyTimeMs: 1500, repeatsPerCommand: 21, spawnTimeMs: 3000, spawnIterations: 60, warmupIterations: 5 },
    quick: { classifyTimeMs: 300, repeatsPerCommand: 5, spawnTimeMs: 500, spawnIterations: 10, warmupIterations: 2 },
  },
  run: runShellBench,
};

async function runShellBench(options: SuiteRunOptions<ShellBenchParams>): Promise<SuiteOutcome> {
  const params = resolveParams(shellSuite, options);
  await loadBashParser();
  const failures: string[] = [];
  const table = [...NOT_READ_ONLY_EXAMPLES, ...READ_ONLY_EXAMPLES];
  // The figures mean nothing if the classifier is wrong, so the table is checked first.
  for (const command of NOT_READ_ONLY_EXAMPLES) {
    if (classifyCommand(command, { cache: false }).readOnly) failures.push(`"${command}" was classified read-only`);
  }
  for (const command of READ_ONLY_EXAMPLES) {
    if (!classifyCommand(command, { cache: false }).readOnly)
      failures.push(`"${command}" was not classified read-only`);
  }

  // Per command: the median of several uncached runs, then percentiles over the table.
  const perCommand = table
    .map((command) => {
      const times: number[] = [];
      for (let i = 0; i < params.repeatsPerCommand; i++) {
        const start = performance.now();
        classifyCommand(command, { cache: false });
        times.push((performance.now() - start) * 1000);
      }
      return { command, us: median(times) };
    })
    .sort((a, b) => a.us - b.us);
  const slowest = perCommand.at(-1)!;

  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-shell-'));
  let session: Session | undefined;
  try {
    session = await createSession({ cwd: dir, stateDir: path.join(dir, 'state'), families: [shellTools()] });
    let seq = 0;
    const block = (): ToolUseBlock => ({
      type: 'tool_use',
      id: `toolu_${++seq}`,
      name: 'Bash',
      input: { command: 'true' },
    });
    const [probe] = await session.run([block()]);
    if (!probe || probe.is_error || contentToText(probe.content) !== '(no output)') {
      failures.push(
        `Bash "true" through the session did not run cleanly: ${probe ? contentToText(probe.content) : 'no result'}`,
      );
      return { results: [], summary: {}, failures };
    }

    let next = 0;
    const classifyBench = new Bench({
      name: 'shell-classify',
      time: params.classifyTimeMs,
      iterations: table.length,
      warmupIterations: params.warmupIterations,
      throws: true,
    });
    classifyBench
      .add(TASK_CLASSIFY, () => {
        classifyCommand(table[next++ % table.length]!, { cache: false });
      })
      // Within one call the same string is classified several times (isReadOnly, isConcurrencySafe,
      // the matcher, resources): a few dozen recent commands, well inside the parser's cache.
      .add(TASK_CLASSIFY_CACHED, () => {
        classifyCommand(table[next++ % 32]!);
      });
    const classifyRows = (await classifyBench.run()).map((task) => taskRow(task));

    const spawnBench = new Bench({
      name: 'shell-spawn',
      time: params.spawnTimeMs,
      iterations: params.spawnIterations,
      warmupIterations: params.warmupIterations,
      throws: true,
    });
    const s = session;
    spawnBench
      .add(TASK_SPAWN, () => spawnTrue(dir), { async: true })
      .add(
        TASK_RUN,
        async () => {
          await runCommand('true', { cwd: dir, timeoutMs: 60_000 });
        },
        { async: true },
      )
      .add(
        TASK_TOOL,
        async () => {
          await s.run([block()]);
        },
        { async: true },
      );
    const spawnRows = (await spawnBench.run()).map((task) => taskRow(task));

    // Medians: on a shared machine a few slow spawns move the mean by milliseconds.
    const mean = (name: string) => spawnRows.find((r) => r.task === name)!.p50Ms;
    const summary = {
      tableSize: table.length,
      classifyUsPerCommand: {
        p50: round(
          percentile(
            perCommand.map((c) => c.us),
            50,
          ),
        ),
        p99: round(
          percentile(
            perCommand.map((c) => c.us),
            99,
          ),
        ),
        max: round(slowest.us),
        slowest: slowest.command.length > 60 ? `${slowest.command.slice(0, 57)}...` : slowest.command,
      },
      spawnP50Ms: round(mean(TASK_SPAWN)),
      runCommandP50Ms: round(mean(TASK_RUN)),
      toolP50Ms: round(mean(TASK_TOOL)),
      runnerOverheadMs: round(mean(TASK_RUN) - mean(TASK_SPAWN)),
      toolOverheadMs: round(mean(TASK_TOOL) - mean(TASK_SPAWN)),
      toolOverSpawn: round(mean(TASK_TOOL) / mean(TASK_SPAWN)),
    };
    return { results: [...classifyRows, ...spawnRows], summary, failures };
  } finally {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The baseline: bash -c true with nothing around it but waiting for its exit. */
function spawnTrue(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], { cwd, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
