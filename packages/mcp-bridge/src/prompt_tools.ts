import { buildTool, type Tool, type ToolResultContent } from '@toolshed/core';
import type { McpConnection } from './_server_connection.ts';
import { serverOffering } from './_server_lookup.ts';
import { jsonSchemaValidator, passthroughObjectSchema } from './_json_input.ts';
import { promptText } from './_prompt_text.ts';

/** The servers the prompt tools can reach, looked up at each call. */
export type PromptServers = () => readonly McpConnection[];

const LIST_SCHEMA = {
  type: 'object',
  properties: {
    server: {
      type: 'string',
      description: 'Only list the prompts of this MCP server (its name in .mcp.json); all servers when left out',
    },
  },
  additionalProperties: false,
};

const GET_SCHEMA = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'The MCP server that has the prompt (its name in .mcp.json)' },
    name: { type: 'string', description: 'The prompt name, as ListMcpPrompts gave it' },
    arguments: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: "The prompt's arguments, by name (strings)",
    },
  },
  required: ['server', 'name'],
  additionalProperties: false,
};

/**
 * `ListMcpPrompts`: the prompts (prepared instructions, templates of a task) that connected
 * MCP servers offer, with their arguments.
 *
 * @param servers The connected servers that offer prompts.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { listMcpPromptsTool } from '@toolshed/mcp-bridge';
 * import type { McpConnection } from './_server_connection.ts';
 * declare const connections: McpConnection[];
 *
 * const tool = listMcpPromptsTool(() => connections.filter((c) => c.hasPrompts));
 * ```
 */
export function listMcpPromptsTool(servers: PromptServers): Tool {
  const validator = jsonSchemaValidator('ListMcpPrompts', LIST_SCHEMA);
  return buildTool({
    name: 'ListMcpPrompts',
    searchHint: 'list mcp server prompts templates commands',
    description:
      'Lists the prompts that connected MCP servers offer (prepared instructions for a task, with arguments): for each, the server, name, description and arguments. Get one with GetMcpPrompt.',
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: LIST_SCHEMA,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    validateInput: (input) => ('validate' in validator ? validator.validate(input) : { result: true }),
    async call(input, _ctx, { signal }) {
      const { server } = input as { server?: string };
      const all = servers();
      const chosen = server === undefined ? all : [serverOffering(all, { name: server, feature: 'prompts' })];
      const out: Record<string, unknown>[] = [];
      for (const connection of chosen)
        for (const p of await connection.listPrompts(signal)) out.push({ server: connection.name, ...p });
      return { data: out.length ? JSON.stringify(out, null, 2) : 'No prompts found.' };
    },
  });
}

/**
 * `GetMcpPrompt`: one prompt of an MCP server, filled with its arguments, as the messages it
 * stands for (`[user]` and `[assistant]` turns as text).
 *
 * @param servers The connected servers that offer prompts.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { getMcpPromptTool } from '@toolshed/mcp-bridge';
 * import type { McpConnection } from './_server_connection.ts';
 * declare const connections: McpConnection[];
 *
 * const tool = getMcpPromptTool(() => connections.filter((c) => c.hasPrompts));
 * ```
 */
export function getMcpPromptTool(servers: PromptServers): Tool {
  const validator = jsonSchemaValidator('GetMcpPrompt', GET_SCHEMA);
  return buildTool({
    name: 'GetMcpPrompt',
    searchHint: 'get mcp server prompt template command',
    description:
      'Gets one prompt of an MCP server (from ListMcpPrompts), filled with its arguments: the instructions it stands for, as text.',
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: GET_SCHEMA,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    validateInput: (input) => ('validate' in validator ? validator.validate(input) : { result: true }),
    mapResult: (output: ToolResultContent) => output,
    async call(input, _ctx, { signal }) {
      const {
        server,
        name,
        arguments: args,
      } = input as { server: string; name: string; arguments?: Record<string, string> };
      const connection = serverOffering(servers(), { name: server, feature: 'prompts' });
      const prompt = await connection.getPrompt(name, args ?? {}, signal);
      return { data: promptText(prompt) };
    },
  });
}
