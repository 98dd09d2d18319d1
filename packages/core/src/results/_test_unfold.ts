import { SAVED_LINE_CHARS } from './line_folder.ts';

/**
 * Undoes the folds of a saved result by the rule its preview states (a line of `width - 1` or
 * more characters continues on the next line), as a model paging through the file would: for
 * tests that compare a saved file with the output.
 *
 * @param folded The saved file's text.
 * @param width The folder's width. @default 2000
 * @returns The output.
 *
 * @example
 * ```ts
 * import { unfold } from './_test_unfold.ts';
 *
 * unfold(`${'x'.repeat(2000)}\n${'x'.repeat(10)}`); // 'x'.repeat(2010)
 * ```
 */
export function unfold(folded: string, width: number = SAVED_LINE_CHARS): string {
  const lines = folded.split('\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out += line;
    if (i < lines.length - 1 && line.length < width - 1) out += '\n';
  }
  return out;
}
