import { Bench } from 'tinybench';
import { bm25Ranker, createToolIndex, lexicalRanker, type ToolIndex, type ToolRanker } from '@toolshed/toolsearch';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { meanScores, pairedBootstrap, retrievalScores, type RetrievalScores } from './_search_metrics.ts';
import { loadSearchSets, type SearchSet } from './_search_sets.ts';
import type { BenchQuery } from './_search_stabletoolbench.ts';
import { taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode searchQualitySuite}. */
export interface SearchQualityParams {
  /** Use only the first this many queries (0: all 765). */
  maxQueries: number;
  /** Recall@5 the default ranker must reach on StableToolBench, as a multiple of the baseline's. */
  goalRecallRatio: number;
  /** Recall@5 the default ranker must reach on each single-need set, as a multiple of the baseline's. */
  goalSingleNeedRatio: number;
  /** Measuring time of each search-speed task, in milliseconds. */
  timeMs: number;
  /** Also score the held-out catalogue (two real MCP servers + the built-in families; starts the servers). */
  heldOut: boolean;
}

const TASK_DEFAULT = 'search, default ranker (one StableToolBench query)';
const TASK_BASELINE = 'search, plain BM25 baseline (one StableToolBench query)';

/**
 * Search quality on every set (see `loadSearchSets`): StableToolBench's solvable queries (G1–G3,
 * 765 queries over a pooled corpus of about 2 480 tools), the `mcp_tasks` task statements and
 * single needs over 203 tools of 15 real MCP servers, MetaTool's 199 plugins with its single-tool
 * and two-tool queries, and the held-out catalogue. Per set:
 * Recall@5, NDCG@10 and MRR@10 of the default ranker against a plain BM25 baseline computed in
 * the same run, with a paired bootstrap interval of each difference, and the same scores for
 * each part of the ranker switched off. The rankers see name, description and JSON Schema.
 *
 * @example
 * ```ts
 * const { summary } = await searchQualitySuite.run({ quick: true });
 * summary.recallAt5Ratio; // default ranker's Recall@5 over the baseline's
 * ```
 */
export const searchQualitySuite: BenchSuite<SearchQualityParams> = {
  name: 'search_quality',
  description:
    "Recall@5, NDCG@10 and MRR@10 of ToolSearch's default ranker against plain BM25, with paired bootstrap intervals, on StableToolBench, the mcp_tasks set (task statements and single needs over 15 real MCP servers), MetaTool (199 plugins, single-tool and two-tool queries) and the held-out catalogue.",
  defaults: {
    full: { maxQueries: 0, goalRecallRatio: 1.1, goalSingleNeedRatio: 1.15, timeMs: 1000, heldOut: true },
    quick: { maxQueries: 0, goalRecallRatio: 1.1, goalSingleNeedRatio: 1.15, timeMs: 200, heldOut: true },
  },
  run: runSearchQuality,
};

