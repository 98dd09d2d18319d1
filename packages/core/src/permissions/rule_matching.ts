import type { AnyTool } from '../tool.ts';
import { PATH_RULE_COVERAGE } from './path_guard.ts';
import type { PermissionContext, PermissionMatcher, PermissionRule } from './types.ts';

/** What {@linkcode ruleMatchesTool} looks at: the pool can ask before a tool's code is loaded. */
export type RuleTarget = Pick<AnyTool, 'name' | 'aliases'>;

/**
 * Whether a rule is about a tool: by name, by one of its aliases, through path-rule coverage
 * (`Read` rules also cover Glob and Grep; `Edit` rules also cover Write, NotebookEdit and
 * MultiEdit), or, for the MCP forms `mcp__server` and `mcp__server__*`, every tool whose name
 * starts with `mcp__server__`.
 * The specifier is not looked at (see {@linkcode ruleMatchesCall}).
 *
 * @param rule A parsed rule.
 * @param tool The tool (only `name` and `aliases` are read).
 * @returns True when the rule names the tool.
 *
 * @example
 * ```ts
 * import { parseRule, ruleMatchesTool } from '@toolshed/core/internal';
 *
 * const rule = parseRule('mcp__github', { behavior: 'deny', source: 'options' });
 * ruleMatchesTool(rule, { name: 'mcp__github__create_issue', aliases: [] }); // true
 * ruleMatchesTool(rule, { name: 'mcp__githubx__list', aliases: [] });        // false
 * ruleMatchesTool(parseRule('Edit', { behavior: 'deny', source: 'options' }), { name: 'Write', aliases: [] }); // true
 * ```
 */
export function ruleMatchesTool(rule: Pick<PermissionRule, 'toolName'>, tool: RuleTarget): boolean {
  const name = rule.toolName;
  if (name === tool.name || tool.aliases.includes(name)) return true;
  if ((name === 'Read' || name === 'Edit') && PATH_RULE_COVERAGE[name].includes(tool.name)) return true;
  const prefix = mcpServerPrefix(name);
  // The name decides, not `isMcp`: MCP tools are named `mcp__<server>__<tool>` by the bridge,
  // and a built-in tool cannot take such a name without meaning to.
  return prefix !== undefined && tool.name.startsWith(prefix) && tool.name.length > prefix.length;
}

/** Options of {@linkcode ruleMatchesCall}. */
export interface RuleMatchesCallOptions {
  /** The call's parsed input; used to prepare the matcher when none is given. */
  input: unknown;
  /**
   * The matcher already prepared for this input, so that several rules share one.
   * @default prepared from `input` with the tool's `preparePermissionMatcher`
   */
  matcher?: PermissionMatcher | undefined;
}

/**
 * Whether a rule covers one call. A rule without a specifier covers every call of the tools it
 * names; a rule with one matches only through the tool's {@linkcode PermissionMatcher}, called
 * as `matcher(ruleContent, rule.behavior)`. A tool without `preparePermissionMatcher` never
 * matches a rule with a specifier.
 *
 * @param rule A parsed rule.
 * @param tool The tool called.
 * @param options The call's parsed `input` (used to prepare the matcher when none is given),
 *   and the `matcher` already prepared for this input, so that several rules share one.
 * @returns True when the rule covers the call.
 * @throws Whatever the tool's `preparePermissionMatcher` or matcher throws; the permission
 *   layer turns that into a deny.
 *
 * @example
 * ```ts
 * import { type AnyTool } from '@toolshed/core';
 * import { parseRule, ruleMatchesCall } from '@toolshed/core/internal';
 * declare const bashTool: AnyTool; // a family's Bash tool (tool-shell's bashTool)
 *
 * const rule = parseRule('Bash(npm test:*)', { behavior: 'allow', source: 'options' });
 * await ruleMatchesCall(rule, bashTool, { input: { command: 'npm test -- --watch' } }); // true
 * ```
 */
