import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { contentToText, createSession, defineFamily, type Family, type Session } from '@toolshed/core';
import { toolSearch, type DeferralMode } from '@toolshed/toolsearch';
import { resolveParams, type BenchSuite, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { loadStableToolBench } from './_search_stabletoolbench.ts';
import { loadBuiltinFamilies } from './_tokens_builtin_families.ts';
import { createTokenCounters, type TokenCounter } from './_tokens_count.ts';
import { listMcpServerTools, mcpFamily, toolsFromDefinitions } from './_tokens_mcp_catalogue.ts';

/** Sizes of {@linkcode tokenSavingsSuite}. */
export interface TokenSavingsParams {
  /** Tools of the StableToolBench catalogue (scenario c). */
  catalogueSize: number;
  /** How many tools the typical search loads. */
  searchResults: number;
  /** Whether to start the two real MCP servers for scenario b. */
  mcpServers: boolean;
  /** Share of Claude tokens scenario c must save with everything deferred, in percent. */
  goalSavedPercent: number;
}

/** Token counts of one request, per tokenizer. */
type Counts = Record<string, number>;

/** What one scenario measured. */
interface ScenarioResult {
  tools: number;
  /** `toolsFor('anthropic')` with every definition. */
  allLoaded: Counts;
  /** Per deferral mode: the request (tools + notice), what was deferred, the share saved. */
  modes: Record<
    string,
    { deferredTools: number; request: Counts; toolsOnly: Counts; notice: Counts; savedPercent: Counts }
  >;
  /** After one ToolSearch that loads `searchResults` tools (mode `always`). */
  afterSearch:
    | { query: string; loaded: string[]; request: Counts; savedPercent: Counts; searchResult: Counts }
    | undefined;
}

/**
 * Token savings of deferred loading: the tokens of `toolsFor('anthropic')` with every tool
 * definition against the deferred request (what stays loaded + ToolSearch + the deferred-tools
 * notice), for (a) the built-in families, (b) those plus two real MCP servers, (c) a catalogue
 * of StableToolBench APIs; and the request after one typical search loads three tools.
 *
 * @example
 * ```ts
 * const { summary } = await tokenSavingsSuite.run({ quick: true });
 * summary.goal; // { scenario: 'stableToolBench', savedPercent: …, target: 85, met: true }
 * ```
 */
export const tokenSavingsSuite: BenchSuite<TokenSavingsParams> = {
  name: 'token_savings',
  description:
    'Tokens of the tool definitions sent with every request: everything loaded against deferred loading with ToolSearch (Claude 2 tokenizer from @anthropic-ai/tokenizer, approximate for Claude 3+; o200k from gpt-tokenizer).',
  defaults: {
    full: { catalogueSize: 500, searchResults: 3, mcpServers: true, goalSavedPercent: 85 },
    quick: { catalogueSize: 500, searchResults: 3, mcpServers: true, goalSavedPercent: 85 },
  },
  run: runTokenSavings,
};

async function runTokenSavings(options: SuiteRunOptions<TokenSavingsParams>): Promise<SuiteOutcome> {
  const params = resolveParams(tokenSavingsSuite, options);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-tokens-'));
  const counters = createTokenCounters();
  const failures: string[] = [];
  try {
    const builtin = await loadBuiltinFamilies();
    const builtinTools = await countTools(builtin.families);
    const scenarios: Record<string, ScenarioResult> = {};

    scenarios.builtin = await measure(dir, builtin.families, 'run a shell command in the background', params, counters);

    let mcpNote = 'skipped (mcpServers: false)';
    if (params.mcpServers) {
      const listed = await listMcpServerTools();
      mcpNote = `${listed.length} tools: ${countBy(listed.map((t) => t.server))}`;
      scenarios.builtinPlusMcp = await measure(
        dir,
        [...builtin.families, mcpFamily(listed)],
        'read a text file from a directory',
        params,
        counters,
      );
    }

    const bench = await loadStableToolBench();
    const catalogue = bench.tools.slice(0, params.catalogueSize);
    const apis = defineFamily({ name: 'apis', version: '0.0.0', tools: toolsFromDefinitions(catalogue) });
    scenarios.stableToolBench = await measure(dir, [apis], 'weather forecast for a city', params, counters);

    const goal = scenarios.stableToolBench.modes.always!.savedPercent.claude!;
    if (goal < params.goalSavedPercent) {
      failures.push(
        `Deferring the ${catalogue.length}-tool catalogue saved ${goal}% of Claude tokens, below the goal of ${params.goalSavedPercent}%`,
      );
    }
    for (const [name, scenario] of Object.entries(scenarios)) {
      if (
        scenario.afterSearch &&
        scenario.afterSearch.loaded.length !== Math.min(params.searchResults, scenario.modes.always!.deferredTools)
      ) {
        failures.push(
          `In scenario "${name}" the search "${scenario.afterSearch.query}" loaded ${scenario.afterSearch.loaded.length} tools, expected ${params.searchResults}`,
        );
      }
    }

    return {
      results: [],
      summary: {
        tokenizers: Object.fromEntries(counters.map((c) => [c.name, c.note])),
        counted:
          'JSON.stringify(session.toolsFor("anthropic")) plus, for deferred requests, session.deferredNotice() (the system-prompt text); the API adds its own fixed tool-use preamble to both, not counted',
        scenarios: {
          builtin: `(a) the built-in families as they are now: ${builtinTools} tools declared${builtin.problems.length ? `; ${builtin.problems.join('; ')}` : ''}`,
          builtinPlusMcp: `(b) (a) plus @modelcontextprotocol/server-everything and server-filesystem over stdio: ${mcpNote}`,
          stableToolBench: `(c) the first ${catalogue.length} StableToolBench APIs as tools (name, description, JSON Schema of the parameters)`,
        },
        modes:
          'always: every tool but ToolSearch deferred (the deferred request); auto: the default policy (shouldDefer and MCP tools, then the largest until the rest is under 10% of a 200 000-token window)',
        ...scenarios,
        goal: {
          scenario: 'stableToolBench',
          mode: 'always',
          tokenizer: 'claude',
          savedPercent: goal,
          target: params.goalSavedPercent,
          met: goal >= params.goalSavedPercent,
        },
      },
      failures,
    };
  } finally {
    for (const c of counters) c.free();
    await rm(dir, { recursive: true, force: true });
  }
}

async function countTools(families: readonly Family[]): Promise<number> {
  let n = 0;
  for (const family of families) n += (family.tools ?? family.manifest ?? []).length;
  return n;
}

function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

async function measure(
  dir: string,
  families: readonly Family[],
  query: string,
  params: TokenSavingsParams,
  counters: readonly TokenCounter[],
): Promise<ScenarioResult> {
  const count = (text: string): Counts => Object.fromEntries(counters.map((c) => [c.name, c.count(text)]));
  const sum = (a: Counts, b: Counts): Counts => Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! + b[k]!]));
  const saved = (part: Counts, whole: Counts): Counts =>
    Object.fromEntries(Object.keys(whole).map((k) => [k, whole[k] ? round(100 * (1 - part[k]! / whole[k]!), 1) : 0]));
  const sessions: Session[] = [];
  const open = async (extra: Family[]) => {
    const session = await createSession({
      cwd: dir,
      stateDir: path.join(dir, `state-${sessions.length}`),
      families: [...families, ...extra],
    });
    sessions.push(session);
    return session;
  };
  try {
    const all = await open([]);
    const allTools = all.toolsFor('anthropic');
    const allLoaded = count(JSON.stringify(allTools));
    const result: ScenarioResult = { tools: allTools.length, allLoaded, modes: {}, afterSearch: undefined };
    for (const mode of ['always', 'auto'] as DeferralMode[]) {
      const session = await open([toolSearch({ mode })]);
      const toolsOnly = count(JSON.stringify(session.toolsFor('anthropic')));
      const notice = count(session.deferredNotice());
      const request = sum(toolsOnly, notice);
      result.modes[mode] = {
        deferredTools: session.catalog().filter((e) => e.deferred).length,
        request,
        toolsOnly,
        notice,
        savedPercent: saved(request, allLoaded),
      };
      if (mode === 'always' && result.modes[mode]!.deferredTools > 0) {
        const [found] = await session.run([
          { type: 'tool_use', id: 'search_1', name: 'ToolSearch', input: { query, max_results: params.searchResults } },
        ]);
        const text = contentToText(found!.content);
        const after = sum(count(JSON.stringify(session.toolsFor('anthropic'))), count(session.deferredNotice()));
        result.afterSearch = {
          query,
          loaded: session
            .catalog()
            .filter((e) => e.loaded)
            .map((e) => e.name),
          request: after,
          savedPercent: saved(after, allLoaded),
          searchResult: count(text),
        };
      }
    }
    return result;
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
