import { randomUUID } from 'node:crypto';
import type { AskUser, ModelClient } from '@toolshed/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

/**
 * The served MCP client's user and model, as the session services tools use: `askUser` sends an
 * elicitation request to the client (its user answers; a question with a `url` is a URL-mode
 * elicitation when the client declares it), `modelClient` a sampling request (its
 * model answers). Given to a {@linkcode ServeSessionFactory}, which puts them in the session's
 * services (`askUserKey`, `modelClientKey`) when the serving user wants tools to reach them.
 * Each throws an error naming what is missing when the client did not declare the capability.
 */
export interface ServedClientChannels {
  askUser: AskUser;
  modelClient: ModelClient;
}

/**
 * Makes the channels of the client one server talks to.
 *
 * @param server The server of that client (read when a question is asked: it may not be connected yet).
 * @returns The channels.
 *
 * @example
 * ```ts
 * import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
 * import { servedClientChannels } from '@toolshed/mcp-bridge';
 * declare const server: Server; // the served session's, connected to a client
 *
 * const channels = servedClientChannels(() => server);
 * await channels.askUser.ask({ source: 'Deploy', message: 'Deploy to production?' }); // elicitation/create
 * ```
 */
export function servedClientChannels(server: () => Server): ServedClientChannels {
  return {
    askUser: {
      async ask(request) {
        const mcp = server();
        if (!mcp.getClientCapabilities()?.elicitation)
          throw new Error(
            `${request.source} asked the MCP client's user, but the client cannot be asked (it does not declare the elicitation capability)`,
          );
        // A page to open goes as URL-mode elicitation to a client that has it (2025-11-25): its
        // UI shows the URL and opens it only on consent. Others get the message, which names the URL.
        if (request.url && mcp.getClientCapabilities()?.elicitation?.url) {
          const answer = await mcp.elicitInput(
            { mode: 'url', message: request.message, url: request.url, elicitationId: randomUUID() },
            request.signal ? { signal: request.signal } : undefined,
          );
          return answer.action === 'accept' ? { action: 'accept' } : { action: answer.action };
        }
        const requestedSchema = (request.schema ?? {
          type: 'object',
          properties: {},
        }) as ElicitRequestFormParams['requestedSchema'];
        const answer = await mcp.elicitInput(
          { message: request.message, requestedSchema },
          request.signal ? { signal: request.signal } : undefined,
        );
        if (answer.action === 'accept')
          return { action: 'accept', content: (answer.content ?? {}) as Record<string, unknown> };
        return { action: answer.action };
      },
    },
    modelClient: {
      async complete(request) {
        const mcp = server();
        if (!mcp.getClientCapabilities()?.sampling)
          throw new Error(
            "A tool asked the MCP client's model, but the client has none to offer (it does not declare the sampling capability)",
          );
        const history = (request.messages ?? []).map((m) => ({
          role: m.role,
          content: { type: 'text' as const, text: m.content },
        }));
        const result = await mcp.createMessage(
          {
            messages: [...history, { role: 'user', content: { type: 'text', text: request.prompt } }],
            maxTokens: request.maxTokens ?? 1024,
            ...(request.system !== undefined ? { systemPrompt: request.system } : {}),
          },
          request.signal ? { signal: request.signal } : undefined,
        );
        const blocks = Array.isArray(result.content) ? result.content : [result.content];
        return blocks
          .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
          .map((b) => b.text)
          .join('');
      },
    },
  };
}
