import { sep } from 'node:path';
import { type CompiledPathRule, parsePathSpecifier, pathRuleTarget } from './path_rule.ts';
import { rootCacheEpoch } from './real_path_cache.ts';
import { type RuleListSnapshot, ruleListSnapshot, sameRuleList } from './_rule_list_snapshot.ts';
import type { PermissionRule } from './types.ts';

/** Which tools a `Read(...)` or `Edit(...)` rule covers: the path guard's coverage, repeated to avoid an import cycle. */
const COVERAGE: Readonly<Record<'Read' | 'Edit', readonly string[]>> = {
  Read: ['Read', 'Glob', 'Grep'],
  Edit: ['Edit', 'Write', 'NotebookEdit', 'MultiEdit'],
};
const PATH_TOOLS = new Set([...COVERAGE.Read, ...COVERAGE.Edit]);

/** What an index was built against: while the same, its buckets hold. */
interface Built {
  /** The bases of the compiler (cwd, home, case folding, and real working directories for bare names). */
  key: string;
  /** The root cache's epoch: a symlink on a rule root's way that changed moves it. */
  epoch: number;
  /** Rule tool name → rule root → indices (ascending) of the rules rooted there. */
  byTool: Map<string, Map<string, number[]>>;
  /**
   * Rule tool name → folder → indices (ascending) of the rules rooted strictly below it, and
   * under `''` the bare-name rules: what a check of every path under a folder looks up
   * ({@linkcode folderRuleCandidates}). Made on the first such check.
   */
  below?: Map<string, Map<string, number[]>>;
  /** Rule tool name → indices (ascending) of its bare-name rules. */
  bare: Map<string, number[]>;
  /** The roots would not settle while indexing (symlinks changing under it): every path rule is a candidate. */
  all?: number[];
}

interface IndexEntry {
  /** The list as indexed: a list or rule changed since is indexed again. */
  snap: RuleListSnapshot;
  /** A bare-name rule (`.env`) is rooted at the working directories: they are part of the key. */
  bareNames: boolean;
  /** Rule tool name → indices (ascending) of its path rules (with a specifier): needs no compiling. */
  named: Map<string, number[]>;
  built?: Built;
}

const indexes = new WeakMap<readonly PermissionRule[], IndexEntry>();

/** What the index needs of the path guard's compiler. */
export interface PathRuleIndexBases {
  /** Compiles one rule (see `pathRuleCompiler`); undefined for a malformed pattern. */
  compile: (rule: PermissionRule) => CompiledPathRule | undefined;
  /** What every compiled rule depends on besides the rule: cwd, home directory, case folding. */
  key: string;
  caseInsensitive: boolean;
  /** The real working directories, what bare-name rules are rooted at; asked only when the list has one. */
  workingDirectories: () => readonly string[];
}

/** Options of {@linkcode pathRuleCandidates}. */
export interface PathRuleCandidatesOptions {
  /** The tool called. */
  toolName: string;
  /** The kind of access. */
  access: 'read' | 'write';
  /** The compiler and what it depends on. */
  bases: PathRuleIndexBases;
}

/**
 * The indices, in list order, of the path rules of a list that could cover one of the given
 * paths for one tool's access: rules of the tool family (`Read` for reads, `Edit` for writes) or
 * naming the covered tool itself, whose root is one of the paths or one of their parent folders.
 * Every other rule cannot cover them ({@linkcode CompiledPathRule.roots}), so a check with a
 * thousand rules about other folders or other tools matches none of them. The index is built once
 * per list (kept with it while the list, its rules and the compiler's bases are as they were, and
 * the root cache's epoch has not moved) and looked up with one map probe per parent folder.
 *
 * @param rules A rule list (deny, ask or allow).
 * @param paths The paths asked about (absolute; every form the guard matches).
 * @param options The tool called, the kind of access, and the compiler with what it depends on.
 * @returns Ascending indices into `rules`.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { pathRuleCandidates } from '@toolshed/core/internal';
 * import { pathRuleCompiler } from './path_guard.ts';
 * declare const ctx: ToolContext;
 *
 * const compile = pathRuleCompiler(ctx);
 * pathRuleCandidates(ctx.permissions.rules.deny, ['/p/.env'], {
 *   toolName: 'Read',
 *   access: 'read',
 *   bases: { compile, key: ctx.cwd, caseInsensitive: false, workingDirectories: () => [ctx.cwd] },
 * });
 * // [3]: only the rules rooted at /p/.env, /p or /
 * ```
 */
