import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';

// Each tool is checked on its own below: with the SDK's strict schema for the whole list, one
// tool written a little off (an `inputSchema` without `"type": "object"`, common in the wild)
// would fail the whole server.
const lenientPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** A tool as a server lists it (the fields the bridge reads). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The JSON Schema the tool's `structuredContent` follows. */
  outputSchema?: Record<string, unknown>;
  /** `execution.taskSupport` (2025-11-25): whether the tool runs as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** A server's tool list: the tools usable as they are (or once repaired), and what was wrong with the others. */
export interface ToolList {
  tools: McpToolInfo[];
  /** One sentence per tool left out or repaired, naming it. */
  problems: string[];
}

/**
 * The most tools kept from one server: past it the rest of its list is not read, so a server whose
 * list never ends (each page names a next one) cannot hold the connection or fill memory.
 *
 * @example
 * ```ts
 * import { MAX_LISTED_TOOLS } from './_tool_list.ts';
 *
 * MAX_LISTED_TOOLS; // 10000
 * ```
 */
export const MAX_LISTED_TOOLS = 10_000;

/**
 * Characters of a tool's description kept: a tool shows at most 2 048 of them (`describeTool`),
 * so a server's 50 MB description costs what it shows, not what it sent.
 *
 * @example
 * ```ts
 * import { MAX_KEPT_DESCRIPTION_CHARS } from './_tool_list.ts';
 *
 * MAX_KEPT_DESCRIPTION_CHARS; // 16384
 * ```
 */
export const MAX_KEPT_DESCRIPTION_CHARS = 16_384;

/** Pages of a list read at most, for a server that sends pages with no tools and a next cursor forever. */
const MAX_LIST_PAGES = 1_000;

/**
 * Characters of one tool's schemas (input and output, as JSON) past which it is left out: a schema
 * that size (64 000 tokens and more) could not be sent to a model with the rest of a conversation.
 *
 * @example
 * ```ts
 * import { MAX_TOOL_SCHEMA_CHARS } from './_tool_list.ts';
 *
 * MAX_TOOL_SCHEMA_CHARS; // 262144
 * ```
 */
export const MAX_TOOL_SCHEMA_CHARS = 256 * 1024;

/**
 * Characters of descriptions and schemas kept from one server's list, past which the rest of the
 * list is not read: each tool's share is bounded, but ten thousand of them could still hold gigabytes.
 *
 * @example
 * ```ts
 * import { MAX_KEPT_LIST_CHARS } from './_tool_list.ts';
 *
 * MAX_KEPT_LIST_CHARS; // 33554432
 * ```
 */
export const MAX_KEPT_LIST_CHARS = 32 * 1024 * 1024;

/**
 * Lists every page of a server's tools, keeping each tool that can be used and saying why any
 * other was left out.
 *
 * @param client A connected client.
 * @param timeout The request timeout in milliseconds; the SDK's default when left out.
 * @returns The tools and the problems found.
 * @throws Whatever the request throws (the server is gone, the answer is not a list at all).
 *
 * @example
 * ```ts
 * import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { listAllTools } from './_tool_list.ts';
 * declare const client: Client; // connected
 *
 * const { tools, problems } = await listAllTools(client, 30_000);
 * ```
 */
