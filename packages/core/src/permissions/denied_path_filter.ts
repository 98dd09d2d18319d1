import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ToolContext } from '../tool.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { pathRuleApplies, pathRuleCompiler, safeCovers, safeCoversWhole } from './path_guard.ts';
import { resolveRealPath } from './resolve_real_path.ts';
import type { PermissionRule } from './types.ts';

/**
 * A filter for the files a search found (Glob, Grep, or any tool that lists files it was not
 * asked about one by one): which deny or ask rule covers a found file, so the search can leave
 * it out (a search cannot stop to ask about each file; Read of the file asks).
 * The permission layer sees only the folder searched; a search must not show what Read would
 * refuse. The rules are the deny rules that apply to a read by `toolName`: every `Read(...)` rule
 * (which covers Glob and Grep too) and rules naming the tool itself (`Grep(./logs/**)`).
 *
 * The verdict is the path guard's for a read of the file ({@linkcode findPathRule} over
 * {@linkcode resolveResources}), with the same anchors, `**`, case folding and symlinks: the
 * path is judged as given and through symlinks, so a file found below a folder reached through a
 * link (`config-link/prod.json` → `config/prod.json`) is covered by a rule on either. One
 * difference, for speed: only the file's folders are resolved through symlinks, not the file
 * itself. Search walkers list regular files, not links; a caller that lists a link should pass
 * the path it points to as well.
 *
 * Built for many paths: each rule is compiled once, each folder is resolved and judged once (a
 * rule covering a folder covers every file in it), and a file costs a string test per rule.
 * Build one filter per search: it keeps what it resolved, and symlinks may change between calls.
 *
 * @param toolName The searching tool (`Glob`, `Grep`).
 * @param ctx The call's context.
 * @returns Undefined when no deny or ask rule applies to the tool (nothing to filter); otherwise a
 *   function taking an absolute path (a relative one is taken from `ctx.cwd`; `~` is not
 *   expanded) and returning the first deny rule, in list order, then the first ask rule, that
 *   covers it, or undefined.
 *   A path whose folders' symlinks loop is covered by the first rule, since Read would refuse it.
 *
 * @example
 * ```ts
 * import { type ToolContext, deniedPathFilter } from '@toolshed/core';
 * declare const ctx: ToolContext;
 * declare const found: string[];
 *
 * // deny: ['Read(./.env)', 'Read(**\/*.pem)']
 * const denied = deniedPathFilter('Glob', ctx);
 * const shown = denied ? found.filter((file) => denied(file) === undefined) : found;
 * denied?.('/repo/certs/server.pem')?.raw; // 'Read(**\/*.pem)'
 * ```
 */
export function deniedPathFilter(
  toolName: string,
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): ((path: string) => PermissionRule | undefined) | undefined {
  // Ask rules count too: a search cannot stop to ask about each file it found, so a file an ask
  // rule covers is left out like a denied one (the user reads it with Read, which asks).
  const rules = [...ctx.permissions.rules.deny, ...ctx.permissions.rules.ask].filter((rule) =>
    pathRuleApplies(rule, { toolName, access: 'read' }),
  );
  if (rules.length === 0) return undefined;
  const compile = pathRuleCompiler(ctx);
  const compiled = rules.map(compile);
  const homeDir = ctx.permissions.homeDir ?? homedir();
  const none = rules.length;

  // What is known of a folder: its physical path (null when its symlinks loop), built from its
  // parent's so that a folder costs one lstat (resolveRealPath, the guard's, takes over at a link);
  // and, once asked, the index of the first rule covering it as written or through links.
  const folders = new Map<string, { real: string | null; verdict?: number }>();
  const folder = (dir: string): { real: string | null; verdict?: number } => {
    let known = folders.get(dir);
    if (known !== undefined) return known;
    let real: string | null;
    if (dir === '/') real = '/';
    else {
      const slash = dir.lastIndexOf('/');
      const parent = folder(slash === 0 ? '/' : dir.slice(0, slash)).real;
      real = parent === null ? null : `${parent === '/' ? '' : parent}/${dir.slice(slash + 1)}`;
      if (real !== null && !isPlainEntry(real)) {
        try {
          real = resolveRealPath(real, { cwd: ctx.cwd, homeDir });
        } catch {
          real = null;
        }
      }
    }
    known = { real };
    folders.set(dir, known);
    return known;
  };
  const folderVerdict = (dir: string, known: { real: string | null; verdict?: number }): number => {
    if (known.verdict !== undefined) return known.verdict;
    const { real } = known;
    let verdict = 0;
    if (real !== null) {
      verdict = compiled.findIndex(
        (rule) => rule !== undefined && (safeCovers(rule, dir) || (real !== dir && safeCovers(rule, real))),
      );
      if (verdict === -1) verdict = none;
    }
    known.verdict = verdict;
    return verdict;
  };

  return (path) => {
    const abs = isNormalAbsolute(path) ? path : resolve(ctx.cwd, path);
    if (abs === '/') return rules[folderVerdict('/', folder('/'))];
    const slash = abs.lastIndexOf('/');
    const parent = slash === 0 ? '/' : abs.slice(0, slash);
    const known = folder(parent);
    // A rule covers a file when it covers its folder or matches the file's whole path.
    const limit = folderVerdict(parent, known);
    if (limit === 0) return rules[0];
    const realParent = known.real!;
    const real = realParent === parent ? abs : `${realParent === '/' ? '' : realParent}${abs.slice(slash)}`;
    for (let i = 0; i < limit; i++) {
      const rule = compiled[i];
      if (rule !== undefined && (safeCoversWhole(rule, abs) || (real !== abs && safeCoversWhole(rule, real))))
        return rules[i];
    }
    return rules[limit];
  };
}

/** An entry that exists and is not a symlink: its physical path is its parent's plus its name. */
function isPlainEntry(path: string): boolean {
  try {
    return !lstatSync(path).isSymbolicLink();
  } catch {
    return false; // missing or unreadable: resolveRealPath judges it as the guard would
  }
}
