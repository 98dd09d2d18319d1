import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SearchableTool } from '@toolshed/toolsearch';
import { rowFrom } from './_interleaved.ts';
import type { ResultRow } from './_suite.ts';

/** A catalogue's index, as both the current and the reference `createToolIndex` make it. */
type Index = { search(query: string): unknown };

/** The rankings compared, each a way to build an index of the catalogue. */
export interface ComparedRankers {
  /** The ranker the figures are relative to (the one of the filing). */
  reference: (tools: readonly SearchableTool[]) => Index;
  /** The current default ranker. */
  current: (tools: readonly SearchableTool[]) => Index;
  /** Plain BM25, whose code did not change: what both are also read against. */
  bm25: (tools: readonly SearchableTool[]) => Index;
}

/** What {@linkcode compareWithReference} measures, and how long. */
export interface ComparisonOptions {
  catalogue: readonly SearchableTool[];
  /** Whole requests. */
  longQueries: readonly string[];
  /** Keyword queries. */
  keywordQueries: readonly string[];
  /** Index builds of each ranker, in turns; each index then times its first search and its first pass. */
  builds: number;
  /** Passes over the queries, in turns (blocks of 51 queries per ranker). */
  rounds: number;
  /** Queries of the first pass over a new index (every one's first search). */
  coldQueries: number;
}

/** Medians of the reference and the current ranker, and their ratio (current / reference). */
export interface Compared {
  reference: number;
  current: number;
  ratio: number;
}

/**
 * The current ranker against a reference ranker (an older commit's), every figure timed in turns
 * in one process, so both see the same load: index build; the first search of a new index (the
 * lazily built parts of an index are built there); the first pass over queries on a new index
 * (every query's first search: term caches empty); and, on warm indexes, keyword queries and
 * whole requests, per query (p50), with plain BM25 in the same turns. Garbage is collected before
 * each build, so one build does not pay for the last one's. Each figure is given twice: wall
 * time, and the process's CPU time, which other work on a shared machine moves less.
 *
 * @param rankers The reference, the current ranker and plain BM25.
 * @param options The catalogue, the queries and how many turns.
 * @returns Rows of raw timings, and the medians with their ratios.
 *
 * @example
 * ```ts
 * const filed = await loadRankerAt('b430c4e');
 * const { summary } = compareWithReference(
 *   { reference: filed.createToolIndex, current: (t) => createToolIndex(t), bm25: (t) => createToolIndex(t, { ranker: bm25Ranker() }) },
 *   { catalogue, longQueries, keywordQueries, builds: 5, rounds: 3, coldQueries: 200 },
 * );
 * summary.wall.longP50Us.ratio; // the current ranker's p50 over the reference's
 * ```
 */
