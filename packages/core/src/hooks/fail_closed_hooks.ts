import type { HookDefinition, HookMatcherGroup, HooksConfig } from './types.ts';

/**
 * Marks every PreToolUse hook of a config `failClosed`: each then blocks its call on any error,
 * timeout, crash or malformed reply, not only on exit 2. What the settings key
 * `"failClosedHooks": true` does to all the hooks of a session. PostToolUse and
 * PostToolUseFailure hooks are left as they are (they run after the call, so they cannot stop it).
 *
 * @param config The hooks (undefined: none).
 * @returns A new config; the one given is not changed.
 *
 * @example
 * ```ts
 * import { failClosedHooks } from '@toolshed/core';
 *
 * failClosedHooks({ PreToolUse: [{ hooks: [{ type: 'command', command: './guard.sh' }] }] });
 * // { PreToolUse: [{ hooks: [{ type: 'command', command: './guard.sh', failClosed: true }] }] }
 * ```
 */
export function failClosedHooks(config: HooksConfig | undefined): HooksConfig | undefined {
  if (!config?.PreToolUse) return config;
  const groups: HookMatcherGroup[] = config.PreToolUse.map((group) => ({ ...group, hooks: group.hooks.map(closed) }));
  return { ...config, PreToolUse: groups };
}

function closed(hook: HookDefinition): HookDefinition {
  if (typeof hook === 'function')
    return { type: 'function', fn: hook, failClosed: true, ...(hook.name ? { name: hook.name } : {}) };
  return { ...hook, failClosed: true };
}
