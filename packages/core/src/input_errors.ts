import type { z } from 'zod';

/** Options of {@linkcode formatInputError}. */
export interface FormatInputErrorOptions {
  /** The tool, named in the first line. */
  toolName: string;
  /** The input as the model sent it (to tell "missing" from "wrong type"). */
  input: unknown;
}

/**
 * Turns a zod error on a tool's input into sentences a model can act on: each bad field named
 * as missing, of the wrong type (with what was given) or unexpected (with the allowed keys).
 *
 * @param error The error from `inputSchema.safeParse(input)`.
 * @param options The tool (`toolName`, named in the first line) and the `input` as the model
 *   sent it (to tell "missing" from "wrong type").
 * @returns One line per problem under a heading line.
 *
 * @example
 * ```ts
 * import { formatInputError } from '@toolshed/core/internal';
 * import { z } from 'zod';
 *
 * const r = z.object({ file_path: z.string() }).strict().safeParse({ path: 'a' });
 * formatInputError(r.error!, { toolName: 'Read', input: { path: 'a' } });
 * // 'Invalid input for tool "Read":\n- required parameter `file_path` is missing (expected string)\n- unexpected parameter `path` ...'
 * ```
 */
export function formatInputError(error: z.ZodError, { toolName, input }: FormatInputErrorOptions): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return `Invalid input for tool "${toolName}": expected a JSON object of parameters, got ${describe(input)}.`;
  }
  const lines = error.issues.map((issue) => `- ${describeIssue(issue, input)}`);
  return `Invalid input for tool "${toolName}":\n${[...new Set(lines)].join('\n')}\nFix these parameters and call the tool again.`;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length ? `\`${issue.path.map(String).join('.')}\`` : 'the input';
  switch (issue.code) {
    case 'invalid_type': {
      const given = valueAt(input, issue.path);
      if (given === MISSING) return `required parameter ${field} is missing (expected ${issue.expected})`;
      return `parameter ${field} should be ${article(issue.expected)}, got ${describe(given)}`;
    }
    case 'unrecognized_keys': {
      const base = issue.path.length ? ` in \`${issue.path.join('.')}\`` : '';
      return `unexpected parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}${base}; remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
    }
    case 'invalid_value':
      return `parameter ${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(valueAt(input, issue.path))}`;
    case 'too_small':
    case 'too_big':
      return `parameter ${field}: ${lowerFirst(issue.message)}, got ${describe(valueAt(input, issue.path))}`;
    default:
      return `parameter ${field}: ${lowerFirst(issue.message)}`;
  }
}

const MISSING = Symbol('missing');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !(key in (value as object))) return MISSING;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === MISSING || value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const json = JSON.stringify(value);
  const shown = json.length > 40 ? `${json.slice(0, 37)}...` : json;
  return `${typeof value === 'object' ? 'an object' : typeof value} ${shown}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
