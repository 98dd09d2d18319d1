import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { deniedPathFilter, type ToolContext } from '@toolshed/core';
import { pathRuleRoots, realWorkingDirectories, resolveRealPath } from '@toolshed/core/internal';
import { SANDBOX_HOME_SECRETS } from './sandbox.ts';

/** At most this many entries of the working directories are looked at for deny-listed files. */
const MASK_WALK_LIMIT = 20_000;

/**
 * What the sandbox hides from a command, so that it enforces what the guard does: the home
 * directory's secrets folders (`~/.ssh`, `~/.aws`, `~/.gnupg`, `~/.config/gh`, …), the folders and
 * files that `Read(…)` deny rules name (their root, for a rule like `Read(~/.ssh/**)` or
 * `Read(./secrets)`), and every existing entry of the working directories that a deny rule
 * covers (`Read(.env)`, `Read(**\/*.pem)`), found by a bounded walk.
 *
 * @param ctx The call's context (rules, working directories, home directory).
 * @returns Absolute paths to mask.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { sandboxMasks } from './_sandbox_masks.ts';
 * declare const ctx: ToolContext;
 *
 * sandboxMasks(ctx); // ['/home/u/.ssh', '/home/u/.aws', '/p/.env', …]
 * ```
 */
export function sandboxMasks(ctx: Pick<ToolContext, 'cwd' | 'permissions'>): string[] {
  const home = ctx.permissions.homeDir ?? homedir();
  const out = new Set<string>();
  // A secrets folder that is a link (~/.ssh -> ~/dotfiles/ssh) is masked where it leads: the
  // sandbox cannot mask a link itself, and the command would read through it.
  for (const secret of SANDBOX_HOME_SECRETS) addWithTarget(out, path.join(home, secret), home);
  const rules = ctx.permissions.rules.deny.filter((r) => r.toolName === 'Read' && r.ruleContent !== undefined);
  if (rules.length === 0) return [...out];
  // Deny rules' bare names: below the working directories as pinned and as their links lead now.
  const dirs = realWorkingDirectories(ctx.permissions, ctx.cwd, { asLinkedNow: true });
  for (const rule of rules) {
    try {
      const roots = pathRuleRoots(rule.ruleContent!, {
        cwd: ctx.cwd,
        homeDir: home,
        root: rule.root ?? ctx.cwd,
        workingDirectories: dirs,
      });
      if (!roots.anywhere && (roots.glob === '' || /^\*\*(\/\*\*)*$/.test(roots.glob)))
        for (const d of roots.dirs) addWithTarget(out, d, home);
    } catch {
      // A malformed rule is reported when settings load.
    }
  }
  const denied = deniedPathFilter('Read', ctx);
  if (denied) {
    let seen = 0;
    const stack = [...dirs];
    while (stack.length > 0 && seen < MASK_WALK_LIMIT) {
      const dir = stack.pop()!;
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        seen++;
        const full = path.join(dir, e.name);
        if (denied(full)) out.add(full);
        else if (e.isDirectory() && !e.isSymbolicLink()) stack.push(full);
      }
    }
  }
  return [...out];
}

/** Adds a path to mask, and where it leads when it is (or goes through) a link. */
function addWithTarget(out: Set<string>, masked: string, home: string): void {
  out.add(masked);
  try {
    out.add(resolveRealPath(masked, { cwd: '/', homeDir: home }));
  } catch {
    // Looping links: nothing can be read through them either.
  }
}
