/**
 * `@toolshed/tool-web/internal`: the parts of WebFetch's address guard — host patterns, address
 * classes, the resolver that pins a checked address, the pinned HTTP agent — and the search
 * query helpers, for this repository's tests and benchmarks. **Unstable**: these names may change
 * or go in any release, without a major version. Integrators need only `@toolshed/tool-web`.
 *
 * ```ts
 * import { classifyAddress } from '@toolshed/tool-web/internal';
 *
 * classifyAddress('169.254.169.254').kind; // 'link-local'
 * ```
 *
 * @module
 */
export { plainSnippet, withSiteOperators } from '../search_backend.ts';
export { classifyAddress, isPublicAddress, type AddressClass, type AddressKind } from '../address_policy.ts';
export {
  resolveGuardedHost,
  type GuardedHost,
  type ResolvedAddress,
  type ResolveGuardedHostOptions,
} from '../network_guard.ts';
export { pinnedAgent } from '../connect.ts';
export {
  domainPatternOf,
  effectivePort,
  hostPatternMatches,
  normalizeHost,
  parseHostPattern,
  type HostPattern,
} from '../host_pattern.ts';
