import os from 'node:os';
import { createSession, type JsonSchema } from '@toolshed/core';
import { toolInputJsonSchema } from '@toolshed/core/internal';
import type { SearchableTool } from '@toolshed/toolsearch';
import type { BenchQuery } from './_search_stabletoolbench.ts';
import { loadBuiltinFamilies } from './_tokens_builtin_families.ts';
import { listMcpServerTools } from './_tokens_mcp_catalogue.ts';

/** A catalogue no ranker parameter was tuned on, with its queries. */
export interface HeldOutCatalogue {
  tools: SearchableTool[];
  queries: BenchQuery[];
  /** Where the tools came from, and what could not be loaded. */
  sources: string[];
  problems: string[];
}

/**
 * Queries over the held-out catalogue, each with the tools that answer it. Written from the
 * list of tool names only — before any ranker was run on this catalogue, and not edited after
 * — in the words a user or a model would use, not the words of the descriptions. A tool that is
 * one of several equally good answers (the built-in `Edit` and the filesystem server's
 * `edit_file`) is listed with the others.
 *
 * @example
 * ```ts
 * HELD_OUT_QUERIES[0]; // { query: 'run a shell command', relevant: ['Bash'] }
 * ```
 */
export const HELD_OUT_QUERIES: readonly { query: string; relevant: readonly string[] }[] = [
  { query: 'run a shell command', relevant: ['Bash'] },
  { query: 'execute npm test in the terminal', relevant: ['Bash'] },
  { query: 'find files matching a glob pattern like src/**/*.ts', relevant: ['Glob', 'mcp__filesystem__search_files'] },
  { query: 'search file contents for a regular expression', relevant: ['Grep'] },
  { query: 'replace a string in a file', relevant: ['Edit', 'mcp__filesystem__edit_file'] },
  { query: 'create a new directory', relevant: ['mcp__filesystem__create_directory'] },
  { query: 'rename or move a file', relevant: ['mcp__filesystem__move_file'] },
  { query: 'show the folder structure as a tree', relevant: ['mcp__filesystem__directory_tree'] },
  { query: 'which directories am I allowed to access', relevant: ['mcp__filesystem__list_allowed_directories'] },
  {
    query: 'file size and modification time',
    relevant: ['mcp__filesystem__get_file_info', 'mcp__filesystem__list_directory_with_sizes'],
  },
  { query: 'read several files at once', relevant: ['mcp__filesystem__read_multiple_files'] },
  { query: 'view an image or audio file', relevant: ['mcp__filesystem__read_media_file', 'Read'] },
  { query: 'download a web page and summarize it', relevant: ['WebFetch'] },
  { query: 'fetch the contents of a URL', relevant: ['WebFetch'] },
  { query: 'edit a cell in a Jupyter notebook', relevant: ['NotebookEdit'] },
  { query: 'get the output of a background shell process', relevant: ['TaskOutput'] },
  { query: 'kill a running background task', relevant: ['TaskStop'] },
  { query: 'add two numbers', relevant: ['mcp__everything__get-sum'] },
  { query: 'echo back my message', relevant: ['mcp__everything__echo'] },
  { query: 'print environment variables', relevant: ['mcp__everything__get-env'] },
  { query: 'compress a file with gzip', relevant: ['mcp__everything__gzip-file-as-resource'] },
  {
    query: 'start a long operation that reports progress',
    relevant: ['mcp__everything__trigger-long-running-operation'],
  },
  { query: 'turn logging messages on or off', relevant: ['mcp__everything__toggle-simulated-logging'] },
  { query: 'write text to a new file', relevant: ['Write', 'mcp__filesystem__write_file'] },
  {
    query: 'list the files in a folder',
    relevant: ['mcp__filesystem__list_directory', 'mcp__filesystem__list_directory_with_sizes'],
  },
  { query: 'return a small test picture', relevant: ['mcp__everything__get-tiny-image'] },
  { query: 'subscribe to resource update notifications', relevant: ['mcp__everything__toggle-subscriber-updates'] },
  { query: 'run a research query on a topic', relevant: ['mcp__everything__simulate-research-query'] },
];

/**
 * A second catalogue, from a different source than StableToolBench: the tools the two
 * reference MCP servers list (`server-everything`, `server-filesystem`, named
 * `mcp__<server>__<tool>` as the bridge names them) and the built-in families' tools, with
 * {@linkcode HELD_OUT_QUERIES}. It checks that the ranker's defaults, chosen on
 * StableToolBench, carry over to a catalogue they never saw.
 *
 * @returns The tools, the queries and any source that failed to load.
 * @throws {Error} If a query names a tool the catalogue does not hold (the list is stale).
 *
 * @example
 * ```ts
 * const { tools, queries } = await loadHeldOutCatalogue();
 * ```
 */
export async function loadHeldOutCatalogue(): Promise<HeldOutCatalogue> {
  const problems: string[] = [];
  const tools: SearchableTool[] = [];
  const listed = await listMcpServerTools();
  for (const t of listed)
    tools.push({
      name: `mcp__${t.server}__${t.name}`,
      description: t.description,
      inputSchema: t.inputSchema as Record<string, unknown>,
    });
  const { families, problems: familyProblems } = await loadBuiltinFamilies();
  problems.push(...familyProblems);
  const session = await createSession({ cwd: os.tmpdir(), families });
  try {
    for (const entry of session.catalog()) {
      let inputSchema: JsonSchema | undefined;
      try {
        inputSchema = entry.tool ? toolInputJsonSchema(entry.tool) : undefined;
      } catch {
        inputSchema = undefined;
      }
      tools.push({
        name: entry.name,
        description: entry.description,
        searchHint: entry.searchHint,
        inputSchema: inputSchema as Record<string, unknown> | undefined,
        group: `family:${entry.family}`,
      });
    }
  } finally {
    await session.close();
  }
  const names = new Set(tools.map((t) => t.name));
  const queries: BenchQuery[] = [];
  HELD_OUT_QUERIES.forEach((q, i) => {
    const missing = q.relevant.filter((r) => !names.has(r));
    if (missing.length === q.relevant.length)
      throw new Error(
        `Held-out query "${q.query}" names no tool of the catalogue (${missing.join(', ')}): update HELD_OUT_QUERIES`,
      );
    const relevant = q.relevant.filter((r) => names.has(r));
    if (missing.length) problems.push(`query "${q.query}": ${missing.join(', ')} not in the catalogue`);
    queries.push({ id: `held-out:${i}`, group: 'held-out', query: q.query, relevant: [...relevant] });
  });
  return {
    tools,
    queries,
    sources: [
      '@modelcontextprotocol/server-everything (tools/list)',
      '@modelcontextprotocol/server-filesystem (tools/list)',
      'built-in families: fs, shell, web, agent',
    ],
    problems,
  };
}
