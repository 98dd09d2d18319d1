import { serviceKey, type ServiceKey } from './services.ts';
import { ToolshedError } from './errors.ts';
import type { ToolContext } from './tool.ts';
import type { Session } from './session_types.ts';
import type { PermissionMode } from './permissions/types.ts';

/** What a family asks for when it opens a child session (a sub-agent's). */
export interface ChildSessionOptions {
  /**
   * The tools the child may have, by name: the child's pool is the parent's pool ∩ these.
   * `undefined` or a list holding `'*'` keeps every tool of the parent.
   * @default every tool of the parent
   */
  tools?: readonly string[] | undefined;
  /** Tools taken away (as blanket deny rules, so they also hold for tools loaded later). @default [] */
  disallowedTools?: readonly string[] | undefined;
  /**
   * The mode the child asks for; it never gets a more permissive one than the parent's
   * (see {@linkcode narrowerMode}).
   * @default the parent's mode
   */
  mode?: PermissionMode | undefined;
  /**
   * A folder the child works in instead of the parent's cwd — a git worktree the opener made of
   * the parent's project, for a sub-agent whose edits must stay apart. It becomes the child's
   * only working directory; the parent's rules hold there as they are (`./` rules are relative
   * to it, as to any cwd).
   * @default the parent's cwd and working directories
   */
  cwd?: string | undefined;
  /** @default a random UUID */
  sessionId?: string | undefined;
  /** @default `<parent stateDir>/children/<child id>` */
  stateDir?: string | undefined;
  /** Aborts the child's calls (in addition to the parent session's signal). */
  signal?: AbortSignal | undefined;
  /** The `source` named by the deny rules that narrow the child. @default 'child session' */
  source?: string | undefined;
}

/** Opens narrowed child sessions of one session; found through `ctx.services`. */
export interface ChildSessionOpener {
  /** Opens a child: same cwd, families, hooks and `canUseTool`; the parent's rules plus the narrowing. */
  open(options?: ChildSessionOptions): Promise<Session>;
}

/**
 * The service key under which every session offers its {@linkcode ChildSessionOpener}.
 *
 * @example
 * ```ts
 * import { childSessionKey, type ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * const child = await ctx.services.get(childSessionKey)!.open({ disallowedTools: ['Edit', 'Write'] });
 * ```
 */
export const childSessionKey: ServiceKey<ChildSessionOpener> = serviceKey<ChildSessionOpener>('toolshed.childSession');

/** Internal: the option through which a parent hands its merged permissions and hooks to a child. */
export const INHERITED_FROM_PARENT: unique symbol = Symbol('toolshed.inheritedFromParent');

/**
 * Opens a child session of the session a call runs in: the seam through which a family (the
 * agent family's sub-agents) gets a narrowed session without importing any other family. The
 * child's tools are the parent's pool ∩ `tools` − `disallowedTools`; the parent's deny, ask and
 * allow rules, working directories and hooks hold in it; its mode is never more permissive; its
 * asks go to the parent's `canUseTool`; it has its own file-state cache; aborting the parent's
 * signal aborts it. Close it when done.
 *
 * @param ctx The call's context.
 * @param options The narrowing.
 * @returns The child session.
 * @throws {ToolshedError} `child_session_unavailable` when the context has no opener (a
 * hand-made context rather than a session's).
 *
 * @example
 * ```ts
 * import { openChildSession, type ToolContext, type ToolUseBlock } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * declare const blocks: ToolUseBlock[];
 * const child = await openChildSession(ctx, { tools: ['Read', 'Grep', 'Glob'], mode: 'plan', signal: ctx.signal });
 * try { await child.run(blocks); } finally { await child.close(); }
 * ```
 */
export function openChildSession(
  ctx: Pick<ToolContext, 'services'>,
  options: ChildSessionOptions = {},
): Promise<Session> {
  const opener = ctx.services.get(childSessionKey);
  if (!opener)
    throw new ToolshedError(
      'child_session_unavailable',
      'This context offers no child sessions: open children from the context of a call made by a session from createSession',
    );
  return opener.open(options);
}

const RANK: Record<PermissionMode, number> = { dontAsk: 0, plan: 0, default: 1, acceptEdits: 2, bypassPermissions: 3 };

/**
 * The mode a child gets: the one it asks for when that is no more permissive than the parent's,
 * else the parent's. `plan` and `dontAsk` are the least permissive; a child cannot trade one for
 * the other (`plan` still asks, `dontAsk` still writes), so between them the parent's holds.
 *
 * @param parent The parent's mode.
 * @param requested The mode asked for.
 * @returns The child's mode.
 *
 * @example
 * ```ts
 * import { narrowerMode } from '@toolshed/core';
 *
 * narrowerMode('default', 'bypassPermissions'); // 'default'
 * narrowerMode('acceptEdits', 'plan');          // 'plan'
 * ```
 */
export function narrowerMode(parent: PermissionMode, requested: PermissionMode | undefined): PermissionMode {
  if (requested === undefined || requested === parent) return parent;
  if (RANK[requested] < RANK[parent]) return requested;
  return parent;
}
