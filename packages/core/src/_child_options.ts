import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Inherited, SessionConfig } from './_session_config.ts';
import { type ChildSessionOptions, INHERITED_FROM_PARENT, narrowerMode } from './child_session.ts';
import type { ToolPool } from './pool.ts';
import { SavedResults } from './results/saved_results.ts';
import { parseRule } from './permissions/rule_parser.ts';
import type { PermissionContext } from './permissions/types.ts';
import type { SessionOptions } from './session_types.ts';
import type { ToolContext } from './tool.ts';

/** The parent a child session is opened from. */
export interface ChildParent {
  options: SessionOptions;
  config: SessionConfig;
  pool: ToolPool;
  /** The parent's context between calls (its cwd and permissions as they are now). */
  context: ToolContext;
}

/**
 * The options of a child session: same cwd, families, hooks and canUseTool; the parent's
 * permission context (its rules wherever they came from, its working directories) plus blanket
 * deny rules for the tools it may not have, and a mode never more permissive than the parent's.
 * It reads no settings files: it inherits the parent's `env` and family settings.
 *
 * @param parent The parent session's parts.
 * @param child What the caller asked for.
 * @returns The options for `createSession`.
 *
 * @example
 * ```ts
 * import { childOptionsOf, type ChildParent } from './_child_options.ts';
 *
 * declare const parent: ChildParent;
 * const options = childOptionsOf(parent, { tools: ['Read', 'Grep'], mode: 'plan' });
 * ```
 */
export function childOptionsOf(
  parent: ChildParent,
  child: ChildSessionOptions,
): SessionOptions & { [INHERITED_FROM_PARENT]: Inherited } {
  const { options, config, pool, context } = parent;
  const source = child.source ?? 'child session';
  const toolName = (rule: string) => rule.replace(/\(.*$/s, '').trim();
  const keep = child.tools && !child.tools.includes('*') ? new Set(child.tools.map(toolName)) : undefined;
  const removed = new Set<string>(child.disallowedTools ?? []);
  if (keep) {
    for (const entry of pool.list()) {
      if (keep.has(entry.name) || entry.tool?.aliases.some((a) => keep.has(a))) continue;
      removed.add(entry.name);
    }
  }
  const current = context.permissions;
  const permissions: PermissionContext = {
    ...current,
    mode: narrowerMode(current.mode, child.mode),
    rules: {
      ...current.rules,
      // Frozen, as a session's lists are: the indexes kept with it need not compare it on each call.
      deny: Object.freeze([
        ...current.rules.deny,
        ...[...removed].map((name) => Object.freeze(parseRule(name, { behavior: 'deny', source }))),
      ]),
    },
    ...(child.cwd !== undefined ? { workingDirectories: [path.resolve(child.cwd)] } : {}),
  };
  const childId = child.sessionId ?? randomUUID();
  const signals = [options.signal, child.signal].filter((s): s is AbortSignal => s !== undefined);
  const { permissions: _permissions, signal: _signal, hooks: _hooks, ...rest } = options;
  const childOptions: SessionOptions & { [INHERITED_FROM_PARENT]: Inherited } = {
    ...rest,
    cwd: child.cwd !== undefined ? path.resolve(child.cwd) : context.cwd,
    sessionId: childId,
    stateDir: child.stateDir ?? path.join(config.stateDir, 'children', childId),
    settingsSources: [],
    settingsFiles: [],
    [INHERITED_FROM_PARENT]: {
      permissions,
      hooks: config.hooks,
      env: config.settings.env,
      familySettings: config.settings.familySettings,
      projectTrusted: config.projectTrusted,
      savedResults: SavedResults.of(context.fileState),
    },
  };
  if (signals.length) childOptions.signal = AbortSignal.any(signals);
  return childOptions;
}
