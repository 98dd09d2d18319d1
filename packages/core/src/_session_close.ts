import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from './describe_error.ts';
import { sessionResultsDir } from './permissions/own_results.ts';
import { type KeepResults, removeSessionResults, sweepOldResults } from './results/result_cleanup.ts';
import type { StateDirPlace } from './state_dir.ts';

/** What closing a session works through. */
export interface CloseSessionOptions {
  /** The families' and tools' cleanups, run last-registered first; the list is emptied. */
  cleanups: (() => void | Promise<void>)[];
  /** Where a failed step is reported (closing never throws). */
  warn: (message: string) => void;
  keepResults: KeepResults;
  stateDir: string;
  /** The per-user place the session made for itself, if it did. */
  place: StateDirPlace | undefined;
  /** The files this session saved results to. */
  persisted: ReadonlySet<string>;
}

/**
 * Closes a session: runs every cleanup (killing background tasks, stopping servers), then
 * removes the results it saved (or sweeps old ones, as `keepResults` says). A failed step is a
 * warning; the rest still runs.
 *
 * @param options The cleanups and what to remove.
 * @returns Settles when everything is done.
 *
 * @example
 * ```ts
 * import { closeSession } from './_session_close.ts';
 *
 * await closeSession({
 *   cleanups: [() => console.log('stopped')], warn: console.warn,
 *   keepResults: false, stateDir: '/tmp/state', place: undefined, persisted: new Set(),
 * });
 * ```
 */
export async function closeSession(options: CloseSessionOptions): Promise<void> {
  for (const cleanup of options.cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (e) {
      options.warn(`A cleanup step failed on close: ${describeError(e)}`);
    }
  }
  // Last, once families have stopped what writes there (background tasks' logs).
  const { keepResults, place, stateDir } = options;
  try {
    if (keepResults === false)
      await removeSessionResults({ stateDir, ownsStateDir: place !== undefined, files: options.persisted });
    else if (keepResults !== true) {
      const dirs = place
        ? (await readdir(place.root).catch(() => [] as string[])).map((name) =>
            sessionResultsDir(path.join(place.root, name)),
          )
        : [sessionResultsDir(stateDir)];
      await sweepOldResults(dirs, keepResults.maxAgeMs, { removeEmptyParents: place !== undefined });
    }
  } catch (e) {
    options.warn(`Removing the session's saved results from "${stateDir}" failed on close: ${describeError(e)}`);
  }
}
