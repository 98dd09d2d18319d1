import { createContext, Script } from 'node:vm';
import type { ErrorObject } from 'ajv';

/**
 * Milliseconds one `pattern` of a server's schema may take on one value. A pattern runs in the
 * agent's own thread: one that backtracks without end (`^(a+)+$` on thirty "a"s and a "!") would
 * otherwise freeze every tool, cancellation and Ctrl-C of the session for seconds to years.
 *
 * @example
 * ```ts
 * import { PATTERN_BUDGET_MS } from './_pattern_budget.ts';
 *
 * PATTERN_BUDGET_MS; // 100
 * ```
 */
export const PATTERN_BUDGET_MS = 100;

// One context and one script for every test: a pattern is run there with a timeout, which V8
// enforces inside the regular expression engine too.
const sandbox = createContext({ re: /(?:)/, s: '' });
const run = new Script('re.test(s)');
let watched: Set<string> | undefined;

/**
 * ajv's `code.regExp`: a regular expression whose `test` gives up after
 * {@linkcode PATTERN_BUDGET_MS}, answering "no match" and noting the pattern for
 * {@linkcode watchPatterns}, so that the value is refused with the reason.
 *
 * @param pattern The schema's pattern.
 * @param flags Its flags (`u`).
 * @returns An object with `test`.
 *
 * @example
 * ```ts
 * import { budgetedRegExp } from './_pattern_budget.ts';
 *
 * budgetedRegExp('^(a+)+$', 'u').test(`${'a'.repeat(40)}!`); // false, after 100 ms
 * ```
 */
export const budgetedRegExp = Object.assign(
  (pattern: string, flags: string): { test: (s: string) => boolean; toString: () => string } => {
    const re = new RegExp(pattern, flags);
    return {
      // ajv keeps one compiled pattern per toString(): it must be the pattern's own.
      toString: () => re.toString(),
      test(s: string): boolean {
        sandbox['re'] = re;
        sandbox['s'] = s;
        try {
          return run.runInContext(sandbox, { timeout: PATTERN_BUDGET_MS }) === true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
          watched?.add(pattern);
          return false;
        } finally {
          sandbox['s'] = '';
        }
      },
    };
  },
  { code: 'budgetedRegExp' },
);

/**
 * Runs a validation and rewrites the message of each `pattern` error whose pattern ran out of
 * time, so that the person or model is told why the value was refused.
 *
 * @param validate The compiled validation and its errors, read after it ran.
 * @param value The value validated.
 * @returns Whether it passed.
 *
 * @example
 * ```ts
 * import { watchPatterns } from './_pattern_budget.ts';
 * declare const compiled: (value: unknown) => boolean; // an ajv validate function
 *
 * const ok = watchPatterns(compiled, { name: 'aaa' });
 * ```
 */
export function watchPatterns(
  validate: ((value: unknown) => boolean) & { errors?: ErrorObject[] | null },
  value: unknown,
): boolean {
  const outer = watched;
  const timedOut = new Set<string>();
  watched = timedOut;
  try {
    const ok = validate(value);
    if (!ok && timedOut.size > 0) {
      for (const error of validate.errors ?? []) {
        const pattern = (error.params as { pattern?: unknown }).pattern;
        if (error.keyword === 'pattern' && typeof pattern === 'string' && timedOut.has(pattern))
          error.message = `could not be checked against the schema's pattern "${pattern}": it took too long (over ${PATTERN_BUDGET_MS} ms; the pattern backtracks without end on such values), so the value is refused; send a shorter or simpler value`;
      }
    }
    return ok;
  } finally {
    watched = outer;
  }
}
