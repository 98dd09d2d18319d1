import { resolve } from 'node:path';
import { closestNames } from '../closest_names.ts';
import { ToolshedError } from '../errors.ts';
import { checkRuleSpecifier, loosePrefixHint } from './check_rule_specifier.ts';
import { CLAUDE_CODE_TOOL_NAMES } from './claude_code_tool_names.ts';
import { isPathInside } from './is_path_inside.ts';
import { PATH_RULE_COVERAGE } from './path_guard.ts';
import { matchPathRule, parsePathSpecifier, pathRuleRoots, type PathRuleBases } from './path_rule.ts';
import { ruleMatchesTool, matchWildcardSpecifier } from './rule_matching.ts';
import { parseRule } from './rule_parser.ts';
import type { PermissionBehavior, PermissionRule } from './types.ts';

/** The kinds of problem {@linkcode lintRules} finds. */
export type LintFindingKind =
  | 'malformed'
  | 'unknown_tool'
  | 'shadowed'
  | 'shell_operator'
  | 'outside_working_directories'
  | 'loose_prefix'
  | 'backslash';

/** One problem with one rule. */
export interface LintFinding {
  kind: LintFindingKind;
  /** `error`: the rule cannot do what it says; `warning`: it probably does more than meant. */
  severity: 'error' | 'warning';
  /** The rule as written. */
  rule: string;
  behavior: PermissionBehavior;
  /** Where the rule came from (a settings file, `options`, `cli`). */
  source: string;
  /** What is wrong and how to fix it. */
  message: string;
}

/** Rule lists from one place, as written: a settings file's `permissions`, or flags. */
export interface RuleLayer {
  /** Where the rules came from: named in findings. */
  source: string;
  allow?: readonly unknown[] | undefined;
  deny?: readonly unknown[] | undefined;
  ask?: readonly unknown[] | undefined;
  /** What `/x` path rules of this layer are relative to. @default cwd */
  root?: string | undefined;
}

/** Options of {@linkcode lintRules}. */
export interface LintRulesOptions {
  /** The working directory; `./x` path rules are relative to it. */
  cwd: string;
  /** Further working directories (`additionalDirectories`, resolved). @default [] */
  additionalDirectories?: readonly string[] | undefined;
  /** The names (and aliases) of the tools in the pool; without them, tool names are not checked. */
  toolNames?: readonly string[] | undefined;
  /**
   * The MCP servers configured (`.mcp.json`, `--mcp-config`), whose tools are not listed until
   * the servers run: a rule `mcp__<server>` or `mcp__<server>__<tool>` for one of them is fine.
   * @default []
   */
  mcpServerNames?: readonly string[] | undefined;
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
}

const BEHAVIORS: readonly PermissionBehavior[] = ['deny', 'ask', 'allow'];

/**
 * Finds rules that cannot do what they say: malformed specifiers (with the fix), rules naming
 * tools that are not in the pool (with the closest name), allow rules that a deny rule always
 * shadows, Bash rules with shell operators (`&&`, `||`, `;`, `|`, `$(`, backticks) that can
 * never match because compound commands are matched part by part, and path rules that point
 * outside every working directory (except rules with an absolute `//` or `~` anchor, which
 * name such places on purpose). Rules for Claude Code tools the pool lacks, tool names in the
 * wrong case and backslashes in path rules are warnings. Loose prefixes (`Bash(npm test*)`, which also matches
 * `npm testx`) are warnings.
 *
 * @param layers The rule lists, each with its source.
 * @param options The working directories, the pool's tool names and the home directory.
 * @returns The findings, in the order of the layers and rules.
 *
 * @example
 * ```ts
 * import { lintRules } from '@toolshed/core';
 *
 * lintRules([{ source: 'cli', allow: ['Bash(npm test && rm -rf /:*)', 'Raed'], deny: [] }], { cwd: '/p', toolNames: ['Read', 'Bash'] });
 * // [{ kind: 'shell_operator', … }, { kind: 'unknown_tool', message: '… did you mean "Read"?' }]
 * ```
 */