async function runSearchQuality(options: SuiteRunOptions<SearchQualityParams>): Promise<SuiteOutcome> {
  const params = resolveParams(searchQualitySuite, options);
  const { sets, skipped } = await loadSearchSets({ heldOut: params.heldOut, maxQueries: params.maxQueries });
  const stb = sets.find((s) => s.name === 'stabletoolbench')!;
  if (stb.queries.length === 0) throw new Error('StableToolBench gave no queries with relevant tools');
  const queries = stb.queries;

  const started = performance.now();
  const defaultIndex = createToolIndex(stb.tools, { ranker: lexicalRanker() });
  const defaultBuildMs = performance.now() - started;
  const baselineStarted = performance.now();
  const baselineIndex = createToolIndex(stb.tools, { ranker: bm25Ranker() });
  const baselineBuildMs = performance.now() - baselineStarted;

  const evaluate = (index: ToolIndex, on: readonly BenchQuery[]) =>
    on.map((q) =>
      retrievalScores(
        index.search(q.query, { maxResults: 10 }).map((h) => h.name),
        q.relevant,
      ),
    );
  const failures: string[] = [];

  // Every set, the default against plain BM25 in the same run, with a paired bootstrap interval
  // of each difference: a set of 28 queries says less than one of 765, and the interval says how much.
  const perSet: Record<string, unknown> = {};
  const scoresBySet = new Map<string, { ours: RetrievalScores[]; base: RetrievalScores[] }>();
  for (const set of sets) {
    const ours =
      set === stb
        ? evaluate(defaultIndex, queries)
        : evaluate(createToolIndex(set.tools, { ranker: lexicalRanker() }), set.queries);
    const base =
      set === stb
        ? evaluate(baselineIndex, queries)
        : evaluate(createToolIndex(set.tools, { ranker: bm25Ranker() }), set.queries);
    scoresBySet.set(set.name, { ours, base });
    const o = rounded(meanScores(ours));
    const b = rounded(meanScores(base));
    const intervals = Object.fromEntries(
      METRICS.map((m) => {
        const ci = pairedBootstrap(
          ours.map((x) => x[m]),
          base.map((x) => x[m]),
        );
        return [m, { difference: round(ci.difference, 4), low: round(ci.low, 4), high: round(ci.high, 4) }];
      }),
    ) as Record<keyof RetrievalScores, { difference: number; low: number; high: number }>;
    const ratio = Object.fromEntries(METRICS.map((m) => [m, b[m] > 0 ? round(o[m] / b[m], 3) : null]));
    const wins = ours.filter((x, i) => x.recallAt5 > base[i]!.recallAt5).length;
    const losses = ours.filter((x, i) => x.recallAt5 < base[i]!.recallAt5).length;
    const atOrAbove = METRICS.every((m) => intervals[m].low >= -0.01);
    const singleGoal = set.kind === 'single' ? (ratio['recallAt5'] ?? 0) >= params.goalSingleNeedRatio : true;
    // A ratio of recalls cannot pass 1 / the baseline's: where BM25 already finds 91 %, 1.15× is
    // out of reach for any ranker. The share of the baseline's misses still missed says the rest.
    const ceiling = b.recallAt5 > 0 ? round(1 / b.recallAt5, 3) : null;
    const missRatio = b.recallAt5 < 1 ? round((1 - o.recallAt5) / (1 - b.recallAt5), 3) : null;
    perSet[set.name] = {
      kind: set.kind,
      split: set.split,
      source: set.source,
      note: set.note,
      tools: set.tools.length,
      queries: set.queries.length,
      default: o,
      baseline: b,
      ratio,
      recallAt5RatioCeiling: ceiling,
      recallAt5MissRatio: missRatio,
      differenceInterval95: intervals,
      perQueryRecallAt5: { defaultBetter: wins, baselineBetter: losses, same: set.queries.length - wins - losses },
      goals: { atOrAboveBaseline: atOrAbove, ...(set.kind === 'single' ? { singleNeedRecallRatio: singleGoal } : {}) },
    };
    for (const m of METRICS) {
      if (intervals[m].low < -0.01)
        failures.push(
          `On ${set.name} the default ranker may be below BM25 on ${m}: difference ${intervals[m].difference}, 95 % interval [${intervals[m].low}, ${intervals[m].high}] reaches below −0.01`,
        );
    }
    if (!singleGoal)
      failures.push(
        `On ${set.name} (single needs) Recall@5 is ${ratio['recallAt5']}× BM25's (${o.recallAt5} against ${b.recallAt5}), below ${params.goalSingleNeedRatio}×${ceiling !== null && ceiling < params.goalSingleNeedRatio ? ` (out of reach on this set: BM25 already finds ${b.recallAt5}, so no ranker can pass ${ceiling}×; ours misses ${missRatio}× BM25's misses)` : ''}`,
      );
  }

  const overall = {
    default: rounded(meanScores(scoresBySet.get('stabletoolbench')!.ours)),
    baseline: rounded(meanScores(scoresBySet.get('stabletoolbench')!.base)),
  };
  const ratio = round(overall.default.recallAt5 / overall.baseline.recallAt5, 3);
  const ours = scoresBySet.get('stabletoolbench')!.ours;
  const base = scoresBySet.get('stabletoolbench')!.base;
  const byGroup: Record<string, { queries: number; default: RetrievalScores; baseline: RetrievalScores }> = {};
  for (const group of [...new Set(queries.map((q) => q.group))]) {
    const pick = (scores: RetrievalScores[]) => scores.filter((_, i) => queries[i]!.group === group);
    byGroup[group] = {
      queries: pick(ours).length,
      default: rounded(meanScores(pick(ours))),
      baseline: rounded(meanScores(pick(base))),
    };
  }

  // Each part of the ranker switched off or changed, on every set: no weight is chosen on one
  // set without its effect on the others in view.
  const variants: Record<string, () => ToolRanker> = {
    default: () => lexicalRanker(),
    'no group match (groupWeight 0)': () => lexicalRanker({ groupWeight: 0 }),
    'coverage re-ordering on every query (diversityMinRequests 0)': () => lexicalRanker({ diversityMinRequests: 0 }),
    'no coverage re-ordering (diversity 0)': () => lexicalRanker({ diversity: 0 }),
    'no phrases (phraseWeight 0)': () => lexicalRanker({ phraseWeight: 0 }),
    'phrases 0.5': () => lexicalRanker({ phraseWeight: 0.5 }),
    'no feedback (feedbackWeight 0)': () => lexicalRanker({ feedbackWeight: 0 }),
    'sibling lift 0.3 (siblingWeight)': () => lexicalRanker({ siblingWeight: 0.3 }),
    'no verb synonyms (synonymWeight 0)': () => lexicalRanker({ synonymWeight: 0 }),
    'no words as written (surfaceWeight 0)': () => lexicalRanker({ surfaceWeight: 0 }),
    'words as written 0.5 (surfaceWeight)': () => lexicalRanker({ surfaceWeight: 0.5 }),
    'description read whole (descriptionRest 1)': () => lexicalRanker({ fieldWeights: { descriptionRest: 1 } }),
    'description after its first sentence 0.25 (descriptionRest)': () =>
      lexicalRanker({ fieldWeights: { descriptionRest: 0.25 } }),
    'no keyword points (keywordWeight 0)': () => lexicalRanker({ keywordWeight: 0 }),
    'standard BM25 k1 1.2': () => lexicalRanker({ k1: 1.2 }),
    'before issue 19 (re-ordering always, no phrases, no feedback, no verb synonyms, no words as written, description read whole)':
      () =>
        lexicalRanker({
          fieldWeights: { descriptionRest: 1 },
          diversityMinRequests: 0,
          phraseWeight: 0,
          feedbackWeight: 0,
          synonymWeight: 0,
          surfaceWeight: 0,
        }),
    'plain BM25 baseline': () => bm25Ranker(),
  };
  const ablation: Record<string, Record<string, RetrievalScores & { split: SearchSet['split'] }>> = {};
  for (const [label, make] of Object.entries(variants)) {
    ablation[label] = {};
    for (const set of sets) {
      const known = scoresBySet.get(set.name)!;
      const scores =
        label === 'default'
          ? known.ours
          : label === 'plain BM25 baseline'
            ? known.base
            : evaluate(createToolIndex(set.tools, { ranker: make() }), set.queries);
      ablation[label]![set.name] = { split: set.split, ...rounded(meanScores(scores)) };
    }
  }

  const bench = new Bench({
    name: searchQualitySuite.name,
    time: params.timeMs,
    iterations: 50,
    warmupTime: Math.min(100, params.timeMs),
    warmupIterations: 10,
    throws: true,
  });
  bench.add(
    TASK_DEFAULT,
    cycling(queries, (q) => defaultIndex.search(q.query)),
  );
  bench.add(
    TASK_BASELINE,
    cycling(queries, (q) => baselineIndex.search(q.query)),
  );
  const rows = (await bench.run()).map((task) => taskRow(task));

  if (ratio < params.goalRecallRatio) {
    failures.push(
      `On StableToolBench the default ranker's Recall@5 is ${ratio}× the baseline's (${overall.default.recallAt5} against ${overall.baseline.recallAt5}), below the goal of ${params.goalRecallRatio}×`,
    );
  }
  return {
    results: rows,
    summary: {
      corpus: { source: stb.source, tools: stb.tools.length, queries: queries.length },
      rankers: {
        default:
          'lexicalRanker(): Claude Code keyword points (name 10 / MCP 12, partial 5 / 6, hint 4, description 2) weighted by idf + field-weighted BM25 (k1 2, b 0.75; the description after its first sentence at half weight) + the same BM25 over the words as written, unstemmed (weight 0.25) + for a query of fewer than 8 content words, words naming the same operation as a query verb that is not a past participle (remove → delete, store → create; weight 0.5) + word pairs in order (BM25, weight 0.25) + group BM25 (weight 0.5) + for a one-request task statement (8+ words) RM3-style feedback from the best 3 tools (10 words, weight 0.2) + for a list of requests (2+ sentences or "also") coverage re-ordering of the best 30',
        baseline:
          'bm25Ranker(): plain BM25 (k1 1.2, b 0.75) over name + description + parameter names, lower-case words, English stopwords dropped, no stemming',
      },
      sets: perSet,
      splits: {
        dev: sets.filter((x) => x.split === 'dev').map((x) => x.name),
        'held-out': sets.filter((x) => x.split === 'held-out').map((x) => x.name),
      },
      skippedSets: skipped,
      ...overall,
      recallAt5Ratio: ratio,
      goal: { recallAt5Ratio: params.goalRecallRatio, met: ratio >= params.goalRecallRatio },
      perQuery: {
        defaultBetter: ours.filter((s, i) => s.recallAt5 > base[i]!.recallAt5).length,
        baselineBetter: ours.filter((s, i) => s.recallAt5 < base[i]!.recallAt5).length,
      },
      byGroup,
      ablation,
      indexBuildMs: { default: round(defaultBuildMs, 1), baseline: round(baselineBuildMs, 1) },
    },
    failures,
  };
}

const METRICS = ['recallAt5', 'ndcgAt10', 'mrrAt10'] as const;

/** A task that searches the next query on each call, so every query is timed in turn. */
function cycling(queries: readonly BenchQuery[], search: (q: BenchQuery) => unknown): () => void {
  let i = 0;
  return () => {
    search(queries[i]!);
    i = (i + 1) % queries.length;
  };
}

function rounded(s: RetrievalScores): RetrievalScores {
  return { recallAt5: round(s.recallAt5, 4), ndcgAt10: round(s.ndcgAt10, 4), mrrAt10: round(s.mrrAt10, 4) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
