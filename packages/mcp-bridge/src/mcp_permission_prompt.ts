import type { CanUseTool, CanUseToolResult } from '@toolshed/core';
import { quotedRules } from '@toolshed/core/internal';

/** Answers one permission prompt for a call that came in over MCP. */
export type McpPermissionAsker = (
  toolName: string,
  input: unknown,
  options: Parameters<CanUseTool>[2],
) => Promise<CanUseToolResult>;

/**
 * The bridge between a session's `canUseTool` and the MCP clients of {@linkcode serveSession}:
 * give `canUseTool` to `createSession`, and the prompt to `serveSession`, which registers an
 * asker for each call it runs. A permission ask for a call that came in over MCP then becomes
 * an elicitation request to the client that made the call.
 */
export interface McpPermissionPrompt {
  /** For `createSession({ canUseTool })`. */
  readonly canUseTool: CanUseTool;
  /**
   * Routes the asks of one call (by its `tool_use` id) to an asker; used by `serveSession`.
   *
   * @returns Removes the route.
   */
  register(toolUseId: string, asker: McpPermissionAsker): () => void;
}

/** Options of {@linkcode createMcpPermissionPrompt}. */
export interface McpPermissionPromptOptions {
  /** Answers asks of calls that did not come in over MCP (the session's own loop). @default deny, naming the rule that would allow the call */
  fallback?: CanUseTool;
}

/**
 * Creates the permission prompt that lets a served session ask the MCP client (through
 * elicitation) before a call that needs approval. The session's `canUseTool` is fixed when the
 * session is created, so the prompt is made first and given to both: this keeps
 * `serveSession` working with any session, and a session created without it still answers
 * asks with core's denial that names the rule to add.
 *
 * @param options What answers asks that do not come from an MCP client.
 * @returns The prompt.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createMcpPermissionPrompt, serveSession } from '@toolshed/mcp-bridge';
 * import { fileTools } from '@toolshed/tool-fs';
 * declare const cwd: string;
 *
 * const prompt = createMcpPermissionPrompt();
 * const session = await createSession({ cwd, families: [fileTools()], canUseTool: prompt.canUseTool });
 * const served = await serveSession(session, { transport: 'stdio', permissionPrompt: prompt });
 * ```
 */
export function createMcpPermissionPrompt(options: McpPermissionPromptOptions = {}): McpPermissionPrompt {
  const askers = new Map<string, McpPermissionAsker>();
  return {
    async canUseTool(toolName, input, callOptions) {
      const asker = askers.get(callOptions.toolUseId);
      if (asker) return asker(toolName, input, callOptions);
      if (options.fallback) return options.fallback(toolName, input, callOptions);
      // The suggestions are added together (each covers a part of the call); with none, no rule
      // would allow this call alone, and a bare tool name would allow far more than it.
      const rules = quotedRules(callOptions.suggestions);
      const how = rules
        ? `To allow such calls, add ${rules} to permissions.allow.`
        : 'No rule would allow this call alone: a person must approve it.';
      return {
        behavior: 'deny',
        message: `no one was available to approve it (${callOptions.reason}). ${how}`,
      };
    },
    register(toolUseId, asker) {
      askers.set(toolUseId, asker);
      return () => {
        if (askers.get(toolUseId) === asker) askers.delete(toolUseId);
      };
    },
  };
}
