import { homedir } from 'node:os';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { PATH_RULE_COVERAGE } from './path_guard.ts';
import { pathRuleRoots } from './path_rule.ts';
import { pinnedPhysicalRoot } from './real_path_cache.ts';
import type { PermissionContext } from './types.ts';

/** The tools whose allow rules name paths (Read's and Edit's families). */
const PATH_RULE_TOOLS = new Set([...PATH_RULE_COVERAGE.Read, ...PATH_RULE_COVERAGE.Edit]);

/**
 * Pins the physical path of every path rule's root and every working directory of a permission
 * context now ({@linkcode pinnedPhysicalRoot}), before any call of the session can swap one of
 * them for a link: a rule is otherwise resolved at the first decision that looks it up, and the
 * first call may be the one that does `rm -rf docs && ln -s ~/.ssh docs` (which must not widen an
 * allow rule) or re-points `vault -> /data/vault` elsewhere (which must not take a deny rule off
 * `/data/vault`: deny and ask rules cover their roots both as pinned and as their links lead now).
 *
 * @param context The permission context, as made.
 * @param cwd What `./` rules are relative to.
 *
 * @example
 * ```ts
 * import { createPermissionContext } from './permission_context.ts';
 * import { pinPermissionRoots } from './_pin_roots.ts';
 *
 * pinPermissionRoots(createPermissionContext({ allow: ['Read(./docs/**)'] }, '/p').context, '/p');
 * ```
 */
export function pinPermissionRoots(context: PermissionContext, cwd: string): void {
  const homeDir = context.homeDir ?? homedir();
  for (const dir of context.workingDirectories) if (isNormalAbsolute(dir)) pinnedPhysicalRoot(dir, homeDir);
  const { allow, deny, ask } = context.rules;
  for (const rule of [...deny, ...ask, ...allow]) {
    if (rule.ruleContent === undefined || !PATH_RULE_TOOLS.has(rule.toolName)) continue;
    try {
      // Resolving the roots with pinnedRoots pins them; a bare name's roots are the working directories.
      pathRuleRoots(rule.ruleContent, {
        cwd,
        homeDir,
        root: rule.root ?? cwd,
        caseInsensitive: context.caseInsensitivePaths === true,
        workingDirectories: [],
        pinnedRoots: true,
      });
    } catch {
      // A malformed specifier is reported where rules are parsed; it matches nothing.
    }
  }
}
