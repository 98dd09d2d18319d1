type Notice = { level: 'info' | 'warn' | 'error'; message: string };

// Filled by loadSetupHints once the families are loaded: importing tool-web just for its hint's
// text would load it for `--only fs` too.
let hints: readonly string[] = [];

/**
 * Reads the setup hints of the families a command loaded (WebSearch's, when `web` is among
 * them), so that {@linkcode isSetupHint} knows them. A family that failed to load has none.
 *
 * @param families The family names the command selected.
 *
 * @example
 * ```ts
 * import type { CommonArgs } from '@toolshed/cli';
 * import { loadSetupHints } from './_setup_hints.ts';
 * declare const args: CommonArgs;
 *
 * await loadSetupHints(args.families);
 * ```
 */
export async function loadSetupHints(families: readonly string[]): Promise<void> {
  if (!families.includes('web')) return;
  try {
    hints = [(await import('@toolshed/tool-web')).WEB_SEARCH_SETUP_HINT];
  } catch {
    // The web family's own warning already says it did not load.
  }
}

/**
 * Whether a session notice is a setup hint (a tool disabled until it is configured, such as
 * WebSearch without a search backend): `toolshed tools` shows those, once, under its table;
 * every other command leaves them out, since they say nothing about the command run.
 *
 * @param notice A session notice.
 * @returns True for a setup hint of a family {@linkcode loadSetupHints} read.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { isSetupHint } from './_setup_hints.ts';
 * declare const session: Session;
 *
 * session.notices().filter((n) => !isSetupHint(n)); // what a command prints
 * ```
 */
export function isSetupHint(notice: Notice): boolean {
  return notice.level === 'info' && hints.includes(notice.message);
}
