import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { buildTool, defineFamily, type AnyTool, type Family, type JsonSchema } from '@toolshed/core';

/** A tool as an MCP server lists it. */
export interface ListedTool {
  server: string;
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/mcp-bridge/node_modules/.bin');

/** The two real servers the token suite lists: the reference "everything" and "filesystem" servers. */
export const MCP_SERVERS = [
  { server: 'everything', command: path.join(BIN, 'mcp-server-everything'), args: (_dir: string) => [] as string[] },
  { server: 'filesystem', command: path.join(BIN, 'mcp-server-filesystem'), args: (dir: string) => [dir] },
] as const;

/**
 * Starts `@modelcontextprotocol/server-everything` and `@modelcontextprotocol/server-filesystem`
 * over stdio with the MCP SDK's client, lists their tools and stops them.
 *
 * @returns Every listed tool, by server.
 * @throws {Error} If a server does not start or list its tools (the message names the server and its binary).
 *
 * @example
 * ```ts
 * const listed = await listMcpServerTools(); // 13 + 14 tools
 * ```
 */
export async function listMcpServerTools(): Promise<ListedTool[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-mcp-fs-'));
  const out: ListedTool[] = [];
  try {
    for (const spec of MCP_SERVERS) {
      const client = new Client({ name: 'toolshed-bench', version: '0.0.0' });
      const transport = new StdioClientTransport({ command: spec.command, args: spec.args(dir), stderr: 'pipe' });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        for (const tool of tools) {
          out.push({
            server: spec.server,
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema as JsonSchema,
          });
        }
      } catch (e) {
        throw new Error(
          `MCP server "${spec.server}" (${spec.command}) did not list its tools: ${(e as Error).message}`,
          { cause: e },
        );
      } finally {
        await client.close().catch(() => {});
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * Tools for a session from definitions: the JSON Schema is sent as is, any object input is
 * accepted, and a call only says it ran (the token suite never calls them).
 *
 * @param defs Name, description and JSON Schema of each tool.
 * @param options `isMcp` marks them as MCP tools (named `mcp__<server>__<tool>`).
 * @returns The tools.
 *
 * @example
 * ```ts
 * const tools = toolsFromDefinitions(listed.map((t) => ({ ...t, name: `mcp__${t.server}__${t.name}` })), { isMcp: true });
 * ```
 */
export function toolsFromDefinitions(
  defs: readonly { name: string; description: string; inputSchema: JsonSchema }[],
  options: { isMcp?: boolean } = {},
): AnyTool[] {
  return defs.map((def) =>
    buildTool({
      name: def.name,
      description: def.description || def.name,
      inputSchema: z.object({}).passthrough(),
      inputJSONSchema: def.inputSchema,
      isMcp: options.isMcp ?? false,
      async call() {
        return { data: `${def.name} ran` };
      },
    }),
  );
}

/**
 * The listed MCP tools as an external family, named as the MCP bridge names them.
 *
 * @param listed The tools from {@linkcode listMcpServerTools}.
 * @returns The family.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd, families: [mcpFamily(await listMcpServerTools())] });
 * ```
 */
export function mcpFamily(listed: readonly ListedTool[]): Family {
  const tools = toolsFromDefinitions(
    listed.map((t) => ({ ...t, name: `mcp__${t.server}__${t.name}` })),
    { isMcp: true },
  );
  return defineFamily({ name: 'mcp', version: '0.0.0', external: true, tools });
}
