import type { HookMatcherGroup, HooksConfig } from './types.ts';

/**
 * Concatenates hook configs, event by event: the groups of the first config, then those of the
 * next (settings files lowest to highest, then the session's `hooks` option). Identical hooks
 * still run once per call (see `runHooks`).
 *
 * @param configs The configs; undefined ones are skipped.
 * @returns The merged config, or undefined when there are no hooks at all.
 * @throws {TypeError} When an event's value is not a list (a hook must never be dropped silently).
 *
 * @example
 * ```ts
 * import { type HookDefinition, mergeHooks } from '@toolshed/core';
 * declare const a: HookDefinition;
 * declare const b: HookDefinition;
 *
 * mergeHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [a] }] }, { PreToolUse: [{ hooks: [b] }] });
 * // { PreToolUse: [{ matcher: 'Bash', hooks: [a] }, { hooks: [b] }] }
 * ```
 */
export function mergeHooks(...configs: (HooksConfig | undefined)[]): HooksConfig | undefined {
  const out: Record<string, HookMatcherGroup[]> = {};
  for (const config of configs) {
    if (!config) continue;
    for (const [event, groups] of Object.entries(config)) {
      if (groups === undefined) continue;
      if (!Array.isArray(groups)) {
        throw new TypeError(
          `hooks.${event} must be a list of matcher groups such as [{ matcher: 'Bash', hooks: [fn] }], got ${typeof groups}`,
        );
      }
      (out[event] ??= []).push(...(groups as HookMatcherGroup[]));
    }
  }
  return Object.keys(out).length > 0 ? (out as HooksConfig) : undefined;
}
