import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode agentTools}; none yet. */
export type AgentToolsOptions = Record<string, unknown>;

/**
 * The `agent` family: Agent, TodoWrite, Task*, SendMessage, AskUserQuestion, plan mode, Skill and Sleep. Not yet implemented — the family is empty.
 *
 * @param options Reserved for the family's options.
 * @returns The family, for `createSession({ families })`.
 *
 * @example
 * ```ts
 * const session = await createSession({ cwd: process.cwd(), families: [agentTools()] });
 * ```
 */
export function agentTools(_options: AgentToolsOptions = {}): Family {
  return defineFamily({ name: 'agent', version, tools: [] });
}
