/**
 * `@toolshed/tool-agent`: Agent, TodoWrite, Task*, SendMessage, AskUserQuestion, plan mode, Skill and Sleep for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { agentTools } from '@toolshed/tool-agent';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [agentTools()] });
 * ```
 *
 * @module
 */
export { agentTools, type AgentToolsOptions } from './family.ts';
