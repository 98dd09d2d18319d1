/**
 * Every `ToolshedError` code, as the keys of one interface. Core's codes are listed here; a
 * family declares its own beside its tools, by adding keys to this interface:
 *
 * ```ts
 * declare module '@toolshed/core' {
 *   interface ToolshedErrorCodes {
 *     lsp_server_missing: true;
 *   }
 * }
 * ```
 *
 * so {@linkcode ToolshedErrorCode} is the union of every code of the packages a program
 * installs, and a `switch` on `error.code` is checked by the compiler.
 *
 * @example
 * ```ts
 * import type { ToolshedErrorCodes } from '@toolshed/core';
 *
 * const known: keyof ToolshedErrorCodes = 'settings_invalid';
 * ```
 */
export interface ToolshedErrorCodes {
  /** A settings file cannot be used (`createSession`, `assertSettingsValid`). */
  settings_invalid: true;
  /** A permission rule does not parse or cannot mean what it says. */
  permission_rule_invalid: true;
  /** Permission options (mode, working directories) that cannot be used. */
  permission_options_invalid: true;
  /** A path whose real location cannot be known (a symlink loop, a name too long). */
  path_unresolvable: true;
  /** A tool declared a resource the path guard cannot judge. */
  resource_invalid: true;
  /** The state folder is not private to the user (another user could read or replace results). */
  state_dir_unsafe: true;
  /** `openChildSession` from a context that offers no child sessions. */
  child_session_unavailable: true;
  /** The session was closed. */
  session_closed: true;
  /** A request was cancelled. */
  aborted: true;
}

/**
 * A code a `ToolshedError` carries: one of core's, or one a family declared (see
 * {@linkcode ToolshedErrorCodes}).
 *
 * @example
 * ```ts
 * import { ToolshedError, type ToolshedErrorCode } from '@toolshed/core';
 *
 * function exitCodeOf(code: ToolshedErrorCode): number {
 *   switch (code) {
 *     case 'settings_invalid':
 *     case 'permission_rule_invalid':
 *       return 2;
 *     default:
 *       return 1;
 *   }
 * }
 * exitCodeOf(new ToolshedError('settings_invalid', 'Bad settings').code); // 2
 * ```
 */
export type ToolshedErrorCode = keyof ToolshedErrorCodes;
