import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ToolContext } from '../tool.ts';
import { isNormalAbsolute } from './_is_normal_absolute.ts';
import { hardLinkedRuleFiles, ruleNamingOtherLink } from './hard_linked_rules.ts';
import { pathRuleChecker, safeCovers, safeCoversWhole } from './path_guard.ts';
import { pathRuleCandidates, type PathRuleIndexBases, pathRulesFor, pathRulesRootedAt } from './path_rule_index.ts';
import { resolveRealPath } from './resolve_real_path.ts';
import type { CompiledPathRule } from './path_rule.ts';
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
  // Looked up by tool in the index kept with each list, not by a look at every rule.
  const { deny, ask } = ctx.permissions.rules;
  const denyAt = pathRulesFor(deny, { toolName, access: 'read' });
  const askAt = pathRulesFor(ask, { toolName, access: 'read' });
  if (denyAt.length === 0 && askAt.length === 0) return undefined;
  const rules = [...denyAt.map((i) => deny[i]!), ...askAt.map((i) => ask[i]!)];
  const { compile, bases } = pathRuleChecker(ctx);
  // Compiled when first asked about (with an index, most rules never are).
  const compiled: (CompiledPathRule | undefined | null)[] = new Array(rules.length).fill(null);
  const compiledAt = (n: number): CompiledPathRule | undefined =>
    compiled[n] === null ? (compiled[n] = compile(rules[n]!)) : compiled[n];
  const homeDir = ctx.permissions.homeDir ?? homedir();
  const none = rules.length;
  // Many rules: each folder and file is judged against the rules rooted where it could be
  // covered (found in the index by root), not against every rule in turn. Few: in turn, which
  // costs less than the lookups. The verdict is the same: no other rule can cover the path.
  const lookup = rules.length > INDEXED_FROM ? indexLookup({ deny, ask, denyAt, askAt, toolName, bases }) : undefined;

  // What is known of a folder: its physical path (null when its symlinks loop), built from its
  // parent's so that a folder costs one lstat (resolveRealPath, the guard's, takes over at a link);
  // and, once asked, the index of the first rule covering it as written or through links.
  const folders = new Map<string, FolderFacts>();
  const folder = (dir: string): FolderFacts => {
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
  const coversFolder = (n: number, dir: string, real: string): boolean => {
    const rule = compiledAt(n);
    return rule !== undefined && (safeCovers(rule, dir) || (real !== dir && safeCovers(rule, real)));
  };
  const folderVerdict = (dir: string, known: FolderFacts): number => {
    if (known.verdict !== undefined) return known.verdict;
    const { real } = known;
    let verdict = 0;
    if (real !== null) {
      if (lookup) {
        known.candidates = lookup.above(real === dir ? [dir] : [dir, real]);
        verdict = known.candidates.find((n) => coversFolder(n, dir, real)) ?? -1;
      } else verdict = rules.findIndex((_, n) => coversFolder(n, dir, real));
      if (verdict === -1) verdict = none;
    }
    known.verdict = verdict;
    return verdict;
  };
  const coversFile = (n: number, abs: string, real: string): boolean => {
    const rule = compiledAt(n);
    return rule !== undefined && (safeCoversWhole(rule, abs) || (real !== abs && safeCoversWhole(rule, real)));
  };
  /** The first rule before `limit` that covers the file itself, or `limit`. */
  const fileVerdict = (abs: string, real: string, known: FolderFacts, limit: number): number => {
    if (!lookup) {
      for (let n = 0; n < limit; n++) if (coversFile(n, abs, real)) return n;
      return limit;
    }
    // Rooted above the file (the folder's candidates) or at the file itself.
    let first = limit;
    for (const n of known.candidates ?? []) {
      if (n >= first) break;
      if (coversFile(n, abs, real)) first = n;
    }
    for (const n of lookup.at(real === abs ? [abs] : [abs, real])) {
      if (n >= first) break;
      if (coversFile(n, abs, real)) first = n;
    }
    return first;
  };

  const byPath = (path: string): PermissionRule | undefined => {
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
    return rules[fileVerdict(abs, real, known, limit)];
  };
  // Another name of a file a rule names (a hard link to `.env`) is that file: looked at only when
  // some file the rules name has more than one name, so most searches stat nothing more.
  // A rule whose folder is too large to list may name any file with several names: left out.
  const linked = hardLinkedRuleFiles(deny, { toolName, ctx });
  const asked = hardLinkedRuleFiles(ask, { toolName, ctx });
  for (const [key, found] of asked.files) if (!linked.files.has(key)) linked.files.set(key, found);
  linked.unlisted.push(...asked.unlisted);
  if (linked.files.size === 0 && linked.unlisted.length === 0) return byPath;
  return (path) => {
    const rule = byPath(path);
    if (rule !== undefined) return rule;
    return ruleNamingOtherLink(isNormalAbsolute(path) ? path : resolve(ctx.cwd, path), linked)?.rule;
  };
}

/** Past this many rules, a filter looks them up by root (see {@linkcode indexLookup}). */
const INDEXED_FROM = 16;

/** What a filter knows of a folder it has seen. */
interface FolderFacts {
  /** Its physical path; null when its symlinks loop. */
  real: string | null;
  /** The position of the first rule covering it (or the number of rules: none does), once asked. */
  verdict?: number;
  /** With an index: the positions of the rules rooted at it or above it, ascending. */
  candidates?: number[];
}

/**
 * A filter's lookups by root over its rules (the deny rules that apply, then the ask rules):
 * positions, ascending, of the rules rooted at or above some paths (`above`), or exactly at them
 * (`at`).
 */
function indexLookup(options: {
  deny: readonly PermissionRule[];
  ask: readonly PermissionRule[];
  denyAt: readonly number[];
  askAt: readonly number[];
  toolName: string;
  bases: PathRuleIndexBases;
}): { above: (paths: string[]) => number[]; at: (paths: string[]) => number[] } {
  const { deny, ask, denyAt, askAt, toolName, bases } = options;
  const denyPosition = new Map(denyAt.map((i, n) => [i, n]));
  const askPosition = new Map(askAt.map((i, n) => [i, denyAt.length + n]));
  const query = { toolName, access: 'read' as const, bases };
  const positions = (find: typeof pathRuleCandidates, paths: string[]): number[] => {
    const out: number[] = [];
    if (denyAt.length > 0) for (const i of find(deny, paths, query)) out.push(denyPosition.get(i)!);
    if (askAt.length > 0) for (const i of find(ask, paths, query)) out.push(askPosition.get(i)!);
    return out;
  };
  return {
    above: (paths) => positions(pathRuleCandidates, paths),
    at: (paths) => positions(pathRulesRootedAt, paths),
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
