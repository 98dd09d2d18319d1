import { buildTool, type Tool } from '@toolshed/core';
import type { McpConnection } from './_server_connection.ts';
import { serverOffering } from './_server_lookup.ts';
import { jsonSchemaValidator, passthroughObjectSchema } from './_json_input.ts';

/** The servers the completion tool can reach, looked up at each call. */
export type CompletionServers = () => readonly McpConnection[];

const COMPLETE_SCHEMA = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'The MCP server to ask (its name in .mcp.json)' },
    prompt: { type: 'string', description: 'The prompt whose argument to complete (a name from ListMcpPrompts)' },
    resourceTemplate: {
      type: 'string',
      description: 'Or the resource template whose variable to complete (its uriTemplate from ListMcpResources)',
    },
    argument: { type: 'string', description: 'The argument (or template variable) to complete' },
    value: { type: 'string', description: 'What it starts with so far ("" for every value)' },
    context: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Arguments already chosen, by name: a server may narrow its values by them',
    },
  },
  required: ['server', 'argument'],
  additionalProperties: false,
};

interface CompleteInput {
  server: string;
  prompt?: string;
  resourceTemplate?: string;
  argument: string;
  value?: string;
  context?: Record<string, string>;
}

/**
 * `CompleteMcpArgument`: the values an MCP server suggests for one argument of a prompt or one
 * variable of a resource template (`completion/complete`), given what it starts with and the
 * arguments already chosen. The model uses it before `GetMcpPrompt` or `ReadMcpResource` when an
 * argument takes one of a set of values it does not know (a department, a branch, a table).
 * Offered while a connected server declares the `completions` capability.
 *
 * @param servers The connected servers that offer completion.
 * @returns The tool.
 *
 * @example
 * ```ts
 * import type { McpConnection } from './_server_connection.ts';
 * import { completeMcpArgumentTool } from './completion_tool.ts';
 * declare const connections: McpConnection[];
 *
 * const tool = completeMcpArgumentTool(() => connections.filter((c) => c.hasCompletions));
 * ```
 */
export function completeMcpArgumentTool(servers: CompletionServers): Tool {
  const validator = jsonSchemaValidator('CompleteMcpArgument', COMPLETE_SCHEMA);
  return buildTool({
    name: 'CompleteMcpArgument',
    searchHint: 'complete mcp prompt argument resource template values suggestions',
    description:
      'Lists the values an MCP server suggests for one argument of its prompt (`prompt`) or one variable of its resource template (`resourceTemplate`), starting with `value`; give the arguments already chosen as `context`. Use it before GetMcpPrompt or ReadMcpResource when you do not know the values an argument takes.',
    inputSchema: passthroughObjectSchema,
    inputJSONSchema: COMPLETE_SCHEMA,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    interruptBehavior: 'cancel',
    validateInput: (input) => {
      const checked = 'validate' in validator ? validator.validate(input) : { result: true as const };
      if (!checked.result) return checked;
      const { prompt, resourceTemplate } = input as unknown as CompleteInput;
      if ((prompt === undefined) === (resourceTemplate === undefined))
        return {
          result: false,
          message:
            prompt === undefined
              ? 'Name what to complete: "prompt" (a prompt name from ListMcpPrompts) or "resourceTemplate" (a uriTemplate from ListMcpResources).'
              : 'Give "prompt" or "resourceTemplate", not both: a completion is for one prompt or one template.',
        };
      return { result: true };
    },
    async call(input, _ctx, { signal }) {
      const { server, prompt, resourceTemplate, argument, value = '', context } = input as unknown as CompleteInput;
      const connection = serverOffering(servers(), { name: server, feature: 'completion' });
      const ref =
        prompt !== undefined
          ? { type: 'ref/prompt' as const, name: prompt }
          : { type: 'ref/resource' as const, uri: resourceTemplate! };
      const answer = await connection.complete(
        { ref, argument: { name: argument, value }, ...(context ? { context: { arguments: context } } : {}) },
        signal,
      );
      const what = prompt !== undefined ? `prompt "${prompt}"` : `template "${resourceTemplate}"`;
      const start = value === '' ? '' : ` starting with "${value}"`;
      if (answer.values.length === 0)
        return { data: `No values suggested for "${argument}" of ${what}${start} (server "${server}").` };
      const more =
        answer.hasMore || (answer.total !== undefined && answer.total > answer.values.length)
          ? ` (${answer.values.length}${answer.total !== undefined ? ` of ${answer.total}` : ''}; more exist: type more of the value to narrow them)`
          : '';
      return { data: `Values for "${argument}" of ${what}${start}${more}:\n${answer.values.join('\n')}` };
    },
  });
}