export function pathRuleCandidates(
  rules: readonly PermissionRule[],
  paths: readonly string[],
  { toolName, access, bases }: PathRuleCandidatesOptions,
): number[] {
  const built = builtIndex(rules, bases);
  if (built.all !== undefined) return built.all.filter((i) => appliesTo(rules[i]!, toolName, access));
  const groups = groupsFor(built.byTool, toolName, access);
  if (groups.length === 0) return [];
  const found: number[] = [];
  for (const path of paths) {
    const target = pathRuleTarget(path, bases.caseInsensitive);
    for (const folder of foldersOf(target)) {
      for (const group of groups) {
        const at = group.get(folder);
        if (at !== undefined) for (const i of at) found.push(i);
      }
    }
  }
  return ascendingUnique(found);
}

/**
 * The indices, in list order, of the path rules of a list rooted exactly at one of the given
 * paths (not above them): with the candidates of a path's folder, those of each file in it.
 *
 * @param rules A rule list.
 * @param paths The paths asked about (absolute).
 * @param options The tool called, the kind of access, and the compiler with what it depends on.
 * @returns Ascending indices into `rules`.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { pathRuleChecker } from './path_guard.ts';
 * import { pathRulesRootedAt } from './path_rule_index.ts';
 * declare const ctx: ToolContext;
 *
 * // deny: ['Read(./.env)', 'Read(./**)']
 * pathRulesRootedAt(ctx.permissions.rules.deny, ['/p/.env'], { toolName: 'Read', access: 'read', bases: pathRuleChecker(ctx).bases }); // [0]
 * ```
 */
export function pathRulesRootedAt(
  rules: readonly PermissionRule[],
  paths: readonly string[],
  { toolName, access, bases }: PathRuleCandidatesOptions,
): number[] {
  const built = builtIndex(rules, bases);
  if (built.all !== undefined) return built.all.filter((i) => appliesTo(rules[i]!, toolName, access));
  const found: number[] = [];
  for (const group of groupsFor(built.byTool, toolName, access)) {
    for (const path of paths) {
      const at = group.get(pathRuleTarget(path, bases.caseInsensitive));
      if (at !== undefined) for (const i of at) found.push(i);
    }
  }
  return ascendingUnique(found);
}

/**
 * The indices, in list order, of the path rules of a list that could cover some path under one
 * of the given folders, for one tool's access: those rooted at a folder or above it (as
 * {@linkcode pathRuleCandidates}), those rooted below it, and the bare-name rules (`.env`,
 * matched at any depth below the working directories). No other rule can cover anything under
 * the folders, so a check of a folder access (a search, `rm -r`) looks at these only, however
 * many rules are about other folders or other tools.
 *
 * @param rules A rule list (deny or ask).
 * @param folders The folders asked about (absolute; every form the guard matches).
 * @param options The tool called, the kind of access, and the compiler with what it depends on.
 * @returns Ascending indices into `rules`.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { folderRuleCandidates } from './path_rule_index.ts';
 * import { pathRuleCompiler } from './path_guard.ts';
 * declare const ctx: ToolContext;
 *
 * const compile = pathRuleCompiler(ctx);
 * folderRuleCandidates(ctx.permissions.rules.deny, ['/p/src'], {
 *   toolName: 'Grep',
 *   access: 'read',
 *   bases: { compile, key: ctx.cwd, caseInsensitive: false, workingDirectories: () => [ctx.cwd] },
 * });
 * // the rules rooted at /p/src, above it or below it, and the bare names
 * ```
 */
