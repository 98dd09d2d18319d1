import type { BenchSuite } from './_suite.ts';
import { fsEditSuite } from './fs_edit_bench.ts';
import { agentLoopSuite } from './agent_loop_bench.ts';
import { cliStartupSuite } from './cli_startup_bench.ts';
import { fsGlobSuite } from './fs_glob_bench.ts';
import { fsGrepSuite } from './fs_grep_bench.ts';
import { mcpBridgeSuite } from './mcp_bench.ts';
import { parallelSchedulingSuite } from './parallel_scheduling_bench.ts';
import { pipelineGrowthSuite } from './pipeline_growth_bench.ts';
import { pipelineOverheadSuite } from './pipeline_overhead_bench.ts';
import { resultPersistenceSuite } from './result_persistence_bench.ts';
import { searchLatencySuite } from './search_latency_bench.ts';
import { searchQualitySuite } from './search_quality_bench.ts';
import { shellSuite } from './shell_bench.ts';
import { tokenSavingsSuite } from './token_savings_bench.ts';
import { webSuite } from './web_bench.ts';

/**
 * Every suite, in the order `pnpm bench` runs them. A new `*_bench.ts` joins here.
 *
 * @example
 * ```ts
 * for (const suite of SUITES) console.log(`${suite.name}: ${suite.description}`);
 * ```
 */
// Suites differ in their parameter types; `run` is a method, so `BenchSuite<object>` takes each one.
export const SUITES: readonly BenchSuite<object>[] = [
  pipelineOverheadSuite,
  parallelSchedulingSuite,
  fsGrepSuite,
  fsGlobSuite,
  shellSuite,
  webSuite,
  searchQualitySuite,
  tokenSavingsSuite,
  searchLatencySuite,
  mcpBridgeSuite,
  resultPersistenceSuite,
  fsEditSuite,
  pipelineGrowthSuite,
  agentLoopSuite,
  cliStartupSuite,
];

/**
 * Finds a suite by name; the file name (`pipeline_overhead_bench`) is accepted too.
 *
 * @param name The suite's name.
 * @returns The suite, or undefined.
 *
 * @example
 * ```ts
 * findSuite('pipeline_overhead')?.description;
 * ```
 */
export function findSuite(name: string): BenchSuite<object> | undefined {
  const bare = name.replace(/(_bench)?(\.ts)?$/, '');
  return SUITES.find((s) => s.name === bare);
}