export async function listAllTools(client: Client, timeout?: number): Promise<ToolList> {
  const out: ToolList = { tools: [], problems: [] };
  if (!client.getServerCapabilities()?.tools) return out;
  let cursor: string | undefined;
  let pages = 0;
  let keptChars = 0;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      lenientPage,
      timeout ? { timeout } : {},
    );
    for (const raw of page.tools) {
      if (out.tools.length >= MAX_LISTED_TOOLS) {
        out.problems.push(
          `the server listed more than ${MAX_LISTED_TOOLS} tools; the first ${MAX_LISTED_TOOLS} were kept and the rest left out`,
        );
        return out;
      }
      const checked = toolInfo(raw);
      if (checked.problem) out.problems.push(checked.problem);
      if (!('tool' in checked)) continue;
      keptChars += checked.chars;
      if (keptChars > MAX_KEPT_LIST_CHARS) {
        out.problems.push(
          `the server's tools came to more than ${MAX_KEPT_LIST_CHARS} characters of descriptions and schemas; the first ${out.tools.length} were kept and the rest left out`,
        );
        return out;
      }
      out.tools.push(checked.tool);
    }
    cursor = page.nextCursor;
    if (cursor && ++pages >= MAX_LIST_PAGES) {
      out.problems.push(
        `the server's tool list did not end after ${MAX_LIST_PAGES} pages; the tools of those pages were kept and the rest left out`,
      );
      return out;
    }
  } while (cursor);
  return out;
}

/**
 * One listed tool as the bridge uses it. A missing `inputSchema` stands for a tool without
 * parameters, and an object schema that does not say `"type": "object"` gets it (model APIs
 * require it); a tool without a name, or whose input is not an object, is left out.
 *
 * @param raw One entry of `tools` in a `tools/list` answer.
 * @returns The tool with the characters it keeps (schemas and description), a problem, or both (a repaired tool).
 *
 * @example
 * ```ts
 * import { toolInfo } from './_tool_list.ts';
 *
 * toolInfo({ name: 'echo', inputSchema: { properties: { text: { type: 'string' } } } });
 * // { tool: { name: 'echo', inputSchema: { type: 'object', properties: … } }, chars: 59, problem: 'tool "echo": …' }
 * ```
 */
export function toolInfo(raw: unknown): { tool: McpToolInfo; chars: number; problem?: string } | { problem: string } {
  if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') {
    return { problem: `a tool without a name was left out: ${truncate(JSON.stringify(raw) ?? String(raw), 120)}` };
  }
  const name = raw.name;
  let problem: string | undefined;
  let inputSchema: Record<string, unknown>;
  if (raw.inputSchema === undefined) {
    inputSchema = { type: 'object' };
  } else if (!isObject(raw.inputSchema)) {
    return { problem: `tool "${name}" was left out: its inputSchema is not a JSON Schema object` };
  } else if (raw.inputSchema.type === undefined) {
    inputSchema = { type: 'object', ...raw.inputSchema };
    problem = `tool "${name}" has an inputSchema without "type": "object"; it was added`;
  } else if (raw.inputSchema.type !== 'object') {
    return {
      problem: `tool "${name}" was left out: its inputSchema has "type": ${JSON.stringify(raw.inputSchema.type)}, and tool inputs are objects`,
    };
  } else {
    inputSchema = raw.inputSchema;
  }
  const tool: McpToolInfo = { name, inputSchema };
  if (typeof raw.title === 'string') tool.title = raw.title;
  if (typeof raw.description === 'string') tool.description = raw.description.slice(0, MAX_KEPT_DESCRIPTION_CHARS);
  if (isObject(raw.outputSchema)) tool.outputSchema = raw.outputSchema;
  if (isObject(raw.execution)) tool.execution = raw.execution as NonNullable<McpToolInfo['execution']>;
  if (isObject(raw.annotations)) tool.annotations = raw.annotations as NonNullable<McpToolInfo['annotations']>;
  const schemaChars =
    JSON.stringify(inputSchema).length + (tool.outputSchema ? JSON.stringify(tool.outputSchema).length : 0);
  if (schemaChars > MAX_TOOL_SCHEMA_CHARS) {
    return {
      problem: `tool "${name}" was left out: its schemas are ${schemaChars} characters of JSON, over the ${MAX_TOOL_SCHEMA_CHARS} a tool may have (no model could be sent it); ask the server's author to split it or trim its schema`,
    };
  }
  const chars = schemaChars + (tool.description?.length ?? 0);
  return problem ? { tool, chars, problem } : { tool, chars };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
