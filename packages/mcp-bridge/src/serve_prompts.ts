import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

/**
 * Prompts a served session offers to MCP clients (`prompts/list`, `prompts/get`, and
 * `completion/complete` of their arguments): the session's skills or commands, or any the
 * integrator has. `get` returns `undefined` for a name it does not know.
 *
 * @example
 * ```ts
 * import { type ServePromptSource, serveSession } from '@toolshed/mcp-bridge';
 * import type { Session } from '@toolshed/core';
 * declare const session: Session;
 *
 * const review: ServePromptSource = {
 *   list: () => [{ name: 'review', description: 'Review a file', arguments: [{ name: 'file', required: true }] }],
 *   get: (name, args) =>
 *     name === 'review'
 *       ? { messages: [{ role: 'user', content: { type: 'text', text: `Review ${args.file}` } }] }
 *       : undefined,
 *   complete: (name, arg, value) => (name === 'review' && arg === 'file' ? ['src/a.ts'].filter((f) => f.startsWith(value)) : []),
 * };
 * await serveSession(session, { transport: 'stdio', prompts: () => review });
 * ```
 */
export interface ServePromptSource {
  list(): Prompt[] | Promise<Prompt[]>;
  /**
   * The prompt's messages with `args` filled in, `undefined` for an unknown name.
   * @throws {Error} When an argument is missing or wrong (the message names it).
   */
  get(name: string, args: Record<string, string>): GetPromptResult | undefined | Promise<GetPromptResult | undefined>;
  /** Values for an argument that start with `value` (`context` holds the arguments given so far). */
  complete?(
    name: string,
    argument: string,
    value: string,
    context: Record<string, string>,
  ): string[] | Promise<string[]>;
}
