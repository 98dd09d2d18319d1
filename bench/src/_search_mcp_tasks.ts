import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchableTool } from '@toolshed/toolsearch';
import type { BenchQuery } from './_search_stabletoolbench.ts';

/** The `mcp_tasks` development set: real MCP servers' tools and task statements. */
export interface McpTasks {
  /** Tools named `mcp__<server>__<tool>` as the MCP bridge names them, grouped by server. */
  tools: SearchableTool[];
  /** Task statements that need two or three tools, mostly of one server. */
  multiStep: BenchQuery[];
  /** Short requests for one need. */
  singleNeed: BenchQuery[];
  /** One short request per tool, in the catalogue's order (`one_need_per_tool.json`). */
  onePerTool: BenchQuery[];
  /** The servers listed. */
  servers: string[];
}

/**
 * Where the set lives: `bench/data/mcp_tasks` (see its README for how it was made).
 *
 * @example
 * ```ts
 * await loadMcpTasks(MCP_TASKS_DIR);
 * ```
 */
export const MCP_TASKS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/mcp_tasks');

interface RawTool {
  server: string;
  name: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}
interface RawTask {
  task: string;
  tools: string[];
}

/**
 * Reads `tools.json`, `tasks.json` and `one_need_per_tool.json` of the `mcp_tasks` set.
 *
 * @param dir The data folder.
 * @returns The tools and the two kinds of queries.
 * @throws {Error} If a file is missing or not JSON, or a task names a tool the list does not hold (the message names the task and the tool).
 *
 * @example
 * ```ts
 * const { tools, multiStep } = await loadMcpTasks();
 * tools.length; // 203
 * ```
 */
export async function loadMcpTasks(dir = MCP_TASKS_DIR): Promise<McpTasks> {
  const read = async <T>(file: string): Promise<T> => {
    const full = path.join(dir, file);
    try {
      return JSON.parse(await readFile(full, 'utf8')) as T;
    } catch (e) {
      throw new Error(`Could not read the mcp_tasks file "${full}": ${(e as Error).message}`, { cause: e });
    }
  };
  const listed = await read<{ tools: RawTool[] }>('tools.json');
  const tasks = await read<{ multiStep: RawTask[]; singleNeed: RawTask[] }>('tasks.json');
  const perTool = await read<{ needs: RawTask[] }>('one_need_per_tool.json');
  const nameOf = (server: string, tool: string) =>
    `mcp__${server.replace(/[^A-Za-z0-9_-]/g, '_')}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const tools: SearchableTool[] = listed.tools.map((t) => ({
    name: nameOf(t.server, t.name),
    description: t.description,
    inputSchema: t.inputSchema,
    group: `mcp:${t.server}`,
  }));
  const byRef = new Map(listed.tools.map((t) => [`${t.server}/${t.name}`, nameOf(t.server, t.name)]));
  const queries = (kind: 'multiStep' | 'singleNeed' | 'onePerTool'): BenchQuery[] =>
    ((kind === 'onePerTool' ? perTool.needs : tasks[kind]) ?? []).map((q, i) => ({
      id: `mcp_tasks.${kind}:${i}`,
      group: `mcp_tasks.${kind}`,
      query: q.task,
      relevant: q.tools.map((ref) => {
        const name = byRef.get(ref);
        if (!name)
          throw new Error(
            `The mcp_tasks task "${q.task}" names "${ref}", which tools.json does not hold: write it as <server>/<tool>`,
          );
        return name;
      }),
    }));
  return {
    tools,
    multiStep: queries('multiStep'),
    singleNeed: queries('singleNeed'),
    onePerTool: queries('onePerTool'),
    servers: [...new Set(listed.tools.map((t) => t.server))],
  };
}
