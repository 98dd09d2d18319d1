import { SAVED_LINE_CHARS } from './line_folder.ts';

/** A text's lines as Read shows them: split at `\n`, each without a `\r` that ends it. */
function shownLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/**
 * What Read makes of a text: its lines joined again, each without the `\r` that ended it (Read
 * drops it). For tests that compare an output with what the model can rebuild from its saved file.
 *
 * @param text The output.
 * @returns The output as Read shows it.
 *
 * @example
 * ```ts
 * import { readView } from './_test_unfold.ts';
 *
 * readView('a\r\nb\r'); // 'a\nb'
 * ```
 */
export function readView(text: string): string {
  return shownLines(text).join('\n');
}

/**
 * Undoes the folds of a saved result by the rule its preview states (a line of `width - 1` or
 * more characters continues on the next line), on the lines as Read shows them (a line's final
 * `\r` dropped), as a model paging through the file would: for tests that compare a saved file
 * with {@linkcode readView} of the output.
 *
 * @param folded The saved file's text.
 * @param width The folder's width. @default 2000
 * @returns The output as Read shows it.
 *
 * @example
 * ```ts
 * import { unfold } from './_test_unfold.ts';
 *
 * unfold(`${'x'.repeat(2000)}\n${'x'.repeat(10)}`); // 'x'.repeat(2010)
 * ```
 */
export function unfold(folded: string, width: number = SAVED_LINE_CHARS): string {
  const lines = shownLines(folded);
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out += line;
    if (i < lines.length - 1 && line.length < width - 1) out += '\n';
  }
  return out;
}
