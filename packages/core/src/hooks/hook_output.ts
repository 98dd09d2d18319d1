import { z } from 'zod';
import { HOOK_EVENTS, type HookOutput } from './types.ts';

/**
 * The zod schema of {@linkcode HookOutput}. Loose: keys Toolshed does not know (newer Claude
 * Code fields, a hook's own notes) pass through, so hooks written for Claude Code keep working.
 *
 * @example
 * ```ts
 * import { hookOutputSchema } from '@toolshed/core';
 *
 * hookOutputSchema.safeParse({ decision: 'block', reason: 'no' }).success; // true
 * ```
 */
export const hookOutputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  decision: z.enum(['block', 'approve']).optional(),
  reason: z.string().optional(),
  systemMessage: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.enum(HOOK_EVENTS as [string, ...string[]]).optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

const MISPLACED = ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'] as const;

const ARTICLE: Record<string, string> = {
  boolean: 'a boolean',
  string: 'a string',
  object: 'an object',
  record: 'an object',
  number: 'a number',
};

function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function at(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function oneOf(values: readonly unknown[]): string {
  const names = values.map(String);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * Checks a value a hook printed or returned against {@linkcode hookOutputSchema}, and says
 * which field is wrong in words a hook author can act on.
 *
 * @param value The parsed JSON (command hook) or returned value (function hook).
 * @returns `{ output }` when it fits, or `{ error }` naming each bad field, e.g.
 *   `hookSpecificOutput.permissionDecision must be allow, deny or ask, got "maybe"`.
 *
 * @example
 * ```ts
 * import { validateHookOutput } from '@toolshed/core';
 *
 * validateHookOutput({ continue: 'no' }); // { error: 'continue must be a boolean, got "no"' }
 * ```
 */
export function validateHookOutput(value: unknown): { output: HookOutput } | { error: string } {
  const parsed = hookOutputSchema.safeParse(value);
  if (parsed.success) {
    // Unknown keys pass (Claude Code adds fields), but these at the top level are a common slip
    // that would silently do nothing.
    const misplaced = MISPLACED.filter((key) => key in parsed.data);
    if (misplaced.length === 0) return { output: parsed.data as HookOutput };
    return {
      error: misplaced
        .map(
          (key) =>
            `${key} belongs inside hookSpecificOutput, not at the top level; write {"hookSpecificOutput": {"${key}": …}}`,
        )
        .join('; '),
    };
  }
  const messages = parsed.error.issues.map((issue) => {
    const field = issue.path.length === 0 ? 'the output' : issue.path.map(String).join('.');
    const got = show(at(value, issue.path));
    if (issue.code === 'invalid_value') return `${field} must be ${oneOf(issue.values)}, got ${got}`;
    if (issue.code === 'invalid_type') {
      return `${field} must be ${ARTICLE[issue.expected] ?? issue.expected}, got ${got}`;
    }
    return `${field}: ${issue.message}`;
  });
  return { error: messages.join('; ') };
}

/**
 * Reads a command hook's stdout: JSON when it starts with `{`, plain text otherwise (which no
 * event acts on, so it is dropped).
 *
 * @param stdout What the hook printed.
 * @param truncated Whether stdout was cut at the size cap, which would explain broken JSON.
 * @returns `{}` for plain text, `{ output }` for valid JSON, `{ error }` for JSON that does not
 *   parse or does not fit {@linkcode HookOutput}.
 *
 * @example
 * ```ts
 * import { parseHookStdout } from './hook_output.ts';
 *
 * parseHookStdout('{"decision":"block","reason":"no"}'); // { output: { decision: 'block', reason: 'no' } }
 * parseHookStdout('all good'); // {}
 * ```
 */
export function parseHookStdout(stdout: string, truncated = false): { output?: HookOutput; error?: string } {
  const text = stdout.trim();
  if (!text.startsWith('{')) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const why = truncated ? 'was cut off at the 1 MB output limit' : `is not valid JSON (${detail})`;
    return {
      error: `stdout starts with "{" but ${why}; print one JSON object, or plain text that does not start with "{"`,
    };
  }
  return validateHookOutput(value);
}
