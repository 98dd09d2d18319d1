import type { ToolProgress } from '@toolshed/core';

/**
 * Turns a call's progress reports into the lines to print, each line once and in order. A
 * report with `lastLines` (the Bash tool's: the last lines of output so far, sent on a timer)
 * prints only the lines that are new since the previous report, so a line is never printed
 * twice and a line that came and went between two reports is not skipped when it is still in
 * `lastLines`; a report without `lastLines` prints its `message` when it differs from the last.
 *
 * @example
 * ```ts
 * import { progressLines } from './_progress_lines.ts';
 *
 * const lines = progressLines();
 * lines({ message: 'step 1', lastLines: ['step 1'] }); // ['step 1']
 * lines({ message: 'step 2', lastLines: ['step 1', 'step 2'] }); // ['step 2']
 * lines({ message: 'step 2', lastLines: ['step 1', 'step 2'] }); // []
 * ```
 */
export function progressLines(): (progress: ToolProgress) => string[] {
  let previous: string[] = [];
  let lastMessage: string | undefined;
  let lastChars: unknown;
  return (progress) => {
    const lines = Array.isArray(progress.lastLines)
      ? progress.lastLines.filter((l): l is string => typeof l === 'string')
      : undefined;
    if (lines) {
      // The same output as last time (nothing new arrived): nothing to print.
      if (progress.totalChars !== undefined && progress.totalChars === lastChars) return [];
      lastChars = progress.totalChars;
      const fresh = lines.slice(overlap(previous, lines));
      previous = lines;
      if (fresh.length > 0) lastMessage = fresh.at(-1);
      return fresh;
    }
    const message = typeof progress.message === 'string' ? progress.message : '';
    if (!message || message === lastMessage) return [];
    lastMessage = message;
    return [message];
  };
}

/** The length of the longest tail of `before` that `after` starts with. */
function overlap(before: readonly string[], after: readonly string[]): number {
  for (let n = Math.min(before.length, after.length); n > 0; n--) {
    let same = true;
    for (let i = 0; i < n && same; i++) same = before[before.length - n + i] === after[i];
    if (same) return n;
  }
  return 0;
}
