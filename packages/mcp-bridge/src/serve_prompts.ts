import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { SkillSources } from '@toolshed/core';

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

/**
 * A session's skills as the prompts it offers MCP clients: every skill of `sources` (the agent
 * family's skill files, each with one optional argument `args`; an MCP server's prompts, with
 * theirs) is a prompt of that name, and `prompts/get` returns the skill's instructions, its
 * arguments filled in, as one user message. Arguments are completed where the skill's source
 * completes them (an MCP server's prompt). What `toolshed mcp serve` offers.
 *
 * @param sources The session's skill sources: the registry given to `createSession` under `skillSourcesKey`.
 * @returns The prompt source, for `serveSession`'s `prompts`.
 *
 * @example
 * ```ts
 * import { createSession, SkillSources, skillSourcesKey, type Family } from '@toolshed/core';
 * import { serveSession, skillPrompts } from '@toolshed/mcp-bridge';
 * declare const agentTools: () => Family; // the agent family of @toolshed/tool-agent
 *
 * const skills = new SkillSources();
 * const session = await createSession({ cwd: process.cwd(), families: [agentTools()], services: [[skillSourcesKey, skills]] });
 * await serveSession(session, { transport: 'stdio', prompts: () => skillPrompts(skills) });
 * ```
 */
export function skillPrompts(sources: SkillSources): ServePromptSource {
  return {
    async list() {
      const { skills } = await sources.list();
      return skills.map((s) => ({
        name: s.name,
        description: s.description,
        ...(s.arguments?.length
          ? {
              arguments: s.arguments.map((a) => ({
                name: a.name,
                ...(a.description ? { description: a.description } : {}),
                ...(a.required ? { required: true } : {}),
              })),
            }
          : {}),
      }));
    },
    async get(name, args) {
      const text = await sources.load(name, { arguments: args });
      if (text === undefined) return undefined;
      const skill = (await sources.list()).skills.find((s) => s.name === name);
      return {
        ...(skill ? { description: skill.description } : {}),
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
    async complete(name, argument, value, context) {
      const skill = (await sources.list()).skills.find((s) => s.name === name);
      const source = skill && sources.sources().find((s) => s.name === skill.source);
      return (await source?.complete?.({ skill: name, argument, value, context })) ?? [];
    },
  };
}