export function folderRuleCandidates(
  rules: readonly PermissionRule[],
  folders: readonly string[],
  options: PathRuleCandidatesOptions,
): number[] {
  const { toolName, access, bases } = options;
  const built = builtIndex(rules, bases);
  if (built.all !== undefined) return built.all.filter((i) => appliesTo(rules[i]!, toolName, access));
  const found = pathRuleCandidates(rules, folders, options);
  const below = (built.below ??= indexBelow(built.byTool));
  for (const group of groupsFor(below, toolName, access)) {
    for (const folder of folders) {
      const at = group.get(pathRuleTarget(folder, bases.caseInsensitive));
      if (at !== undefined) for (const i of at) found.push(i);
    }
  }
  for (const bare of groupsFor(built.bare, toolName, access)) for (const i of bare) found.push(i);
  return ascendingUnique(found);
}

/** The groups of an index that hold rules applying to one tool's access: its family's, and the tool's own. */
function groupsFor<T>(byTool: Map<string, T>, toolName: string, access: 'read' | 'write'): T[] {
  const family = access === 'read' ? 'Read' : 'Edit';
  const groups: T[] = [];
  const own = byTool.get(family);
  if (own !== undefined) groups.push(own);
  if (toolName !== family && COVERAGE[family].includes(toolName)) {
    const named = byTool.get(toolName);
    if (named !== undefined) groups.push(named);
  }
  return groups;
}

/**
 * From the index by root, the rules by each folder above their roots (a root's own entry is not
 * repeated: the lookup by root finds it), indices ascending and once each.
 */
function indexBelow(byTool: Map<string, Map<string, number[]>>): Map<string, Map<string, number[]>> {
  const out = new Map<string, Map<string, number[]>>();
  for (const [tool, byRoot] of byTool) {
    const group = new Map<string, number[]>();
    for (const [root, indices] of byRoot) {
      for (const folder of foldersOf(root).slice(1)) {
        addAt(group, folder, ...indices);
      }
    }
    for (const [folder, at] of group) group.set(folder, ascendingUnique(at));
    out.set(tool, group);
  }
  return out;
}

function appliesTo(rule: PermissionRule, toolName: string, access: 'read' | 'write'): boolean {
  const family = access === 'read' ? 'Read' : 'Edit';
  return rule.toolName === family || (rule.toolName === toolName && COVERAGE[family].includes(toolName));
}

/**
 * A path and each of its parent folders, up to the file system's root: the only roots a rule
 * covering it can have (a rule covers a path when it is one of its roots or below one).
 */
function foldersOf(target: string): string[] {
  const out = [target];
  let end = target.lastIndexOf(sep);
  while (end > 0) {
    out.push(target.slice(0, end));
    end = target.lastIndexOf(sep, end - 1);
  }
  // The root itself, written with its separator (`/`, `C:\`): the one root that ends in one.
  const first = target.indexOf(sep);
  if (first !== -1) out.push(target.slice(0, first + 1));
  return out;
}

function builtIndex(rules: readonly PermissionRule[], bases: PathRuleIndexBases): Built {
  const entry = entryOf(rules);
  const key = entry.bareNames ? `${bases.key}\0${bases.workingDirectories().join('\0')}` : bases.key;
  const built = entry.built;
  if (built !== undefined && built.key === key && built.epoch === rootCacheEpoch()) return built;
  // Compiling a rule may resolve its root for the first time and find a looked-up path changed,
  // which moves the epoch and may change rules compiled before it: index again until it holds.
  for (let attempt = 0; attempt < 3; attempt++) {
    const epoch = rootCacheEpoch();
    const { byTool, bare } = indexRoots(rules, bases);
    if (rootCacheEpoch() === epoch) return (entry.built = { key, epoch, byTool, bare });
  }
  const all: number[] = [];
  rules.forEach((rule, i) => {
    if (rule.ruleContent !== undefined && PATH_TOOLS.has(rule.toolName)) all.push(i);
  });
  delete entry.built;
  return { key, epoch: -1, byTool: new Map(), bare: new Map(), all };
}

