import { ToolshedError } from '../errors.ts';
import type { PermissionBehavior, PermissionRule } from './types.ts';

/** The error code of every malformed permission rule. */
export const PERMISSION_RULE_INVALID = 'permission_rule_invalid' as const;

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
// `mcp__server__*` is the one tool part that is not a plain name.
const MCP_SERVER_WILDCARD = /^mcp__[A-Za-z0-9_-]+__\*$/;

/** The parts of a rule string, before behaviour and source are attached. */
export interface RuleValue {
  /** The tool name, `mcp__server` or `mcp__server__*`. */
  toolName: string;
  /** The specifier inside the parentheses, unescaped; absent for a tool-wide rule. */
  ruleContent?: string;
}

/** Options of {@linkcode parseRule} and {@linkcode parseRules}. */
export interface ParseRuleOptions {
  /** The list the rule is in. */
  behavior: PermissionBehavior;
  /** Where the rule came from: `options`, `cli`, or a settings file path; named in errors and kept on the rule. */
  source: string;
}

/**
 * Parses a permission rule string, Claude Code's grammar: `Tool` or `Tool(specifier)`.
 *
 * The specifier may contain parentheses when they are balanced (`Bash(python -c "print(1)")`)
 * or escaped as `\(` and `\)`; `\\` stands for one backslash, and any other backslash (such as
 * the `\*` of a literal star) is kept for the tool's matcher. `Tool()` and `Tool(*)` are
 * tool-wide, like `Tool`. Whitespace around the rule is ignored.
 *
 * @param raw The rule as written in settings or options.
 * @param options The list the rule is in (`behavior`) and where it came from (`source`:
 *   `options`, `cli`, or a settings file path).
 * @returns The parsed rule.
 * @throws {ToolshedError} With code `permission_rule_invalid` when the rule is empty, its
 *   parentheses do not balance, text follows the closing `)`, or the tool name has characters
 *   other than letters, digits, `_` and `-`. The message quotes the rule and says how to fix it.
 *
 * @example
 * ```ts
 * import { parseRule } from '@toolshed/core/internal';
 *
 * parseRule('Bash(npm test:*)', { behavior: 'allow', source: 'options' });
 * // { toolName: 'Bash', ruleContent: 'npm test:*', behavior: 'allow', source: 'options', raw: 'Bash(npm test:*)' }
 * parseRule('mcp__github', { behavior: 'deny', source: '/p/.toolshed/settings.json' }).toolName; // 'mcp__github'
 * ```
 */
export function parseRule(raw: string, { behavior, source }: ParseRuleOptions): PermissionRule {
  const where = ` (permissions.${behavior}, from ${source})`;
  if (typeof raw !== 'string') {
    throw invalid(
      `Permission rule ${describeValue(raw)} is not a string: write rules as strings such as "Bash" or "Bash(npm test:*)"${where}`,
    );
  }
  const value = parseRuleValue(raw.trim(), where);
  const rule: PermissionRule = { toolName: value.toolName, behavior, source, raw: raw.trim() };
  if (value.ruleContent !== undefined) rule.ruleContent = value.ruleContent;
  return rule;
}

/**
 * Parses a list of rule strings, collecting the malformed ones instead of throwing, so that a
 * settings file with one bad rule reports every bad rule at once.
 *
 * @param list The rule strings.
 * @param options The list they are in (`behavior`) and where they came from (`source`).
 * @returns The rules that parsed, in order, and one error per rule that did not.
 *
 * @example
 * ```ts
 * import { parseRules } from '@toolshed/core/internal';
 *
 * const { rules, errors } = parseRules(['Read', 'Bash(npm test'], { behavior: 'allow', source: 'options' });
 * rules.length; // 1
 * errors[0]?.message; // 'Permission rule "Bash(npm test" is missing its closing ")": …'
 * ```
 */
export function parseRules(
  list: readonly string[],
  options: ParseRuleOptions,
): { rules: PermissionRule[]; errors: ToolshedError[] } {
  const rules: PermissionRule[] = [];
  const errors: ToolshedError[] = [];
  for (const raw of list) {
    try {
      rules.push(parseRule(raw, options));
    } catch (e) {
      if (!ToolshedError.isInstance(e)) throw e;
      errors.push(e);
    }
  }
  return { rules, errors };
}

/**
 * Writes a rule back as a string that {@linkcode parseRule} reads as the same tool and
 * specifier. Parentheses of the specifier are kept as they are when they balance and escaped
 * otherwise; backslashes that would be read as escapes are doubled.
 *
 * @param value The tool name and optional specifier.
 * @returns `Tool` or `Tool(specifier)`.
 *
 * @example
 * ```ts
 * import { formatRule } from '@toolshed/core/internal';
 *
 * formatRule({ toolName: 'Bash', ruleContent: 'npm test:*' }); // 'Bash(npm test:*)'
 * formatRule({ toolName: 'Bash', ruleContent: 'echo ")"' });   // 'Bash(echo "\\)")'
 * formatRule({ toolName: 'WebFetch' });                        // 'WebFetch'
 * ```
 */
