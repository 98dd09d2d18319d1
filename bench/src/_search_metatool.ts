import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchableTool } from '@toolshed/toolsearch';
import type { BenchQuery } from './_search_stabletoolbench.ts';

/** The held-out MetaTool set: 199 plugins with one-line descriptions, single-tool and two-tool queries. */
export interface MetaTool {
  /** Each plugin as a tool: its key as the name, its description; no parameters, no group. */
  tools: SearchableTool[];
  /** MetaTool's single-tool queries (the seeded sample of `all_clean_data.csv`). */
  singleTool: BenchQuery[];
  /** MetaTool's two-tool queries (one per ordered tool pair of `multi_tool_query_golden.json`). */
  multiTool: BenchQuery[];
}

/**
 * Where the set lives: `bench/data/metatool` (MIT, see its README and LICENSE for what was taken and how).
 *
 * @example
 * ```ts
 * await loadMetaTool(METATOOL_DIR);
 * ```
 */
export const METATOOL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/metatool');

/**
 * Splits CSV text into rows of fields: commas separate, double quotes enclose a field, `""` inside
 * quotes is one quote, and a line ends a row (no field of MetaTool's holds a line break).
 *
 * @param text The CSV text.
 * @returns The rows, header included.
 *
 * @example
 * ```ts
 * parseCsv('Query,Tool\n"a, b",X\n'); // [['Query', 'Tool'], ['a, b', 'X']]
 * ```
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * Reads `plugin_des.json`, `all_clean_data.sample.csv` and `multi_tool_query_golden.sample.json`.
 *
 * @param dir The data folder.
 * @returns The tools and the two kinds of queries.
 * @throws {Error} If a file is missing or malformed, or a query names a tool the catalogue does not hold (the message names the query and the tool).
 *
 * @example
 * ```ts
 * const { tools, singleTool } = await loadMetaTool();
 * tools.length; // 199
 * ```
 */
export async function loadMetaTool(dir = METATOOL_DIR): Promise<MetaTool> {
  const read = async (file: string): Promise<string> => {
    const full = path.join(dir, file);
    try {
      return await readFile(full, 'utf8');
    } catch (e) {
      throw new Error(`Could not read the metatool file "${full}": ${(e as Error).message}`, { cause: e });
    }
  };
  const described = JSON.parse(await read('plugin_des.json')) as Record<string, string>;
  const tools: SearchableTool[] = Object.entries(described).map(([name, description]) => ({ name, description }));
  const known = new Set(Object.keys(described));
  const checked = (query: string, names: string[]): string[] => {
    for (const name of names)
      if (!known.has(name))
        throw new Error(`The metatool query "${query}" names "${name}", which plugin_des.json does not hold`);
    return names;
  };
  const rows = parseCsv(await read('all_clean_data.sample.csv'));
  if (rows[0]?.join(',') !== 'Query,Tool')
    throw new Error(`all_clean_data.sample.csv should start with the header "Query,Tool", not "${rows[0]?.join(',')}"`);
  const singleTool: BenchQuery[] = rows.slice(1).map((row, i) => {
    if (row.length !== 2) throw new Error(`all_clean_data.sample.csv row ${i + 2} has ${row.length} fields, not 2`);
    return {
      id: `metatool.singleTool:${i}`,
      group: 'metatool.singleTool',
      query: row[0]!.trim(),
      relevant: checked(row[0]!, [row[1]!.trim()]),
    };
  });
  const golden = JSON.parse(await read('multi_tool_query_golden.sample.json')) as { query: string; tool: string[] }[];
  const multiTool: BenchQuery[] = golden.map((q, i) => ({
    id: `metatool.multiTool:${i}`,
    group: 'metatool.multiTool',
    query: q.query.trim(),
    relevant: checked(q.query, q.tool),
  }));
  return { tools, singleTool, multiTool };
}
