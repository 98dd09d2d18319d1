import { serviceKey } from './services.ts';

/** One request to a model for a small task (summarizing a page, answering about a file). */
export interface ModelRequest {
  /** The system prompt. */
  system?: string;
  /** The user's text. */
  prompt: string;
  /**
   * A conversation to continue, oldest first, when there is more than one turn (an MCP
   * server's sampling request); `prompt` is then its last user message. A client that reads
   * only `prompt` still answers the last question.
   */
  messages?: readonly { role: 'user' | 'assistant'; content: string }[];
  /** @default the client's own default */
  maxTokens?: number;
  signal?: AbortSignal;
}

/**
 * A model client that families find through `ctx.services.get(modelClientKey)`: WebFetch uses
 * it to apply its `prompt`, the agent family provides one for sub-agents. Declared in core so
 * that two families can share it without importing each other.
 *
 * @example
 * ```ts
 * import { type ModelClient, createSession, modelClientKey } from '@toolshed/core';
 * const cwd = process.cwd();
 *
 * const client: ModelClient = { complete: async ({ prompt }) => `echo: ${prompt}` };
 * const session = await createSession({ cwd, services: [[modelClientKey, client]] });
 * ```
 */
export interface ModelClient {
  /** Returns the model's text answer. */
  complete(request: ModelRequest): Promise<string>;
}

/**
 * The service key of the session's {@linkcode ModelClient}.
 *
 * @example
 * ```ts
 * import { type ToolContext, modelClientKey } from '@toolshed/core';
 * declare const ctx: ToolContext;
 * const prompt = 'Summarise the diff in one line.';
 *
 * const model = ctx.services.get(modelClientKey);
 * const answer = model ? await model.complete({ prompt }) : undefined;
 * ```
 */
export const modelClientKey = serviceKey<ModelClient>('toolshed.modelClient');
