import type { DeferralCandidate, DeferralPolicy } from '@toolshed/core';

/** When tools are deferred: `auto` by size, `always` every eligible tool, `never` none. */
export type DeferralMode = 'auto' | 'always' | 'never';

/** Options of {@linkcode createDeferralPolicy} (and of the `toolSearch` family). */
export interface DeferralPolicyOptions {
  /** @default 'auto' */
  mode?: DeferralMode;
  /** In `auto`, the share of the context window the visible definitions may take. @default 0.1 */
  threshold?: number;
  /** The model's context window, in tokens. @default 200000 */
  contextWindow?: number;
  /** Characters per token when a definition's size is estimated. @default 4 */
  charsPerToken?: number;
  /** Names never deferred, in addition to `alwaysLoad` tools and ToolSearch. @default [] */
  alwaysLoad?: readonly string[];
}

/**
 * The name of the search tool, never deferred.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { TOOL_SEARCH_NAME } from '@toolshed/toolsearch';
 * declare const session: Session;
 *
 * session.toolsFor('anthropic').some((t) => t.name === TOOL_SEARCH_NAME); // true with toolSearch()
 * ```
 */
export const TOOL_SEARCH_NAME = 'ToolSearch';

/**
 * The deferral policy the `toolSearch` family installs. `alwaysLoad` tools and ToolSearch are
 * never deferred. Mode `never` defers nothing; `always` defers every other tool; `auto` defers
 * tools marked `shouldDefer` and tools from MCP servers, and then, while the definitions left
 * in the request would still take more than `threshold` of `contextWindow`, the largest of the
 * remaining tools, until the rest fits.
 *
 * @param options Mode, threshold, context window.
 * @returns The policy, for `FamilySetupApi.setDeferralPolicy`.
 * @throws {RangeError} For an unknown mode, a threshold outside 0–1 or a context window that is not positive.
 *
 * @example
 * ```ts
 * import { createDeferralPolicy } from '@toolshed/toolsearch';
 *
 * const policy = createDeferralPolicy({ mode: 'auto', threshold: 0.05, contextWindow: 128_000 });
 * policy([{ name: 'Big', family: 'x', shouldDefer: false, alwaysLoad: false, isMcp: false, definitionChars: 40_000 }]); // Set { 'Big' }
 * ```
 */
export function createDeferralPolicy(options: DeferralPolicyOptions = {}): DeferralPolicy {
  const mode = options.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'always' && mode !== 'never') {
    throw new RangeError(`Unknown deferral mode ${JSON.stringify(mode)}: use "auto", "always" or "never"`);
  }
  const threshold = options.threshold ?? 0.1;
  if (!(threshold >= 0 && threshold <= 1))
    throw new RangeError(`threshold is a share of the context window between 0 and 1, got ${threshold}`);
  const contextWindow = options.contextWindow ?? 200_000;
  if (!(contextWindow > 0))
    throw new RangeError(`contextWindow must be a positive number of tokens, got ${contextWindow}`);
  const charsPerToken = options.charsPerToken ?? 4;
  if (!(charsPerToken > 0)) throw new RangeError(`charsPerToken must be positive, got ${charsPerToken}`);
  const pinned = new Set(options.alwaysLoad ?? []);
  const budgetChars = threshold * contextWindow * charsPerToken;

  return (candidates: readonly DeferralCandidate[]) => {
    const deferred = new Set<string>();
    if (mode === 'never') return deferred;
    const eligible = candidates.filter((c) => !c.alwaysLoad && c.name !== TOOL_SEARCH_NAME && !pinned.has(c.name));
    if (mode === 'always') {
      for (const c of eligible) deferred.add(c.name);
      return deferred;
    }
    for (const c of eligible) if (c.shouldDefer || c.isMcp) deferred.add(c.name);
    let visibleChars = candidates.filter((c) => !deferred.has(c.name)).reduce((sum, c) => sum + c.definitionChars, 0);
    if (visibleChars <= budgetChars) return deferred;
    // Largest first: the fewest tools leave the request for the most room.
    const rest = eligible
      .filter((c) => !deferred.has(c.name))
      .sort((a, b) => b.definitionChars - a.definitionChars || (a.name < b.name ? -1 : 1));
    for (const c of rest) {
      if (visibleChars <= budgetChars) break;
      deferred.add(c.name);
      visibleChars -= c.definitionChars;
    }
    return deferred;
  };
}