export function lintRules(layers: readonly RuleLayer[], options: LintRulesOptions): LintFinding[] {
  const findings: LintFinding[] = [];
  const parsed: PermissionRule[] = [];
  const dirs = [resolve(options.cwd), ...(options.additionalDirectories ?? []).map((d) => resolve(options.cwd, d))];
  const report = (
    rule: { raw: string; behavior: PermissionBehavior; source: string },
    kind: LintFindingKind,
    message: string,
    severity: 'error' | 'warning' = 'error',
  ) => findings.push({ kind, severity, rule: rule.raw, behavior: rule.behavior, source: rule.source, message });

  for (const layer of layers) {
    for (const behavior of BEHAVIORS) {
      for (const raw of layer[behavior] ?? []) {
        const where = { raw: String(raw), behavior, source: layer.source };
        let rule: PermissionRule;
        try {
          rule = parseRule(raw as string, { behavior, source: layer.source });
        } catch (e) {
          if (!ToolshedError.isInstance(e)) throw e;
          report(where, 'malformed', e.message.replace(/ \(permissions\.\w+, from [^)]*\)$/, ''));
          continue;
        }
        if (layer.root !== undefined) rule.root = layer.root;
        const problem = checkRuleSpecifier(rule) ?? specifierProblem(rule);
        if (problem !== undefined) {
          report(rule, 'malformed', problem);
          continue;
        }
        parsed.push(rule);
        if (options.toolNames) {
          const unknown = unknownTool(rule, options.toolNames, options.mcpServerNames ?? []);
          if (unknown) report(rule, 'unknown_tool', unknown.message, unknown.severity);
        }
        if (rule.toolName === 'Bash' && rule.ruleContent !== undefined) {
          const operator = shellOperator(rule.ruleContent);
          if (operator) {
            report(
              rule,
              'shell_operator',
              `Rule "${rule.raw}" contains the shell operator "${operator}": compound commands are split and each part is matched on its own, so this rule can never match. Write one rule per command, for example "${rule.toolName}(${rule.ruleContent.split(operator)[0]!.trim()}:*)"`,
            );
          }
          const loose = loosePrefixHint(rule);
          if (loose) report(rule, 'loose_prefix', loose, 'warning');
        }
        if (isPathRule(rule) && rule.ruleContent!.includes('\\')) {
          report(
            rule,
            'backslash',
            `Path rule "${rule.raw}" has a backslash: path rules use "/" on every system (a backslash escapes the next character), so write "${rule.toolName}(${rule.ruleContent!.replace(/\\+/g, '/')})"`,
            'warning',
          );
        }
        if (isPathRule(rule)) {
          const outside = outsideEveryDirectory(rule, dirs, options);
          if (outside) report(rule, 'outside_working_directories', outside);
        }
      }
    }
  }

  const denies = parsed.filter((r) => r.behavior === 'deny');
  for (const allow of parsed.filter((r) => r.behavior === 'allow')) {
    const deny = denies.find((d) => alwaysShadows(d, allow, options));
    if (deny) {
      report(
        allow,
        'shadowed',
        `Allow rule "${allow.raw}" never takes effect: deny rule "${deny.raw}" from ${deny.source} covers every call it allows, and deny always wins. Remove one of them, or narrow the deny rule`,
      );
    }
  }
  return findings;
}

function isPathRule(rule: PermissionRule): boolean {
  return (
    rule.ruleContent !== undefined &&
    (rule.toolName === 'Read' ||
      rule.toolName === 'Edit' ||
      PATH_RULE_COVERAGE.Read.includes(rule.toolName) ||
      PATH_RULE_COVERAGE.Edit.includes(rule.toolName))
  );
}

function specifierProblem(rule: PermissionRule): string | undefined {
  const content = rule.ruleContent;
  if (content === undefined) return undefined;
  if (rule.toolName === 'WebFetch') {
    if (!content.startsWith('domain:')) {
      const host = hostOf(content);
      return `Rule "${rule.raw}": WebFetch rules name a domain: did you mean "WebFetch(domain:${host})"?`;
    }
    const domain = content.slice('domain:'.length);
    if (domain === '' || /[/:]/.test(domain)) {
      return `Rule "${rule.raw}": after "domain:" comes a host name only, without a scheme, port or path: did you mean "WebFetch(domain:${hostOf(domain)})"?`;
    }
  }
  return undefined;
}

function hostOf(text: string): string {
  try {
    return new URL(text.includes('://') ? text : `https://${text}`).hostname || text;
  } catch {
    return text;
  }
}

