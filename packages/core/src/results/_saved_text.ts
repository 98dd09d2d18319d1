import { indentJson } from './_json_indent.ts';
import { LineFolder, SAVED_LINE_CHARS } from './line_folder.ts';
import { formatCount } from './_format_count.ts';

/**
 * What a whole output is saved as, so that every character of it is within reach of Read
 * (which shows {@linkcode SAVED_LINE_CHARS} characters of a line): the output itself when no line
 * is longer; a JSON object or array with a longer line re-indented, when that makes every line
 * short (jq still takes it); else the output with long lines folded ({@linkcode LineFolder}).
 * `note` tells the model which, for the preview's header (empty when saved as it is).
 *
 * @param text The whole output.
 * @returns The text to save and the note.
 *
 * @example
 * ```ts
 * import { savedText } from './_saved_text.ts';
 *
 * savedText('short output').note; // ''
 * savedText('x'.repeat(5000)).text.split('\n').length; // 3
 * ```
 */
export function savedText(text: string): { text: string; note: string } {
  const folder = new LineFolder();
  const folded = folder.fold(text);
  if (folder.longestLine <= SAVED_LINE_CHARS)
    return folder.nuls === 0 ? { text, note: '' } : { text: folded, note: folder.note() };
  const json = indentJson(text);
  if (json !== undefined && longestLine(json) < SAVED_LINE_CHARS - 1) {
    return {
      text: json,
      note:
        `It is one JSON value whose longest line has ${formatCount(folder.longestLine)} characters, more than a ` +
        `file line Read shows (${formatCount(SAVED_LINE_CHARS)}), so the file holds it re-indented (two spaces a ` +
        'level; only the whitespace between tokens differs from the output): Read, Grep and jq all work on it.',
    };
  }
  return { text: folded, note: folder.note() };
}

function longestLine(text: string): number {
  let longest = 0;
  let from = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
    longest = Math.max(longest, nl - from);
    from = nl + 1;
  }
  return Math.max(longest, text.length - from);
}
