import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { contentToText, createSession, type Session, type ToolUseBlock } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { bestRatio, gate, type InterleavedTask, measureInterleaved, rowFrom } from './_interleaved.ts';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { rowOf } from './_task_stats.ts';

/** Sizes and timings of {@linkcode fsEditSuite}. */
export interface FsEditParams {
  /** Size of the file Edit changes and Write creates, in MB. */
  fileMb: number;
  /** Lines of the file a failed Edit searches. */
  searchLines: number;
  /** Lines of the old_string that is not found. */
  oldLines: number;
  /** Rounds of each task. */
  rounds: number;
}

const TASK_BASE_EDIT = 'readFile + replace + writeFile';
const TASK_EDIT = 'Edit (one replacement)';
const TASK_BASE_WRITE = 'writeFile of a new file';
const TASK_BASE_EDIT_SYNC = 'readFile + replace + write + fsync';
const TASK_BASE_WRITE_SYNC = 'write + fsync of a new file';
const TASK_WRITE = 'Write of a new file';
const TASK_MISS = 'failed Edit (closest-region search)';

/** The goals: Edit and Write at most 1.5× their baseline; a failed Edit's search in 100 ms. */
const GOALS = { edit: 1.5, write: 1.5, missMs: 100 };

/** The untimed pause before each timed run: more than a 20 MB file's background hash takes. */
const SETTLE_MS = 40;

/**
 * What Edit and Write cost on a large file against doing the same by hand in the same run:
 * Edit of one line in a file of `fileMb` MB against readFile + replace + writeFile (and with the
 * fsync Edit does before its rename), Write of a new file of that size against writeFile (and
 * write + fsync); and how long a failed Edit takes to answer with the
 * closest region of a `searchLines`-line file to an `oldLines`-line old_string that is not in it.
 *
 * @example
 * ```ts
 * const { summary } = await fsEditSuite.run({ quick: true });
 * summary.editOverBaseline;
 * ```
 */
export const fsEditSuite: BenchSuite<FsEditParams> = {
  name: 'fs_edit',
  description:
    "Edit and Write of a 20 MB file against readFile/replace/writeFile and writeFile, and a failed Edit's closest-region search on a 50 000-line file.",
  defaults: {
    full: { fileMb: 20, searchLines: 50_000, oldLines: 1000, rounds: 9 },
    quick: { fileMb: 5, searchLines: 50_000, oldLines: 1000, rounds: 5 },
  },
  run: runFsEdit,
};

