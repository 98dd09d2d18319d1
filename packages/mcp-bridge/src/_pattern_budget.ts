import { createContext, Script } from 'node:vm';
import type { ErrorObject } from 'ajv';

/**
 * Milliseconds one validation against a server's schema may take. Its `pattern`s run in the
 * agent's own thread: one that backtracks without end (`^(a+)+$` on thirty "a"s and a "!") would
 * otherwise freeze every tool, cancellation and Ctrl-C of the session for seconds to years. One
 * budget for the whole validation, not one per value: twenty hostile items must not cost twenty.
 *
 * @example
 * ```ts
 * import { PATTERN_BUDGET_MS } from './_pattern_budget.ts';
 *
 * PATTERN_BUDGET_MS; // 100
 * ```
 */
export const PATTERN_BUDGET_MS = 100;

// The whole validation runs in one script with a timeout (one watchdog per validation, not per
// pattern: each run with a timeout starts one), which V8 enforces inside the regular expression
// engine too, in functions of this context called from the script.
const sandbox = createContext({ validate: undefined, value: undefined });
const run = new Script('validate(value)');
// What the validation was testing when its time ran out, for the message.
let current: { pattern: string; value: string } | undefined;

/**
 * ajv's `code.regExp`: the pattern as a native regular expression, noting what it tests so that
 * {@linkcode watchPatterns} can say which pattern ran out of time on which value.
 *
 * @param pattern The schema's pattern.
 * @param flags Its flags (`u`).
 * @returns An object with `test`.
 *
 * @example
 * ```ts
 * import { budgetedRegExp } from './_pattern_budget.ts';
 *
 * budgetedRegExp('^[0-9]+$', 'u').test('42'); // true
 * ```
 */
export const budgetedRegExp = Object.assign(
  (pattern: string, flags: string): { test: (s: string) => boolean; toString: () => string } => {
    const re = new RegExp(pattern, flags);
    return {
      // ajv keeps one compiled pattern per toString(): it must be the pattern's own.
      toString: () => re.toString(),
      test(s: string): boolean {
        current = { pattern, value: s };
        const matched = re.test(s);
        current = undefined;
        return matched;
      },
    };
  },
  { code: 'budgetedRegExp' },
);

/**
 * Runs a validation within {@linkcode PATTERN_BUDGET_MS}. Past it the validation stops and the
 * value is refused, with one error that names the pattern and the start of the value it was
 * testing; a timeout never counts as "no match" (which `not`, `anyOf` or `patternProperties`
 * would turn into a pass).
 *
 * @param validate The compiled validation; its `errors` are set to the refusal on a timeout.
 * @param value The value validated.
 * @returns Whether it passed.
 *
 * @example
 * ```ts
 * import { watchPatterns } from './_pattern_budget.ts';
 * declare const compiled: ((value: unknown) => boolean) & { errors?: null }; // an ajv validate function
 *
 * const ok = watchPatterns(compiled, { name: 'aaa' });
 * ```
 */
export function watchPatterns(
  validate: ((value: unknown) => boolean) & { errors?: ErrorObject[] | null; schema?: unknown },
  value: unknown,
): boolean {
  // Most tools' schemas have no pattern: they validate directly, without a script and its watchdog.
  if (!usesPatterns(validate)) return validate(value) === true;
  sandbox['validate'] = validate;
  sandbox['value'] = value;
  current = undefined;
  try {
    return run.runInContext(sandbox, { timeout: PATTERN_BUDGET_MS }) === true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
    // Set by the test that was running (TypeScript cannot see it change inside validate).
    const at = current as { pattern: string; value: string } | undefined;
    const what = at
      ? `its pattern "${at.pattern}" on the value ${JSON.stringify(at.value.length > 40 ? `${at.value.slice(0, 40)}…` : at.value)}`
      : 'its checks';
    validate.errors = [
      {
        keyword: 'pattern',
        instancePath: '',
        schemaPath: '#',
        params: { pattern: at?.pattern ?? '' },
        message: `could not be checked against the schema: ${what} took too long (over ${PATTERN_BUDGET_MS} ms for the whole check; such a pattern backtracks without end on such values), so the value is refused; send shorter or simpler values`,
      },
    ];
    return false;
  } finally {
    sandbox['validate'] = undefined;
    sandbox['value'] = undefined;
    current = undefined;
  }
}

// Whether a compiled schema has a pattern anywhere (`pattern`, `patternProperties`), found once.
const hasPatterns = new WeakMap<object, boolean>();

function usesPatterns(validate: { schema?: unknown }): boolean {
  let known = hasPatterns.get(validate);
  if (known === undefined) {
    known = containsPattern(validate.schema === undefined ? true : validate.schema, 0);
    hasPatterns.set(validate, known);
  }
  return known;
}

/** A schema (or part) with a `pattern` or `patternProperties` key; past 64 levels, assumed to have one. */
function containsPattern(node: unknown, depth: number): boolean {
  if (depth > 64) return true;
  if (Array.isArray(node)) return node.some((n) => containsPattern(n, depth + 1));
  if (node === null || typeof node !== 'object') return false;
  for (const [key, child] of Object.entries(node)) {
    if ((key === 'pattern' && typeof child === 'string') || key === 'patternProperties') return true;
    if (containsPattern(child, depth + 1)) return true;
  }
  return false;
}
