import type { SearchableTool } from '@toolshed/toolsearch';
import { loadHeldOutCatalogue } from './_search_held_out.ts';
import { loadMcpTasks } from './_search_mcp_tasks.ts';
import { loadMetaTool } from './_search_metatool.ts';
import { loadStableToolBench, type BenchQuery } from './_search_stabletoolbench.ts';

/** One catalogue with its queries, as search_quality scores it. */
export interface SearchSet {
  name: string;
  /** `single`: each query states one need (the 1.15× goal applies); `multi`: several tools per query. */
  kind: 'single' | 'multi';
  /**
   * `dev`: the ranker's defaults were chosen looking at this set's scores; `held-out`: written
   * before any ranking run and never tuned on, so its figures say how the ranking generalises.
   */
  split: 'dev' | 'held-out';
  source: string;
  /** How the queries came about, for the record. */
  queries: BenchQuery[];
  tools: SearchableTool[];
  note: string;
}

/**
 * Every development and held-out set of search_quality: StableToolBench (lists of distinct
 * APIs), `mcp_tasks` task statements and single needs (real MCP servers), MetaTool's plugin
 * catalogue with its single-tool and two-tool queries, and the held-out catalogue (two
 * reference MCP servers and the built-in families; starts the servers).
 *
 * @param options `heldOut: false` leaves out the set that starts servers; `maxQueries` cuts StableToolBench.
 * @returns The sets, and a reason for each one that could not be loaded.
 *
 * @example
 * ```ts
 * const { sets } = await loadSearchSets({ heldOut: true });
 * ```
 */
export async function loadSearchSets(
  options: { heldOut?: boolean; maxQueries?: number } = {},
): Promise<{ sets: SearchSet[]; skipped: Record<string, string> }> {
  const sets: SearchSet[] = [];
  const skipped: Record<string, string> = {};
  const stb = await loadStableToolBench();
  sets.push({
    name: 'stabletoolbench',
    kind: 'multi',
    split: 'dev',
    source: 'StableToolBench solvable queries G1–G3 (THUNLP-MT/StableToolBench aa4ed9f), pooled',
    tools: stb.tools,
    queries: options.maxQueries ? stb.queries.slice(0, options.maxQueries) : stb.queries,
    note: 'Queries list distinct APIs of one tool or category; the defaults before issue 19 were tuned here.',
  });
  const mcp = await loadMcpTasks();
  const mcpSource = `bench/data/mcp_tasks: ${mcp.tools.length} tools of ${mcp.servers.length} MCP servers from npm (tools/list)`;
  sets.push({
    name: 'mcp_tasks.multiStep',
    kind: 'multi',
    split: 'dev',
    source: mcpSource,
    tools: mcp.tools,
    queries: mcp.multiStep,
    note: 'Task statements (median 18 words) needing 2–3 tools, mostly of one server; written before any ranking run.',
  });
  sets.push({
    name: 'mcp_tasks.singleNeed',
    kind: 'single',
    split: 'dev',
    source: mcpSource,
    tools: mcp.tools,
    queries: mcp.singleNeed,
    note: 'Short requests for one need; written before any ranking run.',
  });
  sets.push({
    name: 'mcp_tasks.onePerTool',
    kind: 'single',
    split: 'held-out',
    source: `${mcpSource}; requests in one_need_per_tool.json`,
    tools: mcp.tools,
    queries: mcp.onePerTool,
    note: "One short request per tool (median 6 words), in the catalogue order, in a user's words; written and committed before any ranking run on it; never tuned on.",
  });
  const meta = await loadMetaTool();
  const metaSource = `bench/data/metatool: MetaTool (HowieHwong/MetaTool e1029bc, MIT), ${meta.tools.length} ChatGPT plugins (name + one-line description)`;
  sets.push({
    name: 'metatool.singleTool',
    kind: 'single',
    split: 'held-out',
    source: `${metaSource}; a seeded sample of all_clean_data.csv`,
    tools: meta.tools,
    queries: meta.singleTool,
    note: "MetaTool's single-tool queries (short questions and long restatements, median 21 words), 600 in 30 seeded runs of 20; added after the defaults were set, never tuned on.",
  });
  sets.push({
    name: 'metatool.multiTool',
    kind: 'multi',
    split: 'held-out',
    source: `${metaSource}; multi_tool_query_golden.json, the first query of each tool pair`,
    tools: meta.tools,
    queries: meta.multiTool,
    note: "MetaTool's two-tool queries, one per ordered pair of tools (154); never tuned on.",
  });
  if (options.heldOut !== false) {
    try {
      const held = await loadHeldOutCatalogue();
      sets.push({
        name: 'heldOut',
        kind: 'single',
        split: 'held-out',
        source: held.sources.join('; '),
        tools: held.tools,
        queries: held.queries,
        note: 'Written from the tool names before any ranker ran on it; never tuned on.',
      });
    } catch (e) {
      // The servers are dev dependencies of the MCP bridge; without them the other sets still answer.
      skipped['heldOut'] = `the held-out catalogue could not be built: ${(e as Error).message}`;
    }
  } else {
    skipped['heldOut'] = 'heldOut: false';
  }
  return { sets, skipped };
}