export async function ruleMatchesCall(
  rule: PermissionRule,
  tool: AnyTool,
  { input, matcher }: RuleMatchesCallOptions,
): Promise<boolean> {
  if (!ruleMatchesTool(rule, tool)) return false;
  if (rule.ruleContent === undefined) return true;
  // `Read(./src/**)` reaches Grep through coverage: its paths are the path guard's to match, not
  // Grep's matcher (written for `Grep(...)` specifiers).
  if (coveredOnly(rule, tool)) return false;
  const match = matcher ?? (tool.preparePermissionMatcher ? await tool.preparePermissionMatcher(input) : undefined);
  if (typeof match !== 'function') return false;
  return match(rule.ruleContent, rule.behavior) === true;
}

/**
 * The deny rule, if any, that removes a tool outright: one without a specifier that names it
 * (`deny: ['WebFetch']`, `deny: ['mcp__github']`). Such a tool is left out of the pool.
 *
 * @param tool The tool (only `name` and `aliases` are read).
 * @param permissions The session's permission context.
 * @returns The first such rule, or undefined.
 *
 * @example
 * ```ts
 * import { createPermissionContext, findBlanketDenyRule } from '@toolshed/core/internal';
 *
 * const { context } = createPermissionContext({ deny: ['WebFetch'] }, '/p');
 * findBlanketDenyRule({ name: 'WebFetch', aliases: [] }, context)?.raw; // 'WebFetch'
 * ```
 */
export function findBlanketDenyRule(tool: RuleTarget, permissions: PermissionContext): PermissionRule | undefined {
  return permissions.rules.deny.find((rule) => rule.ruleContent === undefined && ruleMatchesTool(rule, tool));
}

/**
 * The generic specifier matcher that tools can reuse in `preparePermissionMatcher`, with
 * Claude Code's wildcard syntax:
 *
 * - `prefix:*` and a trailing ` *` mean "this prefix at a word boundary, then anything": `npm
 *   test:*` matches `npm test` and `npm test -- --watch` but not `npm testx`;
 * - any other `*` matches any run of characters, newlines included (`git * main`);
 * - `\*` is a literal star;
 * - without a star, the value must equal the pattern.
 *
 * Compound input (`a && b`) is the tool's business: split it first and match each part.
 *
 * @param pattern A rule's specifier.
 * @param value The value from the input (a command, a domain, …).
 * @returns True when the pattern matches the whole value.
 *
 * @example
 * ```ts
 * import { matchWildcardSpecifier } from '@toolshed/core';
 *
 * matchWildcardSpecifier('npm test:*', 'npm test -- --watch'); // true
 * matchWildcardSpecifier('npm test:*', 'npm testx');           // false
 * matchWildcardSpecifier('git diff *', 'git diff HEAD~1');     // true
 * matchWildcardSpecifier('echo \\*', 'echo *');                // true
 * ```
 */
export function matchWildcardSpecifier(pattern: string, value: string): boolean {
  let body = pattern;
  let prefixForm = false;
  if (pattern.endsWith(':*') || (pattern.endsWith(' *') && pattern.length > 2)) {
    body = pattern.slice(0, -2);
    prefixForm = true;
  }
  const tokens = tokenize(body);
  const reach = reachable(tokens, value);
  if (reach[value.length] === 1) return true;
  if (!prefixForm) return false;
  // An empty prefix (`:*`) or one that ends in whitespace already sits on a boundary.
  if (body === '' || /\s$/.test(body)) return reach.includes(1);
  for (let i = 0; i < value.length; i++) {
    if (reach[i] === 1 && /\s/.test(value[i]!)) return true;
  }
  return false;
}

/** A pattern as characters to match and `STAR`s; `\*` is the character `*`. */
const STAR = Symbol('star');
type Token = string | typeof STAR;

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && pattern[i + 1] === '*') {
      tokens.push('*');
      i++;
    } else {
      tokens.push(ch === '*' ? STAR : ch);
    }
  }
  return tokens;
}