async function runFsEdit(options: SuiteRunOptions<FsEditParams>): Promise<SuiteOutcome> {
  const params = resolveParams(fsEditSuite, options);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-edit-'));
  let session: Session | undefined;
  try {
    session = await createSession({ cwd: dir, families: [fileTools()], permissions: { mode: 'acceptEdits' } });
    let seq = 0;
    const use = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
      type: 'tool_use',
      id: `toolu_${++seq}`,
      name,
      input,
    });
    const run = async (name: string, input: Record<string, unknown>) => {
      const [block] = await session!.run([use(name, input)]);
      return { text: contentToText(block!.content), isError: block!.is_error === true };
    };
    const failures: string[] = [];

    // A source-like file with one marker line in its middle, toggled by every Edit.
    const line = 'export const value = compute(argument, another) + 42; // a comment\n';
    const half = line.repeat(Math.ceil((params.fileMb * 1024 * 1024) / line.length / 2));
    const big = path.join(dir, 'big.ts');
    const byHand = path.join(dir, 'by-hand.ts');
    await writeFile(big, `${half}const marker = 'A';\n${half}`);
    await writeFile(byHand, `${half}const marker = 'A';\n${half}`);
    // Edit may change what Read has shown: the marker's line.
    const read = await run('Read', { file_path: 'big.ts', offset: half.split('\n').length, limit: 1 });
    if (read.isError) failures.push(`Read failed: ${read.text.slice(0, 200)}`);
    let toolMarker = 'A';
    let handMarker = 'A';
    const editOnce = async () => {
      const next = toolMarker === 'A' ? 'B' : 'A';
      const r = await run('Edit', {
        file_path: 'big.ts',
        old_string: `const marker = '${toolMarker}';`,
        new_string: `const marker = '${next}';`,
      });
      if (r.isError) throw new Error(`Edit failed: ${r.text.slice(0, 300)}`);
      toolMarker = next;
    };
    const byHandOnce = async () => {
      const next = handMarker === 'A' ? 'B' : 'A';
      const text = await readFile(byHand, 'utf8');
      await writeFile(byHand, text.replace(`const marker = '${handMarker}';`, `const marker = '${next}';`));
      handMarker = next;
    };
    /** Writes and flushes to disk, as Edit does before its rename of a changed file (writeFile does not flush). */
    const writeSynced = async (file: string, data: string) => {
      const handle = await open(file, 'w');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
    };
    let syncMarker = 'A';
    const byHandSynced = async () => {
      const next = syncMarker === 'A' ? 'B' : 'A';
      const text = await readFile(byHand, 'utf8');
      await writeSynced(byHand, text.replace(`const marker = '${syncMarker}';`, `const marker = '${next}';`));
      syncMarker = next;
    };
    const content = `${half}${half}`;
    let n = 0;
    const rows: ResultRow[] = [];
    // Write records the new file at once and hashes it on a worker thread after the call (a
    // model's next call comes seconds later): each run starts after a pause, untimed, so that
    // this work is not timed in the task after it.
    const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const tasks: InterleavedTask[] = [
      { name: TASK_BASE_EDIT, run: byHandOnce },
      { name: TASK_BASE_EDIT_SYNC, run: byHandSynced },
      { name: TASK_EDIT, run: editOnce },
      {
        name: TASK_BASE_WRITE,
        before: () => rm(path.join(dir, 'new-by-hand.ts'), { force: true }),
        run: () => writeFile(path.join(dir, 'new-by-hand.ts'), content),
      },
      {
        name: TASK_BASE_WRITE_SYNC,
        before: () => rm(path.join(dir, 'new-synced.ts'), { force: true }),
        run: () => writeSynced(path.join(dir, 'new-synced.ts'), content),
      },
      {
        name: TASK_WRITE,
        before: () => rm(path.join(dir, `new-${n}.ts`), { force: true }).then(() => n++),
        run: async () => {
          const r = await run('Write', { file_path: `new-${n}.ts`, content });
          if (r.isError) throw new Error(`Write failed: ${r.text.slice(0, 300)}`);
        },
      },
    ];
    const settled = tasks.map((task) => ({ ...task, before: () => settle().then(() => task.before?.()) }));
    rows.push(...(await measureInterleaved(settled, params.rounds)));
    if ((await readFile(big, 'utf8')) !== `${half}const marker = '${toolMarker}';\n${half}`)
      failures.push('Edit left the file with other content than the replacement');

    // A failed Edit: a block of code-like lines (repeating `}` and blank lines) with one line changed.
    const block = (i: number) => [`function f${i}(x) {`, `  const y = x * ${i};`, '  return y;', '}', ''];
    const lines = Array.from({ length: Math.ceil(params.searchLines / 5) }, (_, i) => block(i))
      .flat()
      .slice(0, params.searchLines);
    await writeFile(path.join(dir, 'search.js'), lines.join('\n'));
    await run('Read', { file_path: 'search.js' });
    const at = Math.floor(params.searchLines * 0.4);
    const old = lines.slice(at, at + params.oldLines);
    old[Math.floor(params.oldLines / 2)] = '  const y = x * -1;';
    const missTimes: number[] = [];
    let missText = '';
    for (let r = 0; r < params.rounds; r++) {
      const start = performance.now();
      const result = await run('Edit', { file_path: 'search.js', old_string: old.join('\n'), new_string: 'x' });
      missTimes.push(performance.now() - start);
      missText = result.text;
    }
    rows.push(rowFrom(TASK_MISS, missTimes));
    if (!missText.includes(`The closest region is lines ${at + 1}-${at + params.oldLines}`))
      failures.push(
        `the failed Edit did not point at lines ${at + 1}-${at + params.oldLines}: ${missText.slice(0, 300)}`,
      );

    const p50 = (task: string) => rowOf(rows, task).p50Ms;
    const r2 = (x: number) => Math.round(x * 100) / 100;
    const summary = {
      fileMb: params.fileMb,
      editMs: r2(p50(TASK_EDIT)),
      byHandMs: r2(p50(TASK_BASE_EDIT)),
      // Ratios of medians, each pair timed in turns.
      editOverBaseline: r2(p50(TASK_EDIT) / p50(TASK_BASE_EDIT)),
      writeMs: r2(p50(TASK_WRITE)),
      writeFileMs: r2(p50(TASK_BASE_WRITE)),
      writeOverBaseline: r2(p50(TASK_WRITE) / p50(TASK_BASE_WRITE)),
      // Against the same work with the flush to disk that an atomic replace does (writeFile has none).
      editOverSyncedBaseline: r2(p50(TASK_EDIT) / p50(TASK_BASE_EDIT_SYNC)),
      writeOverSyncedBaseline: r2(p50(TASK_WRITE) / p50(TASK_BASE_WRITE_SYNC)),
      failedEdit: {
        fileLines: params.searchLines,
        oldLines: params.oldLines,
        p50Ms: r2(p50(TASK_MISS)),
        maxMs: r2(Math.max(...missTimes)),
      },
      goals: GOALS,
    };
    // Gated against the flushed baselines: an fsync's time is the disk's, and on a shared disk it
    // swings far more than the work around it (the unflushed ratios are reported above).
    gate(
      'Edit over readFile + replace + write + fsync (fastest runs)',
      bestRatio(rowOf(rows, TASK_EDIT), rowOf(rows, TASK_BASE_EDIT_SYNC)),
      GOALS.edit,
      failures,
    );
    // Write of a new file does not flush (there is no old content to protect), so its gate is
    // the plain writeFile.
    gate(
      'Write of a new file over writeFile (fastest runs)',
      bestRatio(rowOf(rows, TASK_WRITE), rowOf(rows, TASK_BASE_WRITE)),
      GOALS.write,
      failures,
    );
    // An absolute time: gated on the best round, which the machine's load moves least.
    gate('failed Edit (best round), ms', Math.min(...missTimes), GOALS.missMs, failures);
    return { results: rows, summary, failures };
  } finally {
    await session?.close();
    await rm(dir, { recursive: true, force: true });
  }
}
