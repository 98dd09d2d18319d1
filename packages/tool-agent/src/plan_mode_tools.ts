import { buildTool, type AnyTool, type PermissionMode, type ToolContext } from '@toolshed/core';
import { z } from 'zod';

/** Input of EnterPlanMode. */
export const enterPlanModeInput = z.strictObject({});

/** Input of ExitPlanMode. */
export const exitPlanModeInput = z.strictObject({
  plan: z.string().min(1).describe('The plan to present to the user for approval, in Markdown'),
});

/**
 * EnterPlanMode and ExitPlanMode. EnterPlanMode switches the session's permission mode to
 * `plan` (only read-only calls run) through a context change and remembers the mode before;
 * ExitPlanMode presents the plan to the user through the permission prompt (`canUseTool`, or
 * the CLI's TTY prompt) and, once approved, restores that mode. A rejected plan, or no one to
 * ask, keeps plan mode.
 *
 * @returns The two tools, sharing the remembered modes.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createPlanModeTools } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const session = await createSession({ cwd, tools: createPlanModeTools(), canUseTool: async () => ({ behavior: 'allow' }) });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'EnterPlanMode', input: {} }]);
 * await session.run([{ type: 'tool_use', id: 't2', name: 'ExitPlanMode', input: { plan: '1. Fix the parser' } }]);
 * ```
 */
export function createPlanModeTools(): AnyTool[] {
  // The mode each session had before it entered plan mode.
  const before = new Map<string, PermissionMode>();

  const enter = buildTool({
    name: 'EnterPlanMode',
    searchHint: 'plan before changing anything read-only research',
    description:
      'Switches this session to plan mode: from now on only read-only tools run, so you can research and design before changing anything. When the plan is ready, present it with ExitPlanMode; the user approves it before anything changes.',
    inputSchema: enterPlanModeInput,
    // Plan mode only narrows what may run, so entering it needs no approval.
    checkPermissions: () => ({ behavior: 'allow' }),
    async call(_input, ctx) {
      const mode = ctx.permissions.mode;
      if (mode === 'plan')
        return {
          data: 'The session is already in plan mode. Research with read-only tools, then present your plan with ExitPlanMode.',
        };
      if (!before.has(ctx.sessionId)) ctx.onClose(() => void before.delete(ctx.sessionId));
      before.set(ctx.sessionId, mode);
      return {
        data: `Entered plan mode (the mode was "${mode}"). Only read-only tools run now: explore the code, then present your plan with ExitPlanMode.`,
        contextModifier: (next: ToolContext) => withMode(next, 'plan'),
      };
    },
  });

  const exit = buildTool({
    name: 'ExitPlanMode',
    searchHint: 'present the plan for approval and start coding',
    description:
      'Presents your plan to the user and, once they approve it, leaves plan mode so you can start changing files. Call it only in plan mode, when the plan is complete. If the user rejects the plan, plan mode stays: revise the plan and present it again.',
    inputSchema: exitPlanModeInput,
    validateInput: (_input, ctx) =>
      ctx.permissions.mode === 'plan'
        ? { result: true }
        : {
            result: false,
            message: `The session is not in plan mode (it is in "${ctx.permissions.mode}"), so there is nothing to exit; go on with the work.`,
          },
    // Leaving plan mode widens what may run: the user decides, every time.
    checkPermissions: ({ plan }) => ({ behavior: 'ask', message: `Approve this plan and leave plan mode?\n\n${plan}` }),
    async call({ plan }, ctx) {
      const restore = before.get(ctx.sessionId) ?? 'default';
      before.delete(ctx.sessionId);
      return {
        data: `The user approved your plan; plan mode is over (the mode is "${restore}" again). Start with the first step, and track the steps with TodoWrite if you have it.\n\n## Approved plan\n${plan}`,
        contextModifier: (next: ToolContext) => withMode(next, restore),
      };
    },
  });

  return [enter, exit];
}

function withMode(ctx: ToolContext, mode: PermissionMode): ToolContext {
  return { ...ctx, permissions: { ...ctx.permissions, mode } };
}