/**
 * `reach[i]` is 1 when `value.slice(0, i)` matches the whole pattern. Dynamic programming
 * rather than a RegExp: a rule with many stars against a long command stays O(pattern × value)
 * instead of backtracking exponentially.
 */
function reachable(tokens: readonly Token[], value: string): Uint8Array {
  let cur = new Uint8Array(value.length + 1);
  let next = new Uint8Array(value.length + 1);
  cur[0] = 1;
  for (const token of tokens) {
    next.fill(0);
    if (token === STAR) {
      let seen = 0;
      for (let i = 0; i <= value.length; i++) {
        seen |= cur[i]!;
        next[i] = seen;
      }
    } else {
      for (let i = 0; i < value.length; i++) {
        if (cur[i] === 1 && value[i] === token) next[i + 1] = 1;
      }
    }
    [cur, next] = [next, cur];
  }
  return cur;
}

/** `mcp__server__` for the server-wide forms `mcp__server` and `mcp__server__*`, else undefined. */
function mcpServerPrefix(toolName: string): string | undefined {
  if (!toolName.startsWith('mcp__')) return undefined;
  if (toolName.endsWith('__*')) return toolName.slice(0, -1);
  const server = toolName.slice('mcp__'.length);
  if (server === '' || server.includes('__')) return undefined;
  return `${toolName}__`;
}

/**
 * A `Read(...)`/`Edit(...)` rule with a specifier that reaches this tool only through coverage.
 *
 * @param rule The rule.
 * @param tool The tool.
 * @returns True when the path guard, not the tool's matcher, decides whether the rule matches.
 *
 * @example
 * ```ts
 * import { coveredOnly, parseRule } from '@toolshed/core/internal';
 *
 * coveredOnly(parseRule('Read(./src/**)', { behavior: 'deny', source: 'options' }), { name: 'Grep', aliases: [] }); // true
 * ```
 */
export function coveredOnly(rule: Pick<PermissionRule, 'toolName' | 'ruleContent'>, tool: RuleTarget): boolean {
  return (
    rule.ruleContent !== undefined &&
    (rule.toolName === 'Read' || rule.toolName === 'Edit') &&
    rule.toolName !== tool.name &&
    !tool.aliases.includes(rule.toolName)
  );
}

/**
 * Claude Code's `WebFetch(domain:example.com)` specifier: the host itself or any subdomain of
 * it, compared after URL parsing (lower case, IDN to punycode, trailing dot dropped), and never
 * a host that merely starts with it (`example.com.evil.test`) or ends with it without a dot
 * (`notexample.com`). `domain:*.example.com` means subdomains only. The web family may use it
 * in its `preparePermissionMatcher`.
 *
 * @param content The rule's specifier, `domain:<host>`.
 * @param url The URL (or bare host) the call fetches.
 * @returns True when the URL's host is covered; false for anything that does not parse.
 *
 * @example
 * ```ts
 * import { matchDomainSpecifier } from '@toolshed/core';
 *
 * matchDomainSpecifier('domain:example.com', 'https://docs.example.com/x'); // true
 * matchDomainSpecifier('domain:example.com', 'https://example.com.evil.test/'); // false
 * ```
 */
export function matchDomainSpecifier(content: string, url: string): boolean {
  if (!content.startsWith('domain:')) return false;
  let pattern = content.slice('domain:'.length).trim().toLowerCase();
  const subdomainsOnly = pattern.startsWith('*.');
  if (subdomainsOnly) pattern = pattern.slice(2);
  const wanted = hostOf(pattern);
  const host = hostOf(url);
  if (!wanted || !host) return false;
  if (host === wanted) return !subdomainsOnly;
  return host.endsWith(`.${wanted}`);
}

function hostOf(text: string): string | undefined {
  try {
    const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname;
    return host.replace(/\.$/, '').toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
