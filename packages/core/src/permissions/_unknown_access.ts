import type { ResourceAccess, ToolContext } from '../tool.ts';
import { pathRulesFor } from './path_rule_index.ts';
import type { PermissionDecision } from './types.ts';

function describe(unknown: readonly ResourceAccess[]): string {
  const shown = unknown
    .slice(0, 3)
    .map((a) => `${a.path} (${a.access})`)
    .join(', ');
  return unknown.length > 3 ? `${shown} and ${unknown.length - 3} more` : shown;
}

/**
 * The ask for paths a tool could not know before its call runs, when something a person set up
 * could be behind them: for reads, a deny or ask path rule about reads; for writes, always (the
 * protected paths are behind every write). This ask holds in every mode, `bypassPermissions`
 * included, and no allow rule lifts it.
 *
 * @param unknown The call's `kind: 'unknown'` entries.
 * @param options The tool called and the call's context.
 * @returns The ask, or undefined when nothing could be behind them.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { unknownSafetyAsk } from './_unknown_access.ts';
 * declare const ctx: ToolContext;
 *
 * // deny: ['Read(./.env)']
 * unknownSafetyAsk([{ path: '`$F`', access: 'read', kind: 'unknown' }], { toolName: 'Bash', ctx })?.behavior; // 'ask'
 * ```
 */
export function unknownSafetyAsk(
  unknown: readonly ResourceAccess[],
  { toolName, ctx }: { toolName: string; ctx: Pick<ToolContext, 'permissions'> },
): PermissionDecision | undefined {
  if (unknown.length === 0) return undefined;
  const writes = unknown.filter((a) => a.access === 'write');
  if (writes.length > 0) {
    return {
      behavior: 'ask',
      reason: `The call writes a path that is not known before it runs: ${describe(writes)}; it could be a protected file (.git, settings, shell start-up files), so it always asks, in every mode`,
      source: 'safety',
      suggestions: [],
    };
  }
  const { rules } = ctx.permissions;
  // The first deny rule about reads, else the first ask rule: looked up, not found by a scan.
  const denyAt = pathRulesFor(rules.deny, { toolName, access: 'read' })[0];
  const askAt = denyAt === undefined ? pathRulesFor(rules.ask, { toolName, access: 'read' })[0] : undefined;
  const rule = denyAt !== undefined ? rules.deny[denyAt] : askAt !== undefined ? rules.ask[askAt] : undefined;
  if (!rule) return undefined;
  return {
    behavior: 'ask',
    reason: `The call reads a path that is not known before it runs: ${describe(unknown)}; rule "${rule.raw}" from ${rule.source} could cover it, so it asks, in every mode`,
    source: 'safety',
    suggestions: [],
  };
}

/**
 * The ask for paths a tool could not know before its call runs, where no rule is behind them:
 * what is not known is not auto-approved (read-only or not), but `bypassPermissions` allows it.
 *
 * @param unknown The call's `kind: 'unknown'` entries (at least one).
 * @returns The ask.
 *
 * @example
 * ```ts
 * import { unknownAccessAsk } from './_unknown_access.ts';
 *
 * unknownAccessAsk([{ path: '`*.txt`', access: 'read', kind: 'unknown' }]).reason;
 * // 'The call reads a path that is not known before it runs: `*.txt` (read); …'
 * ```
 */
export function unknownAccessAsk(unknown: readonly ResourceAccess[]): PermissionDecision {
  const verb = unknown.some((a) => a.access === 'write') ? 'writes' : 'reads';
  return {
    behavior: 'ask',
    reason: `The call ${verb} a path that is not known before it runs: ${describe(unknown)}; a path the guard cannot work out is approved by a person, not assumed to be inside the working directories`,
    suggestions: [],
  };
}
