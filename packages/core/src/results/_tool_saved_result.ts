import path from 'node:path';
import { sessionResultsDir } from '../permissions/own_results.ts';

/**
 * The file a tool says it saved its whole result to (`persistedPath` of its call result), when
 * that is a file directly in the session's results folder, where `ResultSpill` writes: the
 * session reports it, lets the model read it, and removes it on `close()`, so a path anywhere
 * else (a tool's mistake, or a way to have the session delete a file) is not taken.
 *
 * @param file The path the tool gave.
 * @param stateDir The session's state folder.
 * @returns The path, absolute; undefined when it is not in the results folder.
 *
 * @example
 * ```ts
 * import { toolSavedResult } from './_tool_saved_result.ts';
 *
 * toolSavedResult('/s/tool-results/toolu_1.txt', '/s'); // '/s/tool-results/toolu_1.txt'
 * toolSavedResult('/home/u/notes.txt', '/s'); // undefined
 * ```
 */
export function toolSavedResult(file: string, stateDir: string): string | undefined {
  if (!path.isAbsolute(file)) return undefined;
  const resolved = path.resolve(file);
  return path.dirname(resolved) === sessionResultsDir(stateDir) ? resolved : undefined;
}
