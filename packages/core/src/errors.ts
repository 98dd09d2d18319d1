import type { ToolshedErrorCode } from './error_codes.ts';

const MARKER = Symbol.for('toolshed.error');

/**
 * The one error class callers of Toolshed catch. It carries a stable `code` and a
 * `Symbol.for` marker, so {@linkcode ToolshedError.isInstance} works across two installed
 * copies of `@toolshed/core` (where `instanceof` would not).
 *
 * @example
 * ```ts
 * import { loadSettings, ToolshedError } from '@toolshed/core';
 *
 * try {
 *   await loadSettings({ cwd: process.cwd() });
 * } catch (e) {
 *   if (ToolshedError.isInstance(e) && e.code === 'settings_invalid') console.error(e.message);
 * }
 * ```
 */
export class ToolshedError extends Error {
  /** A stable, machine-readable identifier such as `settings_invalid` or `tool_not_found`. */
  readonly code: ToolshedErrorCode;
  readonly [MARKER] = true;

  /**
   * @param code A stable identifier for the kind of failure.
   * @param message A sentence that says what was wrong, with the value, and what to do.
   * @param options `cause` is kept as the standard `Error.cause`.
   */
  constructor(code: ToolshedErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolshedError';
    this.code = code;
  }

  /**
   * Whether `value` is a ToolshedError from any copy of `@toolshed/core`.
   *
   * @example
   * ```ts
   * import { ToolshedError } from '@toolshed/core';
   *
   * ToolshedError.isInstance(new ToolshedError('aborted', 'Cancelled.')); // true
   * ```
   */
  static isInstance(value: unknown): value is ToolshedError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
