import { buildTool, type Tool, type ToolResultContent } from '@toolshed/core';
import type { McpConnection } from './_server_connection.ts';
import { serverOffering } from './_server_lookup.ts';
import { jsonSchemaValidator, passthroughObjectSchema } from './_json_input.ts';
import { mapCallResult } from './map_call_result.ts';

/** The servers the resource tools can reach, looked up at each call. */
export type ResourceServers = () => readonly McpConnection[];

const LIST_SCHEMA = {
  type: 'object',
  properties: {
    server: {
      type: 'string',
      description: 'Only list the resources of this MCP server (its name in .mcp.json); all servers when left out',
    },
  },
  additionalProperties: false,
};

const READ_SCHEMA = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'The MCP server that has the resource (its name in .mcp.json)' },
    uri: { type: 'string', description: 'The resource URI, as ListMcpResources or a resource link gave it' },
  },
  required: ['server', 'uri'],
  additionalProperties: false,
};

/**
 * `ListMcpResources`: the resources (files, documents, records) that connected MCP servers
 * offer, as Claude Code's tool of that purpose lists them.
 *
 * @param servers The connected servers that offer resources.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { listMcpResourcesTool } from '@toolshed/mcp-bridge';
 * import type { McpConnection } from './_server_connection.ts';
 * declare const connections: McpConnection[];
 *
 * const tool = listMcpResourcesTool(() => connections.filter((c) => c.hasResources));
 * ```
 */
export function listMcpResourcesTool(servers: ResourceServers): Tool {
  const validator = jsonSchemaValidator('ListMcpResources', LIST_SCHEMA);
  return buildTool({
    name: 'ListMcpResources',
    searchHint: 'list mcp server resources files documents',
    description:
      'Lists the resources that connected MCP servers offer (files, documents, database records and the like): for each, the server, URI, name, MIME type and description. ' +
      'Use it to find what a server can give you, then read one with ReadMcpResource. Give "server" to list one server only. Large lists may be saved to a file with a preview shown.',
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: LIST_SCHEMA,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    validateInput: (input) => ('validate' in validator ? validator.validate(input) : { result: true }),
    async call(input, _ctx, { signal }) {
      const { server } = input as { server?: string };
      const all = servers();
      const chosen = server === undefined ? all : [serverOffering(all, { name: server, feature: 'resources' })];
      const out: Record<string, unknown>[] = [];
      const errors: string[] = [];
      await Promise.all(
        chosen.map(async (connection) => {
          try {
            for (const r of await connection.listResources(signal)) out.push({ server: connection.name, ...r });
          } catch (e) {
            errors.push((e as Error).message);
          }
        }),
      );
      if (out.length === 0 && errors.length) throw new Error(errors.join(' '));
      const text = out.length
        ? JSON.stringify(out, null, 2)
        : `No resources found${server ? ` on MCP server "${server}"` : ''}.`;
      return { data: errors.length ? `${text}\n\nSome servers could not be listed: ${errors.join(' ')}` : text };
    },
  });
}

/**
 * `ReadMcpResource`: reads one resource of an MCP server by URI; text comes back as text,
 * images the model can view as images.
 *
 * @param servers The connected servers that offer resources.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import { readMcpResourceTool } from '@toolshed/mcp-bridge';
 * import type { McpConnection } from './_server_connection.ts';
 * declare const connections: McpConnection[];
 *
 * const tool = readMcpResourceTool(() => connections.filter((c) => c.hasResources));
 * ```
 */
export function readMcpResourceTool(servers: ResourceServers): Tool {
  const validator = jsonSchemaValidator('ReadMcpResource', READ_SCHEMA);
  return buildTool({
    name: 'ReadMcpResource',
    searchHint: 'read mcp server resource by uri',
    description:
      'Reads one resource of an MCP server by its URI (from ListMcpResources or a resource link in a tool result). ' +
      'Text resources come back as text, images as images; other binary content is described, not shown. Results over the size limit are saved to a file with a preview. ' +
      'When the server supports it, you are told (a notice) if the resource changes after you read it.',
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: READ_SCHEMA,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    validateInput: (input) => ('validate' in validator ? validator.validate(input) : { result: true }),
    getToolUseSummary: (input) => String((input as { uri?: unknown }).uri ?? ''),
    mapResult: (output: ToolResultContent) => output,
    async call(input, _ctx, { signal }) {
      const { server, uri } = input as { server: string; uri: string };
      const connection = serverOffering(servers(), { name: server, feature: 'resources' });
      const { contents } = await connection.readResource(uri, signal);
      // When the server offers subscriptions, a later change is reported as a session notice.
      await connection.watchResource(uri, signal);
      if (contents.length === 0) return { data: `Resource ${uri} of MCP server "${server}" is empty.` };
      const content = mapCallResult(
        { content: contents.map((resource) => ({ type: 'resource' as const, resource })) },
        server,
      );
      return { data: content };
    },
  });
}
