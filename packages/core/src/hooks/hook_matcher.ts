// Claude Code's test for "names, not a regex": letters, digits, `_` and `|` only. A hyphen makes
// the matcher a regex there (`mcp__my-server__.*`), and so it does here.
const NAME_LIST = /^[A-Za-z0-9_|]+$/;

// Matchers come from a handful of settings entries, so the cache stays small; `null` records a
// matcher that does not compile, so it is not recompiled for every call.
const compiled = new Map<string, RegExp | null>();

function compile(matcher: string): RegExp | null {
  let regex = compiled.get(matcher);
  if (regex === undefined) {
    try {
      // Not anchored: Claude Code tests `new RegExp(matcher)` against the name, so
      // `mcp__github__(create|merge)` selects `mcp__github__create_issue` there, and must here.
      regex = new RegExp(matcher);
    } catch {
      regex = null;
    }
    compiled.set(matcher, regex);
  }
  return regex;
}

function matchesAll(matcher: string | undefined): boolean {
  return matcher === undefined || matcher === '' || matcher === '*';
}

/**
 * Whether a hook group's matcher selects a tool, with Claude Code's semantics: no matcher, `''`
 * or `'*'` match every tool; letters, digits and `_` (`Bash`) match that name exactly, and names
 * joined by `|` (`Edit|Write`) any of them; anything else is a regular expression that matches
 * when it is found in the name (not anchored: add `^…$` for a whole name). A tool's aliases
 * count as its names (`Task` selects `Agent`, as Claude Code's legacy names do). A matcher that
 * is not a valid regular expression matches nothing ({@linkcode validateMatcher} says why).
 *
 * @param matcher The group's `matcher`.
 * @param toolName The name of the tool being called.
 * @param options `aliases`: the tool's other names (`Agent`: `['Task']`), default none.
 * @returns `true` when the group's hooks run for this tool.
 *
 * @example
 * ```ts
 * import { matchesTool } from '@toolshed/core/internal';
 *
 * matchesTool('Edit|Write', 'Write'); // true
 * matchesTool('mcp__github__(create|merge)', 'mcp__github__create_issue'); // true
 * matchesTool('Task', 'Agent', { aliases: ['Task'] }); // true
 * matchesTool('Bash', 'BashOutput'); // false: plain names match exactly
 * ```
 */
export function matchesTool(
  matcher: string | undefined,
  toolName: string,
  { aliases = [] }: { aliases?: readonly string[] | undefined } = {},
): boolean {
  if (matchesAll(matcher)) return true;
  // `matchesAll` ruled out undefined; the cast only tells the compiler so.
  const m = matcher as string;
  const names = aliases.length === 0 ? [toolName] : [toolName, ...aliases];
  if (NAME_LIST.test(m)) {
    const listed = m.split('|');
    return names.some((name) => listed.includes(name));
  }
  const regex = compile(m);
  return regex !== null && names.some((name) => regex.test(name));
}

/**
 * Checks a matcher before it is used, so settings validation can report a matcher that would
 * silently match nothing.
 *
 * @param matcher A hook group's `matcher`, as read from settings (any JSON value).
 * @returns An actionable error message, or `undefined` when the matcher is fine.
 *
 * @example
 * ```ts
 * import { validateMatcher } from '@toolshed/core/internal';
 *
 * validateMatcher('Edit|Write'); // undefined
 * validateMatcher('Bash('); // 'Hook matcher "Bash(" is not a valid regular expression: …'
 * ```
 */
export function validateMatcher(matcher: unknown): string | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher !== 'string') {
    return `Hook matcher must be a string such as "Bash", "Edit|Write" or "*", got ${JSON.stringify(matcher) ?? String(matcher)}.`;
  }
  if (matchesAll(matcher) || NAME_LIST.test(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return (
      `Hook matcher ${JSON.stringify(matcher)} is not a valid regular expression (${detail}); ` +
      'use a tool name, names separated by "|", or escape the special characters.'
    );
  }
}