function indexRoots(
  rules: readonly PermissionRule[],
  bases: PathRuleIndexBases,
): { byTool: Map<string, Map<string, number[]>>; bare: Map<string, number[]> } {
  const byTool = new Map<string, Map<string, number[]>>();
  const bare = new Map<string, number[]>();
  rules.forEach((rule, i) => {
    if (rule.ruleContent === undefined || !PATH_TOOLS.has(rule.toolName)) return;
    const compiled = bases.compile(rule);
    if (compiled === undefined) return; // malformed: it matches nothing
    let group = byTool.get(rule.toolName);
    if (group === undefined) byTool.set(rule.toolName, (group = new Map()));
    for (const root of new Set(compiled.roots)) {
      addAt(group, root, i);
    }
    if (isBareName(rule.ruleContent)) {
      addAt(bare, rule.toolName, i);
    }
  });
  return { byTool, bare };
}

function snapshot(rules: readonly PermissionRule[]): IndexEntry {
  const named = new Map<string, number[]>();
  rules.forEach((rule, i) => {
    if (rule.ruleContent === undefined || !PATH_TOOLS.has(rule.toolName)) return;
    addAt(named, rule.toolName, i);
  });
  return {
    snap: ruleListSnapshot(rules),
    bareNames: rules.some(
      (rule) => rule.ruleContent !== undefined && PATH_TOOLS.has(rule.toolName) && isBareName(rule.ruleContent),
    ),
    named,
  };
}

function entryOf(rules: readonly PermissionRule[]): IndexEntry {
  let entry = indexes.get(rules);
  if (entry === undefined || !sameRuleList(entry.snap, rules)) {
    entry = snapshot(rules);
    indexes.set(rules, entry);
  }
  return entry;
}

const NONE: readonly number[] = Object.freeze([]);

/** Options of {@linkcode pathRulesFor}. */
export interface PathRulesForOptions {
  /** The tool called. */
  toolName: string;
  /** The kind of access. */
  access: 'read' | 'write';
}

/**
 * The indices, in list order, of the path rules of a list that apply to one tool's access,
 * wherever they are rooted: every `Read(...)` rule for a read (`Edit(...)` for a write), and the
 * rules naming the covered tool itself (`Grep(./logs/**)`), as `pathRuleApplies` says. Kept with
 * the list, so asking costs a map probe, not a look at every rule.
 *
 * @param rules A rule list.
 * @param options The tool called and the kind of access.
 * @returns Ascending indices into `rules` (do not change the array).
 *
 * @example
 * ```ts
 * import { parseRules } from '@toolshed/core/internal';
 * import { pathRulesFor } from './path_rule_index.ts';
 *
 * const { rules } = parseRules(['Bash(rm:*)', 'Read(./.env)', 'Grep(./logs/**)'], { behavior: 'deny', source: 'options' });
 * pathRulesFor(rules, { toolName: 'Grep', access: 'read' }); // [1, 2]
 * pathRulesFor(rules, { toolName: 'Read', access: 'read' }); // [1]
 * ```
 */
export function pathRulesFor(
  rules: readonly PermissionRule[],
  { toolName, access }: PathRulesForOptions,
): readonly number[] {
  if (rules.length === 0) return NONE;
  const groups = groupsFor(entryOf(rules).named, toolName, access);
  if (groups.length === 0) return NONE;
  if (groups.length === 1) return groups[0]!;
  return [...groups[0]!, ...groups[1]!].sort((a, b) => a - b);
}

/** A specifier anchored nowhere (`.env`, `*.pem`); a malformed one counts, to be safe. */
function isBareName(content: string): boolean {
  try {
    return parsePathSpecifier(content).anchor === 'anywhere';
  } catch {
    return true;
  }
}

/** Rule indices found more than once (a rule under several folders or for several paths), in list order, once each. */
function ascendingUnique(found: number[]): number[] {
  if (found.length < 2) return found;
  found.sort((a, b) => a - b);
  return found.filter((i, n) => n === 0 || found[n - 1] !== i);
}

/** Adds rule indices to the list a map keeps under `key`. */
function addAt<K>(map: Map<K, number[]>, key: K, ...indices: number[]): void {
  const at = map.get(key);
  if (at === undefined) map.set(key, indices);
  else at.push(...indices);
}
