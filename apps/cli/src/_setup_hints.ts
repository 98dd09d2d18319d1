import { WEB_SEARCH_SETUP_HINT } from '@toolshed/tool-web';

type Notice = { level: 'info' | 'warn' | 'error'; message: string };

/**
 * Whether a session notice is a setup hint (a tool disabled until it is configured, such as
 * WebSearch without a search backend): `toolshed tools` shows those, once, under its table;
 * every other command leaves them out, since they say nothing about the command run.
 *
 * @param notice A session notice.
 * @returns True for a setup hint.
 *
 * @example
 * ```ts
 * session.notices().filter((n) => !isSetupHint(n)); // what a command prints
 * ```
 */
export function isSetupHint(notice: Notice): boolean {
  return notice.level === 'info' && notice.message === WEB_SEARCH_SETUP_HINT;
}
