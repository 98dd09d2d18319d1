import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A StableToolBench API as a tool definition (name, description, JSON Schema). */
export interface BenchTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
  /** The RapidAPI category, kept for reports (never given to a ranker). */
  category: string;
}

/** One query with the names of the tools that answer it. */
export interface BenchQuery {
  id: string;
  group: string;
  query: string;
  relevant: string[];
}

/** The pooled corpus and its queries. */
export interface StableToolBench {
  tools: BenchTool[];
  queries: BenchQuery[];
  /** The files read, for the record. */
  files: string[];
}

/**
 * Where the data set lives: `TOOLSHED_STABLETOOLBENCH_DIR`, or the copy in the repository,
 * `bench/data/stabletoolbench` (Apache-2.0, see its README and LICENSE).
 *
 * @example
 * ```ts
 * const { tools } = await loadStableToolBench(STABLETOOLBENCH_DIR);
 * ```
 */
export const STABLETOOLBENCH_DIR =
  process.env['TOOLSHED_STABLETOOLBENCH_DIR'] ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/stabletoolbench');

const FILES = [
  'G1_instruction.json',
  'G1_category.json',
  'G1_tool.json',
  'G2_instruction.json',
  'G2_category.json',
  'G3_instruction.json',
];

interface RawParameter {
  name?: unknown;
  type?: unknown;
  description?: unknown;
  default?: unknown;
}
interface RawApi {
  category_name?: unknown;
  tool_name?: unknown;
  api_name?: unknown;
  api_description?: unknown;
  required_parameters?: RawParameter[];
  optional_parameters?: RawParameter[];
}
interface RawQuery {
  query?: unknown;
  query_id?: unknown;
  api_list?: RawApi[];
  'relevant APIs'?: unknown[][];
}

/**
 * Reads StableToolBench's solvable queries and pools every API of every `api_list` into one
 * corpus of tool definitions, as its README describes: name `<tool>__<api>` (letters, digits
 * and `_`, at most 64 characters), the API's description, a JSON Schema of its parameters.
 *
 * @param dir The data folder.
 * @returns The tools (unique by tool and API name) and the queries with their relevant tools.
 * @throws {Error} If a file is missing or not the expected JSON (the message names the file).
 *
 * @example
 * ```ts
 * const { tools, queries } = await loadStableToolBench();
 * tools.length; // about 2 480
 * ```
 */
export async function loadStableToolBench(dir = STABLETOOLBENCH_DIR): Promise<StableToolBench> {
  const byKey = new Map<string, BenchTool>();
  const names = new Set<string>();
  const queries: BenchQuery[] = [];
  const files: string[] = [];
  for (const file of FILES) {
    const full = path.join(dir, file);
    let rows: RawQuery[];
    try {
      rows = JSON.parse(await readFile(full, 'utf8')) as RawQuery[];
    } catch (e) {
      throw new Error(`Could not read StableToolBench file "${full}": ${(e as Error).message}`, { cause: e });
    }
    if (!Array.isArray(rows)) throw new Error(`StableToolBench file "${full}" is not a JSON array`);
    files.push(full);
    const group = file.replace(/\.json$/, '');
    for (const row of rows) {
      for (const api of row.api_list ?? []) {
        const key = keyOf(api.tool_name, api.api_name);
        if (byKey.has(key)) continue;
        const tool = toTool(api, names);
        names.add(tool.name);
        byKey.set(key, tool);
      }
      const relevant = (row['relevant APIs'] ?? [])
        .map((pair) => byKey.get(keyOf(pair[0], pair[1]))?.name)
        .filter((n): n is string => n !== undefined);
      if (typeof row.query === 'string' && relevant.length) {
        queries.push({
          id: `${group}:${String(row.query_id)}`,
          group,
          query: row.query,
          relevant: [...new Set(relevant)],
        });
      }
    }
  }
  return { tools: [...byKey.values()], queries, files };
}

function keyOf(tool: unknown, api: unknown): string {
  return `${String(tool)}\u0000${String(api)}`;
}

function slug(text: unknown): string {
  return (
    String(text ?? '')
      .trim()
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'x'
  );
}

function toTool(api: RawApi, taken: ReadonlySet<string>): BenchTool {
  let base = `${slug(api.tool_name)}__${slug(api.api_name)}`.slice(0, 64);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [list, isRequired] of [
    [api.required_parameters ?? [], true],
    [api.optional_parameters ?? [], false],
  ] as const) {
    for (const p of list) {
      if (typeof p.name !== 'string' || !p.name) continue;
      const schema: Record<string, unknown> = { type: jsonType(p.type) };
      if (typeof p.description === 'string' && p.description.trim()) schema.description = p.description.trim();
      if (p.default !== undefined && p.default !== '' && p.default !== null) schema.default = p.default;
      properties[p.name] = schema;
      if (isRequired) required.push(p.name);
    }
  }
  const description =
    typeof api.api_description === 'string' && api.api_description.trim()
      ? api.api_description.trim()
      : String(api.api_name ?? '');
  const inputSchema: BenchTool['inputSchema'] = { type: 'object', properties };
  if (required.length) inputSchema.required = required;
  return { name, description, inputSchema, category: String(api.category_name ?? '') };
}

function jsonType(type: unknown): string {
  switch (String(type).toUpperCase()) {
    case 'NUMBER':
      return 'number';
    case 'BOOLEAN':
      return 'boolean';
    case 'ARRAY':
      return 'array';
    case 'OBJECT':
      return 'object';
    default:
      return 'string';
  }
}