export function formatRule(value: { toolName: string; ruleContent?: string | undefined }): string {
  const content = value.ruleContent;
  if (content === undefined) return value.toolName;
  // An empty or `*` specifier matches every call, which is what `Tool()` and `Tool(*)` mean.
  if (content === '') return value.toolName;
  if (content === '*') return `${value.toolName}(*)`;
  const escapeParens = !parensBalance(content);
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const ch = content[i]!;
    const next = content[i + 1];
    if (ch === '\\' && (next === undefined || next === '\\' || next === '(' || next === ')')) out += '\\\\';
    else if (escapeParens && (ch === '(' || ch === ')')) out += `\\${ch}`;
    else out += ch;
  }
  return `${value.toolName}(${out})`;
}

function parseRuleValue(rule: string, where: string): RuleValue {
  if (rule === '') {
    throw invalid(
      `Permission rule "" is empty: write a tool name such as "Bash", or a tool with a specifier such as "Bash(npm test:*)"${where}`,
    );
  }
  const open = findUnescaped(rule, '(');
  if (open === -1) {
    const stray = findUnescaped(rule, ')');
    if (stray !== -1) {
      throw invalid(
        `Permission rule ${quote(rule)} has a ")" without an opening "(": write "Tool(specifier)", for example "Bash(npm test)"${where}`,
      );
    }
    checkToolName(rule, rule, undefined, where);
    return { toolName: rule };
  }

  const toolName = rule.slice(0, open);
  const close = findClosingParen(rule, open);
  const body = close === -1 ? rule.slice(open + 1) : rule.slice(open + 1, close);
  checkToolName(toolName, rule, body, where);
  if (close === -1) {
    const fixed = `${toolName}(${body})`;
    const looksLikeAPrefix = body !== '' && !body.includes('*') && !/[()]/.test(body);
    // With parentheses inside, a rule that ends in ")" most likely has an unescaped "(" in its
    // specifier (`Bash(echo "(")`); one that does not was most likely left unclosed.
    const intended = rule.endsWith(')') ? rule.slice(open + 1, -1) : body;
    const fix = /[()]/.test(body)
      ? `close it, or escape parentheses inside the specifier as \\( and \\): for example "${formatRule({ toolName, ruleContent: unescape(intended) })}"`
      : looksLikeAPrefix
        ? `write "${fixed}" or "${toolName}(${body}:*)"`
        : `write "${fixed}"`;
    throw invalid(`Permission rule ${quote(rule)} is missing its closing ")": ${fix}${where}`);
  }
  if (close !== rule.length - 1) {
    const rest = rule.slice(close + 1);
    // Either the specifier had an unescaped ")" (`Bash(a) b)`) or text was left outside (`Bash(ls) -la`).
    const intended = rest.endsWith(')') ? rule.slice(open + 1, -1) : body + rest;
    const suggestion = formatRule({ toolName, ruleContent: unescape(intended) });
    throw invalid(
      `Permission rule ${quote(rule)} has text after its closing ")" (\`${rest}\`): the specifier goes inside the parentheses and the rule ends with ")"; escape parentheses inside the specifier as \\( and \\), for example "${suggestion}"${where}`,
    );
  }
  if (body === '' || body === '*') return { toolName };
  return { toolName, ruleContent: unescape(body) };
}

function checkToolName(toolName: string, rule: string, body: string | undefined, where: string): void {
  if (TOOL_NAME.test(toolName) || MCP_SERVER_WILDCARD.test(toolName)) return;
  if (toolName === '') {
    throw invalid(
      `Permission rule ${quote(rule)} has no tool name before "(": write the tool first, for example "Bash(${body ?? ''})"${where}`,
    );
  }
  const trimmed = toolName.trim();
  if (trimmed !== toolName && (TOOL_NAME.test(trimmed) || MCP_SERVER_WILDCARD.test(trimmed))) {
    const fixed = body === undefined ? trimmed : `${trimmed}(${body})`;
    throw invalid(`Permission rule ${quote(rule)} has a space between the tool name and "(": write "${fixed}"${where}`);
  }
  const bad = [...new Set([...toolName].filter((ch) => !/[A-Za-z0-9_-]/.test(ch)))].map((ch) => quote(ch)).join(', ');
  throw invalid(
    `Permission rule ${quote(rule)} has an invalid tool name ${quote(toolName)} (bad characters: ${bad}): a tool name is letters, digits, "_" and "-" (or "mcp__server__*"), optionally followed by a specifier in parentheses, as in "Bash(npm test:*)"${where}`,
  );
}

/** The index of the first `ch` not preceded by an escaping backslash, or -1. */
function findUnescaped(text: string, ch: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ch) return i;
  }
  return -1;
}

/** The index of the `)` that balances the `(` at `open`, or -1. */
function findClosingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

/** `\(`, `\)` and `\\` become the character; other backslashes stay for the tool's matcher. */
function unescape(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    const next = body[i + 1];
    if (ch === '\\' && (next === '(' || next === ')' || next === '\\')) {
      out += next;
      i++;
    } else {
      out += ch;
    }
  }
  return out;
}

function parensBalance(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function quote(text: string): string {
  return `"${text}"`;
}

function describeValue(value: unknown): string {
  try {
    return `${JSON.stringify(value)} (a ${value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value})`;
  } catch {
    return `of type ${typeof value}`;
  }
}

function invalid(message: string): ToolshedError {
  return new ToolshedError(PERMISSION_RULE_INVALID, message);
}
