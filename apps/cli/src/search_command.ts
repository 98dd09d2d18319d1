import type { CatalogEntry } from '@toolshed/core';
import { toolInputJsonSchema } from '@toolshed/core/internal';
import { createToolIndex, type SearchableTool } from '@toolshed/toolsearch';
import type { CommonArgs } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { readJsonFile } from './_read_json_file.ts';
import { withSession } from './session_from_args.ts';
import { UsageError } from './usage_error.ts';

/** The flags of `toolshed search`: the common ones and `--corpus`. */
export interface SearchArgs extends CommonArgs {
  /** `--corpus FILE`: a JSON file of tool definitions to rank instead of the session's deferred tools. */
  corpus?: string | undefined;
}

/** What `toolshed search` is called with. */
export interface SearchInvocation {
  /** The query; several words may come as several arguments. */
  positionals: readonly string[];
  args: SearchArgs;
}

/** One row of `toolshed search --json`. */
export interface SearchRow {
  rank: number;
  name: string;
  score: number;
  description: string;
}

/** How many results the command shows; ToolSearch itself loads the first 5 by default. */
const SHOWN = 10;
const TOOL_SEARCH_DEFAULT = 5;

/**
 * `toolshed search <query> [--corpus FILE] [--json]`: ToolSearch's ranking for a query, over the
 * session's deferred tools (every tool when none is deferred), or over a JSON file of tool
 * definitions: an array of `{ name, description, input_schema | inputSchema | parameters,
 * searchHint? }`, OpenAI's `{ type: 'function', function: {...} }`, or an object with such a
 * `tools` array (a saved request). Exit 0 with results, 1 when nothing matches, 2 for bad usage.
 *
 * @param invocation The query words and the flags.
 * @param io The CLI's streams.
 * @returns The exit code.
 * @throws {UsageError} For an empty query, or a corpus file that is missing, not JSON or not a list of tools.
 *
 * @example
 * ```ts
 * import { searchCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await searchCommand({ positionals: ['send slack message'], args: { ...args, corpus: 'tools.json' } }, io);
 * ```
 */
export async function searchCommand(invocation: SearchInvocation, io: CliIo): Promise<number> {
  const { args } = invocation;
  const query = invocation.positionals.join(' ').trim();
  if (query === '') {
    throw new UsageError('The search query is empty. Give keywords, as in: toolshed search "send slack message"', {
      command: 'search',
    });
  }
  if (args.corpus !== undefined) {
    const { value, path } = await readJsonFile(args.corpus, { flag: '--corpus', baseDir: process.cwd() });
    const tools = corpusTools(value, args.corpus);
    return report(query, tools, path, args.json, io);
  }
  return withSession(args, io, {
    run: async (session) => {
      const entries = session.catalog().filter((e) => e.name !== 'ToolSearch');
      const deferred = entries.filter((e) => e.deferred);
      const searched = deferred.length ? deferred : entries;
      if (!deferred.length && entries.length && !args.json) {
        io.stderr.write(
          `toolshed: no tool is deferred in this session (families: ${args.families.join(', ')}); ranking all ${entries.length} tools.\n`,
        );
      }
      return report(query, searched.map(searchableOf), 'session', args.json, io);
    },
  });
}

function report(query: string, tools: readonly SearchableTool[], corpus: string, json: boolean, io: CliIo): number {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const hits = createToolIndex(tools).search(query, { maxResults: SHOWN });
  const rows: SearchRow[] = hits.map((hit, i) => ({
    rank: i + 1,
    name: hit.name,
    score: Math.round(hit.score * 1000) / 1000,
    description: byName.get(hit.name)?.description ?? '',
  }));
  if (json) {
    io.stdout.write(`${JSON.stringify({ query, corpus, searched: tools.length, results: rows }, null, 2)}\n`);
    return rows.length ? 0 : 1;
  }
  if (tools.length === 0) {
    io.stdout.write(
      `No tools to search: ${corpus === 'session' ? 'the session has none (check --only)' : `${corpus} lists none`}.\n`,
    );
    return 1;
  }
  if (rows.length === 0) {
    io.stdout.write(`No tool matches "${query}" among ${tools.length} tools. Try other words, or fewer "+" terms.\n`);
    return 1;
  }
  const nameWidth = Math.max(4, ...rows.map((r) => r.name.length));
  const lines = [`${'#'.padStart(2)}  ${'SCORE'.padStart(7)}  ${'NAME'.padEnd(nameWidth)}  DESCRIPTION`];
  for (const row of rows) {
    lines.push(
      `${String(row.rank).padStart(2)}  ${row.score.toFixed(2).padStart(7)}  ${row.name.padEnd(nameWidth)}  ${firstLine(row.description)}`.trimEnd(),
    );
  }
  lines.push(
    '',
    `Searched ${tools.length} tools${corpus === 'session' ? ' of the session' : ` from ${corpus}`}; ToolSearch loads the first ${TOOL_SEARCH_DEFAULT} by default.`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function searchableOf(entry: CatalogEntry): SearchableTool {
  let inputSchema: Record<string, unknown> | undefined;
  try {
    inputSchema = entry.tool ? toolInputJsonSchema(entry.tool) : undefined;
  } catch {
    inputSchema = undefined;
  }
  return {
    name: entry.name,
    description: entry.description,
    searchHint: entry.searchHint,
    inputSchema,
    group: entry.isMcp ? undefined : `family:${entry.family}`,
  };
}

/** The tools of a corpus file, in any of the shapes the command accepts. */
function corpusTools(value: unknown, file: string): SearchableTool[] {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { tools?: unknown }).tools)
      ? (value as { tools: unknown[] }).tools
      : undefined;
  if (!list) {
    throw new UsageError(
      `The --corpus file "${file}" is not a list of tools: give a JSON array of { "name", "description", "input_schema" } objects, or an object with such a "tools" array.`,
      { showUsage: false },
    );
  }
  return list.map((item, i) => {
    const raw = (
      item &&
      typeof item === 'object' &&
      (item as { type?: unknown }).type === 'function' &&
      (item as { function?: unknown }).function
        ? (item as { function: unknown }).function
        : item
    ) as Record<string, unknown> | null;
    if (!raw || typeof raw !== 'object' || typeof raw.name !== 'string' || raw.name === '') {
      throw new UsageError(
        `Tool ${i} of the --corpus file "${file}" has no "name" string: ${JSON.stringify(item)?.slice(0, 80)}. Every tool needs a name.`,
        { showUsage: false },
      );
    }
    const schema = raw.input_schema ?? raw.inputSchema ?? raw.parameters;
    return {
      name: raw.name,
      description: typeof raw.description === 'string' ? raw.description : '',
      searchHint: typeof raw.searchHint === 'string' ? raw.searchHint : undefined,
      inputSchema: schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined,
    };
  });
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