export function compareWithReference(rankers: ComparedRankers, options: ComparisonOptions) {
  const { catalogue, longQueries, keywordQueries } = options;
  const gc = collector();
  const wall = { build: [[], []], first: [[], []], cold: [[], []] } as Record<Kind, [number[], number[]]>;
  const cpu = { build: [[], []], first: [[], []], cold: [[], []] } as Record<Kind, [number[], number[]]>;
  const makers = [rankers.reference, rankers.current];
  const cold = longQueries.slice(0, options.coldQueries);
  for (let b = 0; b < options.builds; b++) {
    // ABBA: the one built second in a turn goes first in the next.
    for (const which of b % 2 ? [1, 0] : [0, 1]) {
      gc();
      let index: Index | undefined;
      const timed = (kind: Kind, run: () => void, per = 1) => {
        const c0 = process.cpuUsage();
        const start = performance.now();
        run();
        wall[kind][which]!.push((performance.now() - start) / per);
        const c = process.cpuUsage(c0);
        cpu[kind][which]!.push((c.user + c.system) / 1000 / per);
      };
      timed('build', () => {
        index = makers[which]!(catalogue);
      });
      timed('first', () => index!.search(longQueries[(b * 37) % longQueries.length]!));
      timed(
        'cold',
        () => {
          for (const q of cold) index!.search(q);
        },
        Math.max(1, cold.length),
      );
    }
  }
  gc();
  const warm = [rankers.reference(catalogue), rankers.current(catalogue), rankers.bm25(catalogue)];
  const long = inTurns(warm, longQueries, options.rounds);
  const keyword = inTurns(warm, keywordQueries, options.rounds);
  const names = ['reference', 'current', 'plain BM25'];
  const rows: ResultRow[] = [
    ...KINDS.flatMap((kind) => [0, 1].map((w) => rowFrom(`${TASKS[kind]} (${names[w]}, in turns)`, wall[kind][w]!))),
    ...long.wall.map((t, w) => rowFrom(`long request, warm index (${names[w]}, in turns)`, t)),
    ...keyword.wall.map((t, w) => rowFrom(`keyword query, warm index (${names[w]}, in turns)`, t)),
  ];
  const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  const compared = (times: readonly (readonly number[])[], unit: number): Compared => {
    const reference = median(times[0]!) * unit;
    const current = median(times[1]!) * unit;
    return { reference: round(reference, 1), current: round(current, 1), ratio: round(current / reference, 2) };
  };
  const fastest = (times: readonly (readonly number[])[], unit: number): Compared => {
    const reference = Math.min(...times[0]!) * unit;
    const current = Math.min(...times[1]!) * unit;
    return { reference: round(reference, 1), current: round(current, 1), ratio: round(current / reference, 2) };
  };
  const withBm25 = (times: readonly (readonly number[])[], unit: number) => ({
    ...compared(times, unit),
    plainBm25: round(median(times[2]!) * unit, 1),
  });
  return {
    rows,
    summary: {
      // Wall-clock medians: what a caller waits.
      wall: {
        buildMs: compared(wall.build, 1),
        firstSearchMs: compared(wall.first, 1),
        firstPassUsPerQuery: compared(wall.cold, 1000),
        longP50Us: withBm25(long.wall, 1000),
        keywordP50Us: withBm25(keyword.wall, 1000),
      },
      // The process's CPU time, medians (per query: of blocks of 51): on a machine shared with
      // other work, the time this process ran, not the time it waited for a core.
      cpu: {
        buildMs: compared(cpu.build, 1),
        firstSearchMs: compared(cpu.first, 1),
        firstPassUsPerQuery: compared(cpu.cold, 1000),
        longUs: withBm25(long.cpu, 1000),
        keywordUs: withBm25(keyword.cpu, 1000),
      },
      // The fastest of the builds and first searches (wall): what load moves least.
      fastest: {
        buildMs: fastest(wall.build, 1),
        firstSearchMs: fastest(wall.first, 1),
        firstPassUsPerQuery: fastest(wall.cold, 1000),
      },
      turns: { builds: options.builds, rounds: options.rounds, coldQueries: options.coldQueries },
    },
  };
}

type Kind = 'build' | 'first' | 'cold';
const KINDS: readonly Kind[] = ['build', 'first', 'cold'];

const TASKS = {
  build: 'createToolIndex',
  first: 'first search of a new index',
  cold: 'first pass over requests, per query',
} as const;

/**
 * Per-query wall times of each index, and per-query CPU times (of each block), the queries taken
 * in blocks of 51, each block by every index in turn.
 */
function inTurns(indexes: readonly Index[], queries: readonly string[], rounds: number) {
  for (const index of indexes) for (const q of queries) index.search(q);
  const wall = indexes.map(() => [] as number[]);
  const cpu = indexes.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let s = 0; s < queries.length; s += 51) {
      const block = queries.slice(s, s + 51);
      indexes.forEach((index, w) => {
        const c0 = process.cpuUsage();
        for (const q of block) {
          const start = performance.now();
          index.search(q);
          wall[w]!.push(performance.now() - start);
        }
        const c = process.cpuUsage(c0);
        cpu[w]!.push((c.user + c.system) / 1000 / block.length);
      });
    }
  }
  return { wall, cpu };
}

/**
 * A full garbage collection, where the runtime allows one to be asked for (V8's `gc`, exposed by
 * flag at run time), else nothing.
 */
function collector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return gc as () => void;
  } catch {
    // No gc to ask for: builds then share the collector's work unevenly, in both directions.
  }
  return () => {};
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
