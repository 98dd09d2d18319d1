import { createRequire } from 'node:module';
import { defineFamily, type Family } from '@toolshed/core';
import { createDeferralPolicy, type DeferralPolicyOptions } from './deferral_policy.ts';
import { createToolSearchTool, type ToolSearchToolOptions } from './tool_search_tool.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode toolSearch}: when tools are deferred, and how ToolSearch ranks. */
export interface ToolSearchOptions extends DeferralPolicyOptions, ToolSearchToolOptions {}

/**
 * The `search` family: the ToolSearch tool, and the session's deferral policy. With it,
 * `session.toolsFor()` leaves deferred tools out until ToolSearch loads them, and
 * `session.deferredNotice()` names them for the system prompt. By default (`mode: 'auto'`)
 * tools marked `shouldDefer`, MCP tools and lazy families' tools are deferred, and others too
 * while the definitions would take more than 10% of a 200 000-token context window.
 *
 * @param options Deferral mode, threshold, context window, pinned names, ranker.
 * @returns The family, for `createSession({ families })`.
 * @throws {RangeError} For an unknown mode or an out-of-range threshold or context window.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { mcpServers, type McpConfig } from '@toolshed/mcp-bridge';
 * import { fileTools } from '@toolshed/tool-fs';
 * import { toolSearch } from '@toolshed/toolsearch';
 * declare const config: McpConfig;
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools(), mcpServers(config), toolSearch({ mode: 'auto' })] });
 * const system = `You are a coding agent.\n\n${session.deferredNotice()}`;
 * const tools = session.toolsFor('anthropic'); // ToolSearch + what is not deferred
 * ```
 */
export function toolSearch(options: ToolSearchOptions = {}): Family {
  const policy = createDeferralPolicy(options);
  const tool = createToolSearchTool(options.ranker ? { ranker: options.ranker } : {});
  return defineFamily({
    name: 'search',
    version,
    tools: [tool],
    setup(api) {
      api.setDeferralPolicy(policy);
    },
  });
}
