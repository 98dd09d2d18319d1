import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { Bench } from 'tinybench';
import { contentToText, createSession, type Session, type ToolUseBlock } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { rowOf, taskRow } from './_task_stats.ts';
import { gate, measureInterleaved } from './_interleaved.ts';
import { makeSearchTree, rgDirect, type SearchTree } from './fs_grep_bench.ts';

/** Sizes and timings of {@linkcode fsGlobSuite}. */
export interface FsGlobParams {
  /** Files in the generated tree (besides the ignored ones). */
  files: number;
  /** Files per folder. */
  filesPerDir: number;
  /** Measuring time per task, in milliseconds. */
  timeMs: number;
  /** Minimum measured iterations per task. */
  iterations: number;
}

const TASK_FG = 'fast-glob directly (no .gitignore)';
const TASK_FG_STATS = 'fast-glob directly + stats (no .gitignore)';
const TASK_RG = 'rg --files directly';
const TASK_GLOB_RG = 'Glob (ripgrep engine)';
const TASK_GLOB_JS = 'Glob (JS engine)';
const TASK_GLOB_DENY = 'Glob (JS engine, 3 deny rules)';

/** Deny rules of the kinds users write (a file, a folder, a glob); none matches a file of the tree, so results agree. */
const DENY_RULES = ['Read(./.env)', 'Read(./secrets/**)', 'Read(**/*.pem)'];

/**
 * Glob's cost: the Glob tool through a session, with the JS walker (its default) and with
 * ripgrep's file walk (both honour .gitignore and sort newest first), against fast-glob run
 * directly (which does not read .gitignore), with and without the mtimes a sort needs, and
 * `rg --files`, on the same generated tree; and Glob with three deny rules, which it checks every
 * file found against.
 *
 * @example
 * ```ts
 * const { summary } = await fsGlobSuite.run({ quick: true });
 * summary.globOverFastGlob;
 * ```
 */
export const fsGlobSuite: BenchSuite<FsGlobParams> = {
  name: 'fs_glob',
  description:
    'The Glob tool (ripgrep walk and JS walk, .gitignore honoured, newest first) through a session against fast-glob and rg --files run directly, on a generated tree of 20 000 files.',
  defaults: {
    full: { files: 20_000, filesPerDir: 100, timeMs: 4000, iterations: 8 },
    quick: { files: 2_000, filesPerDir: 50, timeMs: 300, iterations: 3 },
  },
  run: runFsGlob,
};