function unknownTool(
  rule: PermissionRule,
  names: readonly string[],
  servers: readonly string[],
): { message: string; severity: 'error' | 'warning' } | undefined {
  const exists = names.some((name) => ruleMatchesTool(rule, { name, aliases: [] }));
  if (exists) return undefined;
  if (rule.toolName.startsWith('mcp__')) {
    const server = /^mcp__(.+?)(?:__.*)?$/.exec(rule.toolName)?.[1];
    if (server !== undefined && servers.includes(server)) return undefined;
    const known = servers.length
      ? ` (configured servers: ${servers.join(', ')})`
      : ' (no MCP server is configured: lint reads .mcp.json or --mcp-config)';
    return {
      severity: 'error',
      message: `Rule "${rule.raw}" names no tool in the pool: no MCP tool starts with "${rule.toolName.replace(/__\*$/, '')}"${known}. Check the server name in .mcp.json, or remove the rule`,
    };
  }
  // Tool names are case-sensitive: `bash(ls:*)` matches nothing.
  const cased = names.find((name) => name.toLowerCase() === rule.toolName.toLowerCase());
  if (cased !== undefined) {
    const fixed = rule.ruleContent === undefined ? cased : `${cased}(${rule.ruleContent})`;
    return {
      severity: 'warning',
      message: `Rule "${rule.raw}" names the tool "${rule.toolName}", but tool names are case-sensitive and the tool is "${cased}": this rule matches nothing; write "${fixed}"`,
    };
  }
  if (CLAUDE_CODE_TOOL_NAMES.includes(rule.toolName)) {
    return {
      severity: 'warning',
      message: `Rule "${rule.raw}" is for Claude Code's tool "${rule.toolName}", which is not in this pool: fine for Claude Code, and it does nothing here`,
    };
  }
  const near = closestNames(rule.toolName, names, { max: 1 });
  return {
    severity: 'error',
    message: `Rule "${rule.raw}" names the tool "${rule.toolName}", which is not in the pool${near.length ? `: did you mean "${near[0]}"?` : ''} (tools: ${[...names].sort().join(', ')})`,
  };
}

/** The first shell operator outside quotes, or undefined. */
function shellOperator(command: string): string | undefined {
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '$(') return two;
    if (ch === ';' || ch === '|' || ch === '`' || ch === '\n') return ch === '\n' ? 'a newline' : ch;
  }
  return undefined;
}

function bases(rule: PermissionRule, dirs: readonly string[], options: LintRulesOptions): PathRuleBases {
  return { cwd: dirs[0]!, homeDir: options.homeDir, root: rule.root ?? dirs[0], workingDirectories: dirs };
}

function outsideEveryDirectory(
  rule: PermissionRule,
  dirs: readonly string[],
  options: LintRulesOptions,
): string | undefined {
  const spec = parsePathSpecifier(rule.ruleContent!);
  if (spec.anchor === 'anywhere') return undefined;
  // `//abs/…` and `~/…` name a place on purpose: `check` itself suggests `Read(//abs/**)` for a
  // path outside the working directories, and such a rule allows (or denies) exactly that.
  if (spec.anchor === 'absolute' || spec.anchor === 'home') return undefined;
  const { dirs: roots } = pathRuleRoots(rule.ruleContent!, bases(rule, dirs, options));
  const root = roots[0]!;
  // A rule about a parent of the working directory still covers paths inside it.
  if (dirs.some((dir) => isPathInside(root, dir) || isPathInside(dir, root))) return undefined;
  const hint =
    spec.anchor === 'settings'
      ? ` A leading "/" is relative to the settings file's folder (${rule.root ?? dirs[0]}); for the working directory write "./${spec.pattern}", for an absolute path "//${spec.pattern}"`
      : ' To work there, add the directory to permissions.additionalDirectories';
  return `Path rule "${rule.raw}" points to ${root}, outside every working directory (${dirs.join(', ')}).${hint}`;
}

function alwaysShadows(deny: PermissionRule, allow: PermissionRule, options: LintRulesOptions): boolean {
  if (!ruleMatchesTool(deny, { name: allow.toolName, aliases: [] })) return false;
  if (deny.ruleContent === undefined) return true;
  if (allow.ruleContent === undefined) return false;
  if (deny.ruleContent === allow.ruleContent && (deny.root ?? '') === (allow.root ?? '')) return true;
  if (isPathRule(deny) && isPathRule(allow)) {
    const dirs = [resolve(options.cwd), ...(options.additionalDirectories ?? []).map((d) => resolve(options.cwd, d))];
    try {
      const target = pathRuleRoots(allow.ruleContent, bases(allow, dirs, options));
      if (target.anywhere) return false;
      return target.dirs.every((dir) => matchPathRule(deny.ruleContent!, dir, bases(deny, dirs, options)));
    } catch {
      return false;
    }
  }
  const allowText = allow.ruleContent;
  if (!allowText.includes('*')) return matchWildcardSpecifier(deny.ruleContent, allowText);
  const allowPrefix = prefixOf(allowText);
  const denyPrefix = prefixOf(deny.ruleContent);
  if (allowPrefix === undefined || denyPrefix === undefined) return false;
  return allowPrefix === denyPrefix || allowPrefix.startsWith(`${denyPrefix} `);
}

/** `npm test` for `npm test:*` and `npm test *`, when there is no other star. */
function prefixOf(pattern: string): string | undefined {
  const m = /^(.*?)(?::\*| \*)$/s.exec(pattern);
  if (!m || m[1]!.includes('*')) return undefined;
  return m[1]!.trimEnd();
}
