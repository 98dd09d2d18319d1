import type { SuiteRecord } from './_suite.ts';

/** A Vega-Lite spec, as plain JSON. */
export type VegaLiteSpec = Record<string, unknown>;

/** One chart of the report: its file, title, the suites it is made from, and how to make it. */
export interface ChartDef {
  /** The SVG's file name beside `report.md`. */
  file: string;
  title: string;
  /** The suites whose JSON it reads. */
  suites: readonly string[];
  /** The spec (without title) and a one-line reading, or undefined when the JSON lacks the figures. */
  make(records: Readonly<Record<string, SuiteRecord | undefined>>): { spec: VegaLiteSpec; reading: string } | undefined;
}

type Obj = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => obj(o)?.[k], v);

const WIDTH = 460;

/**
 * The charts of `report.md`: tokens per persistence policy, parallel speed-up against the ideal,
 * pipeline overhead per call, Grep/Glob against ripgrep, search quality against BM25, and the cost
 * of the request against the pool's size. Each reads the `summary` (or `results`) of its suites'
 * JSON and gives up (undefined) when the figures it needs are missing.
 *
 * @example
 * ```ts
 * for (const chart of CHARTS) chart.make(records)?.spec;
 * ```
 */
export const CHARTS: readonly ChartDef[] = [
  {
    file: 'tokens_per_policy.svg',
    title: 'Tokens sent to the model per result policy',
    suites: ['result_persistence'],
    make(records) {
      const policies = obj(at(records.result_persistence, 'summary', 'policies'));
      if (!policies) return undefined;
      const values = Object.entries(policies).flatMap(([policy, p]) => {
        const tokens = num(at(p, 'totalTokens'));
        const recall = num(at(p, 'recall'));
        return tokens === undefined || recall === undefined
          ? []
          : [
              {
                policy,
                tokens,
                label: `${tokens.toLocaleString('en-US')} tokens, recall ${(recall * 100).toFixed(1)}%`,
                full: recall === 1 ? 'all needles recalled' : 'needles lost',
              },
            ];
      });
      if (values.length === 0) return undefined;
      const best = values.filter((v) => v.full === 'all needles recalled').sort((a, b) => a.tokens - b.tokens)[0];
      const order = [...values].sort((a, b) => a.tokens - b.tokens).map((v) => v.policy);
      return {
        spec: {
          data: { values },
          width: WIDTH,
          layer: [
            {
              mark: { type: 'bar' },
              encoding: {
                y: { field: 'policy', type: 'nominal', sort: order, title: null },
                x: {
                  field: 'tokens',
                  type: 'quantitative',
                  title: 'tokens sent over the session (Claude 2 tokenizer)',
                  // Room for the labels right of the longest bar.
                  scale: { domainMax: Math.max(...values.map((v) => v.tokens)) * 1.6 },
                },
                color: {
                  field: 'full',
                  type: 'nominal',
                  title: 'needle recall',
                  scale: { domain: ['all needles recalled', 'needles lost'], range: ['#4c78a8', '#e45756'] },
                  legend: { orient: 'bottom', labelLimit: 300 },
                },
              },
            },
            {
              mark: { type: 'text', align: 'left', dx: 4 },
              encoding: {
                y: { field: 'policy', type: 'nominal', sort: order },
                x: { field: 'tokens', type: 'quantitative' },
                text: { field: 'label' },
              },
            },
          ],
        },
        reading: best
          ? `Fewest tokens with every needle recalled: ${best.policy} (${best.tokens.toLocaleString('en-US')} tokens).`
          : 'No policy recalled every needle.',
      };
    },
  },
  {
    file: 'parallel_speedup.svg',
    title: 'Parallel speed-up against the ideal',
    suites: ['parallel_scheduling'],
    make(records) {
      const s = at(records.parallel_scheduling, 'summary');
      const rows = [
        {
          run: `unbounded (${num(at(s, 'calls')) ?? '?'} calls)`,
          measured: num(at(s, 'speedup')),
          ideal: num(at(s, 'idealSpeedup')),
        },
        {
          run: `concurrency ${num(at(s, 'boundedConcurrency')) ?? '?'}`,
          measured: num(at(s, 'boundedSpeedup')),
          ideal: num(at(s, 'boundedIdealSpeedup')),
        },
      ].filter((r) => r.measured !== undefined && r.ideal !== undefined);
      if (rows.length === 0) return undefined;
      const values = rows.flatMap((r) => [
        { run: r.run, kind: 'measured', speedup: r.measured },
        { run: r.run, kind: 'ideal', speedup: r.ideal },
      ]);
      return {
        spec: {
          data: { values },
          width: WIDTH,
          mark: 'bar',
          encoding: {
            y: { field: 'run', type: 'nominal', title: null },
            yOffset: { field: 'kind' },
            x: { field: 'speedup', type: 'quantitative', title: 'speed-up over one call at a time (×)' },
            color: {
              field: 'kind',
              type: 'nominal',
              title: null,
              scale: { domain: ['measured', 'ideal'], range: ['#4c78a8', '#bab0ac'] },
            },
          },
        },
        reading: rows.map((r) => `${r.run}: ${r.measured}× (ideal ${r.ideal}×)`).join('; '),
      };
    },
  },
  {
    file: 'pipeline_overhead.svg',
    title: 'Pipeline overhead per call',
    suites: ['pipeline_overhead'],
    make(records) {
      const results = records.pipeline_overhead?.results ?? [];
      const values = results
        .filter((r) => num(r.p50Ms) !== undefined)
        .map((r) => ({ task: r.task, us: Math.round(r.p50Ms * 1000 * 100) / 100 }));
      if (values.length === 0) return undefined;
      return {
        spec: {
          data: { values },
          width: WIDTH,
          mark: 'bar',
          encoding: {
            y: { field: 'task', type: 'nominal', sort: null, title: null, axis: { labelLimit: 320 } },
            x: { field: 'us', type: 'quantitative', title: 'median µs per call' },
          },
        },
        reading: `Overhead of the pipeline: ${num(at(records.pipeline_overhead, 'summary', 'overheadUsPerCall')) ?? '?'} µs per call (mean).`,
      };
    },
  },
  {
    file: 'grep_glob_vs_ripgrep.svg',
    title: 'Grep and Glob against ripgrep and fast-glob',
    suites: ['fs_grep', 'fs_glob'],
    make(records) {
      const values = (['fs_grep', 'fs_glob'] as const).flatMap((suite) =>
        (records[suite]?.results ?? [])
          .filter((r) => num(r.meanMs) !== undefined)
          .map((r) => ({ suite, task: r.task, ms: r.meanMs })),
      );
      if (values.length === 0) return undefined;
      const grep = num(at(records.fs_grep, 'summary', 'grepOverRg'));
      const glob = num(at(records.fs_glob, 'summary', 'globOverFastGlob'));
      return {
        spec: {
          data: { values },
          width: WIDTH,
          mark: 'bar',
          encoding: {
            y: { field: 'task', type: 'nominal', sort: null, title: null, axis: { labelLimit: 320 } },
            x: { field: 'ms', type: 'quantitative', title: 'mean ms per search' },
            color: { field: 'suite', type: 'nominal', title: null },
          },
        },
        reading: `Grep (ripgrep engine) over rg -l: ${grep ?? '?'}×; Glob over fast-glob: ${glob ?? '?'}×.`,
      };
    },
  },
  {
    file: 'search_quality.svg',
    title: 'ToolSearch ranking against plain BM25',
    suites: ['search_quality'],
    make(records) {
      const s = at(records.search_quality, 'summary');
      const metrics = [
        ['recallAt5', 'Recall@5'],
        ['ndcgAt10', 'NDCG@10'],
        ['mrrAt10', 'MRR@10'],
      ] as const;
      const values = metrics
        .flatMap(([key, label]) => [
          { metric: label, ranker: 'Toolshed', value: num(at(s, 'default', key)) },
          { metric: label, ranker: 'BM25', value: num(at(s, 'baseline', key)) },
        ])
        .filter((v) => v.value !== undefined);
      if (values.length === 0) return undefined;
      return {
        spec: {
          data: { values },
          width: WIDTH,
          mark: 'bar',
          encoding: {
            y: { field: 'metric', type: 'nominal', title: null },
            yOffset: { field: 'ranker' },
            x: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: null },
            color: {
              field: 'ranker',
              type: 'nominal',
              title: null,
              scale: { domain: ['Toolshed', 'BM25'], range: ['#4c78a8', '#bab0ac'] },
            },
          },
        },
        reading: `Recall@5 ${num(at(s, 'default', 'recallAt5')) ?? '?'} against BM25's ${num(at(s, 'baseline', 'recallAt5')) ?? '?'}.`,
      };
    },
  },
  {
    file: 'cost_vs_pool_size.svg',
    title: 'Request tokens against the size of the pool',
    suites: ['token_savings'],
    make(records) {
      const s = at(records.token_savings, 'summary');
      const values = ['builtin', 'builtinPlusMcp', 'stableToolBench'].flatMap((scenario) => {
        const tools = num(at(s, scenario, 'tools'));
        if (tools === undefined) return [];
        return [
          { tools, scenario, request: 'every tool loaded', tokens: num(at(s, scenario, 'allLoaded', 'claude')) },
          {
            tools,
            scenario,
            request: 'deferred (always)',
            tokens: num(at(s, scenario, 'modes', 'always', 'request', 'claude')),
          },
          {
            tools,
            scenario,
            request: 'deferred (auto)',
            tokens: num(at(s, scenario, 'modes', 'auto', 'request', 'claude')),
          },
        ].filter((v) => v.tokens !== undefined);
      });
      if (values.length === 0) return undefined;
      return {
        spec: {
          data: { values },
          width: WIDTH,
          mark: { type: 'line', point: true },
          encoding: {
            x: { field: 'tools', type: 'quantitative', scale: { type: 'log' }, title: 'tools in the pool' },
            y: {
              field: 'tokens',
              type: 'quantitative',
              scale: { type: 'log' },
              title: 'request tokens (Claude 2 tokenizer)',
            },
            color: { field: 'request', type: 'nominal', title: null },
          },
        },
        reading: `With 500 tools: ${num(at(s, 'stableToolBench', 'allLoaded', 'claude')) ?? '?'} tokens loaded, ${num(at(s, 'stableToolBench', 'modes', 'always', 'request', 'claude')) ?? '?'} deferred.`,
      };
    },
  },
];
