import type { ToolCatalog } from '../tool.ts';

/**
 * The tools of a session that a preview may tell the model to read a saved output with. A
 * preview that names a tool the session lacks sends the model to a call that fails.
 */
export interface SavedOutputReaders {
  read: boolean;
  grep: boolean;
  bash: boolean;
}

/** What a preview says when nothing tells it which tools the session has: Read and Grep. */
const READ_AND_GREP: SavedOutputReaders = { read: true, grep: true, bash: false };

/**
 * Which of Read, Grep and Bash the session has, from its catalog (`ctx.tools`).
 *
 * @param catalog The session's tools; undefined means Read and Grep (what a library caller that
 *   gives no catalog has always been told).
 * @returns The readers.
 *
 * @example
 * ```ts
 * import { type ToolContext } from '@toolshed/core';
 * import { savedOutputReaders } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * savedOutputReaders(ctx.tools); // { read: true, grep: true, bash: false } with the fs family only
 * ```
 */
export function savedOutputReaders(catalog: Pick<ToolCatalog, 'get'> | undefined): SavedOutputReaders {
  if (catalog === undefined) return READ_AND_GREP;
  const has = (name: string) => {
    try {
      return catalog.get(name) !== undefined;
    } catch {
      return false;
    }
  };
  return { read: has('Read'), grep: has('Grep'), bash: has('Bash') };
}

/**
 * The sentence that tells the model how to read more of a saved output, naming only tools the
 * session has: Read (offset/limit) and Grep; else Bash with a `sed -n` and a `grep -n` command
 * for that path; else that no tool of the session can read it.
 *
 * @param path The saved file.
 * @param readers The session's tools ({@linkcode savedOutputReaders}).
 * @returns The sentence.
 *
 * @example
 * ```ts
 * import { readMoreHint } from '@toolshed/core';
 *
 * readMoreHint('/s/tool-results/t1.txt', { read: false, grep: false, bash: true });
 * // "To read more, call Bash with a command such as sed -n '1,200p' '/s/tool-results/t1.txt' …"
 * ```
 */
export function readMoreHint(path: string, readers: SavedOutputReaders): string {
  const read = `call Read with file_path "${path}" and offset/limit (in lines) to page through it`;
  const grep = `Grep with path "${path}" and output_mode "content" to find what you need`;
  if (readers.read && readers.grep) return `To read more, ${read}, or Grep with that path to find what you need.`;
  if (readers.read) return `To read more, ${read}.`;
  if (readers.grep)
    return (
      `To read more, call ${grep} (pattern "^" with offset and head_limit pages through every line). ` +
      'This session has no Read tool.'
    );
  if (readers.bash) {
    const quoted = shellQuote(path);
    return (
      `To read more, call Bash with a command such as sed -n '1,200p' ${quoted} (lines 1 to 200; ` +
      `change the numbers to page) or grep -n PATTERN ${quoted}. This session has no Read or Grep tool.`
    );
  }
  return 'This session has no tool that can read that file (no Read, Grep or Bash): what is shown here is all of the output you can see.';
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
