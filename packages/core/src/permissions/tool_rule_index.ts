import type { PermissionRule } from './types.ts';
import { type RuleListSnapshot, ruleListSnapshot, sameRuleList } from './_rule_list_snapshot.ts';

/** Which tools a `Read` or `Edit` rule names besides itself (the path guard's coverage). */
const COVERED_BY: Readonly<Record<string, string>> = {
  Glob: 'Read',
  Grep: 'Read',
  Write: 'Edit',
  NotebookEdit: 'Edit',
  MultiEdit: 'Edit',
};

interface ToolIndex {
  snap: RuleListSnapshot;
  /** Rule tool name → indices (ascending). */
  byName: Map<string, number[]>;
  /** The same for the rules without a specifier (`Bash`, not `Bash(rm:*)`). */
  bareByName: Map<string, number[]>;
  /** `mcp__server__` (of `mcp__server` and `mcp__server__*`) → indices (ascending). */
  byServer: Map<string, number[]>;
  bareByServer: Map<string, number[]>;
  /** What was found for a tool without aliases, by name, with rules with a specifier and without: a call asks again and again. */
  found: Map<string, readonly number[]>;
  foundBare: Map<string, readonly number[]>;
}

/** Options of {@linkcode toolRuleCandidates}. */
export interface ToolRuleCandidatesOptions {
  /** Include rules with a specifier. @default true */
  specifiers?: boolean;
}

const indexes = new WeakMap<readonly PermissionRule[], ToolIndex>();

/**
 * The indices, in list order, of the rules of a list that may name a tool (see
 * `ruleMatchesTool`): by its name, one of its aliases, the path-rule coverage (`Read` for Glob
 * and Grep, `Edit` for Write, NotebookEdit and MultiEdit), or an MCP server form whose prefix
 * the tool's name starts with. Looked up in an index kept with the list, so a call does not
 * look at rules about other tools; the caller still asks `ruleMatchesTool` of each.
 *
 * @param rules A rule list.
 * @param tool The tool's name and aliases.
 * @param options `specifiers: false` leaves out rules with a specifier (for a tool without a
 *   permission matcher, which such rules never match).
 * @returns Ascending indices into `rules`.
 *
 * @example
 * ```ts
 * import { parseRules, toolRuleCandidates } from '@toolshed/core/internal';
 *
 * toolRuleCandidates(parseRules(['Bash', 'Read', 'mcp__gh'], { behavior: 'deny', source: 'options' }).rules, { name: 'Grep', aliases: [] });
 * // [1]
 * ```
 */
export function toolRuleCandidates(
  rules: readonly PermissionRule[],
  tool: { name: string; aliases: readonly string[] },
  options: ToolRuleCandidatesOptions = {},
): number[] {
  return [...keptRuleCandidates(rules, tool, options)];
}

/**
 * {@linkcode toolRuleCandidates} as kept with the index, not copied: for the permission decision,
 * which only reads it (it runs per call).
 *
 * @param rules A rule list.
 * @param tool The tool's name and aliases.
 * @param options Whether rules with a specifier are included (by default they are).
 * @returns Ascending indices into `rules`, not to be changed.
 *
 * @example
 * ```ts
 * import { keptRuleCandidates } from './tool_rule_index.ts';
 * import { parseRules } from './rule_parser.ts';
 *
 * keptRuleCandidates(parseRules(['Bash', 'Read'], { behavior: 'deny', source: 'options' }).rules, { name: 'Grep', aliases: [] });
 * // [1]
 * ```
 */
export function keptRuleCandidates(
  rules: readonly PermissionRule[],
  tool: { name: string; aliases: readonly string[] },
  options: ToolRuleCandidatesOptions = {},
): readonly number[] {
  const specifiers = options.specifiers !== false;
  let index = indexes.get(rules);
  if (index === undefined || !sameRuleList(index.snap, rules)) {
    index = build(rules);
    indexes.set(rules, index);
  }
  // A tool without aliases (most) is looked up once per list; the answer is kept with the index.
  if (tool.aliases.length > 0) return candidatesOf(index, tool, specifiers);
  const kept = specifiers ? index.found : index.foundBare;
  const known = kept.get(tool.name);
  if (known !== undefined) return known;
  const found = candidatesOf(index, tool, specifiers);
  if (kept.size >= MAX_FOUND) kept.clear();
  kept.set(tool.name, found);
  return found;
}

/** Answers kept per list (a session calls few tools; a list asked about more starts again). */
const MAX_FOUND = 1000;

function candidatesOf(
  index: ToolIndex,
  tool: { name: string; aliases: readonly string[] },
  specifiers: boolean,
): number[] {
  const names = [tool.name, ...tool.aliases];
  const family = COVERED_BY[tool.name];
  if (family !== undefined) names.push(family);
  const found: number[] = [];
  for (const name of new Set(names)) {
    const at = (specifiers ? index.byName : index.bareByName).get(name);
    if (at !== undefined) found.push(...at);
  }
  if (index.byServer.size > 0 && tool.name.startsWith('mcp__')) {
    // Every `mcp__…__` prefix of the name that leaves something after it.
    for (let k = tool.name.indexOf('__', 5); k !== -1 && k + 2 < tool.name.length; k = tool.name.indexOf('__', k + 1)) {
      const at = (specifiers ? index.byServer : index.bareByServer).get(tool.name.slice(0, k + 2));
      if (at !== undefined) found.push(...at);
    }
  }
  if (found.length < 2) return found;
  return [...new Set(found)].sort((a, b) => a - b);
}

function build(rules: readonly PermissionRule[]): ToolIndex {
  const byName = new Map<string, number[]>();
  const byServer = new Map<string, number[]>();
  const bareByName = new Map<string, number[]>();
  const bareByServer = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const at = map.get(key);
    if (at === undefined) map.set(key, [i]);
    else at.push(i);
  };
  rules.forEach((rule, i) => {
    const bare = rule.ruleContent === undefined;
    add(byName, rule.toolName, i);
    if (bare) add(bareByName, rule.toolName, i);
    const prefix = mcpServerPrefix(rule.toolName);
    if (prefix !== undefined) {
      add(byServer, prefix, i);
      if (bare) add(bareByServer, prefix, i);
    }
  });
  return {
    snap: ruleListSnapshot(rules),
    byName,
    bareByName,
    byServer,
    bareByServer,
    found: new Map(),
    foundBare: new Map(),
  };
}

/** `mcp__server__` for the server-wide forms `mcp__server` and `mcp__server__*`, as `ruleMatchesTool` reads them. */
function mcpServerPrefix(toolName: string): string | undefined {
  if (!toolName.startsWith('mcp__')) return undefined;
  if (toolName.endsWith('__*')) return toolName.slice(0, -1);
  const server = toolName.slice('mcp__'.length);
  if (server === '' || server.includes('__')) return undefined;
  return `${toolName}__`;
}
