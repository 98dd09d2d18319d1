import { formatInputError } from './input_errors.ts';
import { noSuchToolText } from './_no_such_tool.ts';
import { decidePermission } from './permissions/decide_permission.ts';
import { findBlanketDenyRule } from './permissions/rule_matching.ts';
import type { PermissionDecision } from './permissions/types.ts';
import type { ToolPool } from './pool.ts';
import type { ToolContext } from './tool.ts';

/**
 * `session.explain`: what the permission step would decide for a call, and which rule from
 * which file decided, without running anything (no hooks, no prompt).
 *
 * @param call The tool (by name or alias) and the call's input.
 * @param session The session's pool and its context between calls.
 * @returns The decision.
 *
 * @example
 * ```ts
 * import { explainCall } from './_explain_call.ts';
 * import type { ToolPool } from './pool.ts';
 * import type { ToolContext } from './tool.ts';
 *
 * declare const pool: ToolPool;
 * declare const ctx: ToolContext;
 * const decision = await explainCall({ toolName: 'Read', input: { file_path: '.env' } }, { pool, ctx });
 * console.log(decision.behavior, decision.rule);
 * ```
 */
export async function explainCall(
  call: { toolName: string; input: unknown },
  session: { pool: ToolPool; ctx: ToolContext },
): Promise<PermissionDecision> {
  const { toolName, input } = call;
  const { pool, ctx } = session;
  const tool = await pool.resolve(toolName);
  if (!tool) {
    // A blanket deny rule removes its tool from the pool; the decision still names the rule.
    const rule = findBlanketDenyRule({ name: toolName, aliases: [] }, ctx.permissions);
    if (rule)
      return {
        behavior: 'deny',
        reason: `Denied by rule "${rule.raw}" from ${rule.source}; the tool is left out of the pool`,
        rule: rule.raw,
        source: rule.source,
      };
    return { behavior: 'deny', reason: noSuchToolText(toolName, pool.names()), source: 'pool' };
  }
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success)
    return {
      behavior: 'deny',
      reason: formatInputError(parsed.error, { toolName: tool.name, input }),
      source: 'schema',
    };
  return decidePermission(tool, parsed.data, {
    ctx: { ...ctx, toolUseId: 'explain', signal: new AbortController().signal },
  });
}
