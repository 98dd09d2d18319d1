import { ToolshedError } from './errors.ts';

/**
 * One line about a thrown value, for a model: the error's code or class and its first
 * message line; never a stack trace.
 *
 * @param error Anything thrown.
 * @returns For example `ENOENT: no such file or directory, open '/x'` or `TypeError: x is not a function`.
 *
 * @example
 * ```ts
 * import { describeError } from '@toolshed/core/internal';
 *
 * describeError(Object.assign(new Error('no such file'), { code: 'ENOENT' })); // "ENOENT: no such file"
 * ```
 */
export function describeError(error: unknown): string {
  if (error instanceof Error || ToolshedError.isInstance(error)) {
    const err = error as Error & { code?: unknown };
    const first = (err.message || '').split('\n')[0]!.trim() || '(no message)';
    const code = typeof err.code === 'string' ? err.code : undefined;
    if (ToolshedError.isInstance(error)) return first;
    if (code && !first.startsWith(code)) return `${code}: ${first}`;
    if (err.name && err.name !== 'Error' && !code) return `${err.name}: ${first}`;
    return first;
  }
  if (typeof error === 'string') return error.split('\n')[0]!;
  try {
    return `non-error value thrown: ${JSON.stringify(error)}`;
  } catch {
    return `non-error value thrown: ${String(error)}`;
  }
}
