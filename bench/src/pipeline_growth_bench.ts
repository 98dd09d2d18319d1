import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { contentToText, createSession, type Session } from '@toolshed/core';
import { closestNames } from '@toolshed/core/internal';
import { fileTools } from '@toolshed/tool-fs';
import { gate, measureInterleaved, rowFrom } from './_interleaved.ts';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';

/** Sizes and timings of {@linkcode pipelineGrowthSuite}. */
export interface PipelineGrowthParams {
  /** Deny-rule counts to measure a Read with (0 is the baseline). */
  ruleCounts: number[];
  /** Reads per sample (a Read takes a fraction of a millisecond). */
  batch: number;
  /** Samples per rule count, taken in turns. */
  rounds: number;
  /** Names in the pool a "did you mean" searches. */
  poolSize: number;
}

/** The goals: 1 000 deny rules at most 1.2× none; "did you mean" within 10 ms for any name. */
const GOALS = { rulesRatio: 1.2, didYouMeanMs: 10 };

/**
 * How a call's cost grows with what the session holds rather than with what the call does: a
 * Read of a small file with 0, 10, 100 and 1 000 deny rules (each a folder rule the permission
 * layer must check the path against, a third of them below a folder that is a symlink), timed in
 * turns; and the "did you mean" suggestion for an unknown name against a pool of 10 000 names,
 * for a near miss, a name like none, and a 1 000-character name.
 *
 * @example
 * ```ts
 * const { summary } = await pipelineGrowthSuite.run({ quick: true });
 * summary.rules1000OverNone;
 * ```
 */
export const pipelineGrowthSuite: BenchSuite<PipelineGrowthParams> = {
  name: 'pipeline_growth',
  description:
    'A Read with 0 to 1 000 deny rules (rules compiled once per session and indexed by tool and root), and "did you mean" for an unknown name on a 10 000-name pool.',
  defaults: {
    full: { ruleCounts: [0, 10, 100, 1000], batch: 50, rounds: 15, poolSize: 10_000 },
    quick: { ruleCounts: [0, 1000], batch: 20, rounds: 5, poolSize: 10_000 },
  },
  run: runPipelineGrowth,
};

async function runPipelineGrowth(options: SuiteRunOptions<PipelineGrowthParams>): Promise<SuiteOutcome> {
  const params = resolveParams(pipelineGrowthSuite, options);
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-rules-')));
  const sessions: Session[] = [];
  const failures: string[] = [];
  try {
    await writeFile(path.join(dir, 'a.txt'), 'hello\n');
    // The project's private folder is a link: those rules' roots resolve through it.
    await mkdir(path.join(dir, 'private-store'));
    await symlink(path.join(dir, 'private-store'), path.join(dir, 'private'));
    const rows: ResultRow[] = [];
    const tasks = [];
    for (const count of params.ruleCounts) {
      // Rules of the kinds users write: folders below the project, files by name, absolute folders.
      const deny = Array.from({ length: count }, (_, i) =>
        i % 3 === 0
          ? `Read(./private/area${i}/**)`
          : i % 3 === 1
            ? `Read(//srv/data${i}/**)`
            : `Read(./build/out${i}.log)`,
      );
      const session = await createSession({ cwd: dir, families: [fileTools()], permissions: { deny } });
      sessions.push(session);
      let seq = 0;
      const read = async () => {
        const [block] = await session.run([
          { type: 'tool_use', id: `toolu_${++seq}`, name: 'Read', input: { file_path: 'a.txt' } },
        ]);
        if (block?.is_error) throw new Error(`Read with ${count} deny rules failed: ${contentToText(block.content)}`);
      };
      await read();
      tasks.push({
        name: `Read, ${count} deny rules (${params.batch} calls)`,
        run: async () => {
          for (let i = 0; i < params.batch; i++) await read();
        },
      });
    }
    rows.push(...(await measureInterleaved(tasks, params.rounds)));
    const perCall = (i: number) => rows[i]!.p50Ms / params.batch;
    const base = perCall(0);
    const rules = params.ruleCounts.map((count, i) => ({
      rules: count,
      perCallUs: Math.round(perCall(i) * 10_000) / 10,
      overNone: Math.round((perCall(i) / base) * 100) / 100,
    }));
    const last = rules[rules.length - 1]!;

    // "Did you mean": names shaped like MCP tools, asked for by a near miss, a stranger and a very long name.
    const pool = Array.from({ length: params.poolSize }, (_, i) => `mcp__server${i % 50}__tool_${i}_action`);
    const names = {
      nearMiss: 'mcp__server7__tool_4507_actoin',
      unlike: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      veryLong: 'x'.repeat(1000),
    };
    const didYouMean: Record<string, number> = {};
    const best: Record<string, number> = {};
    for (const [label, name] of Object.entries(names)) {
      const times: number[] = [];
      closestNames(name, pool); // warm: the first call pays for compiling the code
      for (let r = 0; r < params.rounds; r++) {
        const start = performance.now();
        closestNames(name, pool);
        times.push(performance.now() - start);
      }
      const row = rowFrom(`did you mean: ${label} on ${params.poolSize} names`, times);
      rows.push(row);
      didYouMean[`${label}Ms`] = Math.round(row.p50Ms * 100) / 100;
      // Gated on the best round: an absolute time on a shared machine moves with its load.
      best[label] = Math.min(...times);
    }
    if (closestNames(names.nearMiss, pool, { max: 1 })[0] !== 'mcp__server7__tool_4507_action')
      failures.push('did you mean missed the near name');

    const summary = {
      rules,
      [`rules${last.rules}OverNone`]: last.overNone,
      didYouMean: { poolSize: params.poolSize, ...didYouMean },
      goals: GOALS,
    };
    // Gated on the medians taken in turns: a Read of 0.4 ms has a best run that load hardly touches
    // in one task and not the other, so the ratio of best runs swings more than the medians'.
    // Rules are looked up by tool and by root (path_rule_index.ts, tool_rule_index.ts): a Read
    // matches none of these 1 000 rules, so the ratio sits near 1 (1.0–1.3× measured on a loaded
    // 2-core machine); the gate, at 3× the goal like the others, catches a return to a scan.
    gate(`Read with ${last.rules} deny rules over none (medians)`, last.overNone, GOALS.rulesRatio, failures);
    for (const [label, ms] of Object.entries(best))
      gate(`did you mean (${label}, best of ${params.rounds}), ms`, ms, GOALS.didYouMeanMs, failures);
    return { results: rows, summary, failures };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  }
}