async function runFsGlob(options: SuiteRunOptions<FsGlobParams>): Promise<SuiteOutcome> {
  const params = resolveParams(fsGlobSuite, options);
  const tree = await makeSearchTree(params.files, params.filesPerDir);
  const sessions: Session[] = [];
  try {
    const rgSession = await createSession({ cwd: tree.dir, families: [fileTools({ searchEngine: 'ripgrep' })] });
    const jsSession = await createSession({ cwd: tree.dir, families: [fileTools({ searchEngine: 'js' })] });
    // Glob leaves out what a deny rule covers: this session measures that check on every file found.
    const denySession = await createSession({
      cwd: tree.dir,
      families: [fileTools({ searchEngine: 'js' })],
      permissions: { deny: DENY_RULES },
    });
    sessions.push(rgSession, jsSession, denySession);
    let seq = 0;
    const pattern = '**/*.ts';
    const glob = (): ToolUseBlock => ({ type: 'tool_use', id: `toolu_${++seq}`, name: 'Glob', input: { pattern } });
    const fastGlob = () => fg(pattern, { cwd: tree.dir, dot: true, ignore: ['**/.git/**'] });

    const failures: string[] = [];
    const expectedTs = tree.files.filter((f) => f.endsWith('.ts')).length;
    const fgCount = (await fastGlob()).length;
    if (fgCount !== expectedTs + tree.ignoredFiles)
      failures.push(
        `fast-glob found ${fgCount} files, expected ${expectedTs + tree.ignoredFiles} (it does not read .gitignore)`,
      );
    for (const [label, session] of [
      ['ripgrep', rgSession],
      ['js', jsSession],
      ['js, deny rules', denySession],
    ] as const) {
      const [result] = await session.run([glob()]);
      const text = result ? contentToText(result.content) : '';
      const m = /showing the 100 newest of (\d+) files/.exec(text);
      if (result?.is_error || !m || Number(m[1]) !== expectedTs)
        failures.push(`Glob (${label}) did not report ${expectedTs} files: ${text.slice(-200)}`);
      if (text.includes('vendor/')) failures.push(`Glob (${label}) listed a git-ignored file`);
    }
    if (failures.length) return { results: [], summary: {}, failures };

    const bench = new Bench({
      name: fsGlobSuite.name,
      time: params.timeMs,
      iterations: params.iterations,
      warmup: true,
      warmupIterations: 1,
      throws: true,
    });
    bench
      .add(TASK_FG, fastGlob, { async: true })
      // With the mtimes a newest-first sort needs, which Glob reads and plain fast-glob does not.
      .add(TASK_FG_STATS, () => fg(pattern, { cwd: tree.dir, dot: true, ignore: ['**/.git/**'], stats: true }), {
        async: true,
      })
      .add(
        TASK_RG,
        () => rgDirect(['--files', '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '*.ts'], tree.dir),
        { async: true },
      )
      .add(TASK_GLOB_RG, () => rgSession.run([glob()]), { async: true })
      .add(TASK_GLOB_JS, () => jsSession.run([glob()]), { async: true })
      .add(TASK_GLOB_DENY, () => denySession.run([glob()]), { async: true });
    const rows = (await bench.run()).map((task) => taskRow(task));
    const pathological = await pathologicalPattern(failures);
    return {
      results: [...rows, ...pathological.rows],
      summary: { ...summarize(rows, tree), pathological: pathological.summary },
      failures,
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await rm(tree.dir, { recursive: true, force: true });
  }
}

function summarize(rows: readonly ResultRow[], tree: SearchTree): Record<string, unknown> {
  const mean = (task: string) => rowOf(rows, task).meanMs;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    files: tree.files.length,
    ignoredFiles: tree.ignoredFiles,
    fastGlobMeanMs: r(mean(TASK_FG)),
    fastGlobStatsMeanMs: r(mean(TASK_FG_STATS)),
    rgFilesMeanMs: r(mean(TASK_RG)),
    globRgMeanMs: r(mean(TASK_GLOB_RG)),
    globJsMeanMs: r(mean(TASK_GLOB_JS)),
    // Glob as shipped (the JS walker unless searchEngine is 'ripgrep') over fast-glob run directly.
    globOverFastGlob: r(mean(TASK_GLOB_JS) / mean(TASK_FG)),
    // The same against fast-glob asked for the mtimes too: the like-for-like baseline for a sorted result.
    globOverFastGlobWithStats: r(mean(TASK_GLOB_JS) / mean(TASK_FG_STATS)),
    globRgOverFastGlob: r(mean(TASK_GLOB_RG) / mean(TASK_FG)),
    // The JS walk against ripgrep's walk inside Glob: below 1, the JS walker is faster (why it is the default).
    globJsOverGlobRg: r(mean(TASK_GLOB_JS) / mean(TASK_GLOB_RG)),
    globDenyMeanMs: r(mean(TASK_GLOB_DENY)),
    // What checking every file found against three deny rules costs (1 = nothing).
    denyRulesOverGlobJs: r(mean(TASK_GLOB_DENY) / mean(TASK_GLOB_JS)),
  };
}

/** A pattern under which a backtracking regex takes seconds on 20 names (×3.5 per extra star). */
const PATHOLOGICAL = '*a*a*a*a*a*a*a*a*b';
/** The goal for it: 5 ms over 20 names. */
const PATHOLOGICAL_GOAL_MS = 5;

/**
 * Glob with {@linkcode PATHOLOGICAL} over a folder of 20 names of 30 to 50 `a`s (none matches),
 * against `*.txt` over the same folder, timed in turns: the matcher's work must not explode.
 */
async function pathologicalPattern(
  failures: string[],
): Promise<{ rows: ResultRow[]; summary: Record<string, unknown> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-glob-names-'));
  const session = await createSession({ cwd: dir, families: [fileTools()] });
  try {
    for (let i = 0; i < 20; i++) await writeFile(path.join(dir, `${'a'.repeat(30 + i)}c.txt`), '');
    let seq = 0;
    const glob = (pattern: string) =>
      session.run([{ type: 'tool_use', id: `toolu_p${++seq}`, name: 'Glob', input: { pattern } }]);
    const [plain, bad] = await measureInterleaved(
      [
        { name: 'Glob *.txt over 20 names', run: () => glob('*.txt') },
        { name: `Glob ${PATHOLOGICAL} over 20 names`, run: () => glob(PATHOLOGICAL) },
      ],
      9,
    );
    const [check] = await glob(PATHOLOGICAL);
    if (!check || !contentToText(check.content).startsWith('No files found'))
      failures.push(`Glob ${PATHOLOGICAL} matched a file it should not`);
    const summary = {
      pattern: PATHOLOGICAL,
      names: 20,
      p50Ms: Math.round(bad!.p50Ms * 100) / 100,
      plainP50Ms: Math.round(plain!.p50Ms * 100) / 100,
      goalMs: PATHOLOGICAL_GOAL_MS,
    };
    gate(`Glob ${PATHOLOGICAL} over 20 names, ms`, summary.p50Ms, PATHOLOGICAL_GOAL_MS, failures);
    // A backtracking matcher would take seconds here, whatever the load: the median is gate enough.
    return { rows: [plain!, bad!], summary };
  } finally {
    await session.close();
    await rm(dir, { recursive: true, force: true });
  }
}
