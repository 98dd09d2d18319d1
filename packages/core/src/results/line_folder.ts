import { formatCount } from './_format_count.ts';

/**
 * The most characters of one line a saved result keeps on one line of its file: Read's cut
 * (`MAX_LINE_CHARS` of the fs family), past which the rest of a line is out of Read's reach.
 *
 * @example
 * ```ts
 * import { SAVED_LINE_CHARS } from '@toolshed/core';
 *
 * SAVED_LINE_CHARS; // 2000
 * ```
 */
export const SAVED_LINE_CHARS = 2_000;

/**
 * Folds long lines of a text written piece by piece, so that every character of a saved result
 * can be read with a tool that cuts lines (Read shows {@linkcode SAVED_LINE_CHARS} characters of
 * a line). A line break is inserted after every {@linkcode SAVED_LINE_CHARS} characters of a line,
 * one character earlier where the next one would be half of a surrogate pair or a `\r` (Read
 * drops a `\r` that ends a line), and after a line of `width - 1` or `width` characters that ends
 * there. So the rule to undo it has no exception: in the folded text, a line of `width - 1` or
 * more characters continues on the next line; every shorter line ends where a line of the
 * original ended, a line's length being what Read shows (without the `\r` that ends it). The
 * decision needs only the character at hand, so pieces may split anywhere, even inside a surrogate
 * pair. A NUL is saved as ␀ (U+2400): Read takes a file with a NUL for binary. (One case is left:
 * a lone `\r` at the fold's last place followed by a character outside the BMP ends a line Read
 * shows one shorter.)
 *
 * @example
 * ```ts
 * import { LineFolder } from '@toolshed/core';
 *
 * const folder = new LineFolder();
 * const saved = folder.fold('x'.repeat(4500)) + folder.fold('\nshort\n');
 * saved.split('\n').map((l) => l.length); // [2000, 2000, 500, 5, 0]
 * folder.folds; // 2
 * folder.longestLine; // 4500
 * ```
 */
export class LineFolder {
  readonly #width: number;
  /** Characters on the current line of the folded text. */
  #col = 0;
  /** Characters on the current line of the original text. */
  #line = 0;
  #longest = 0;
  #folds = 0;
  #nuls = 0;
  /** The last character on the current line of the folded text is a `\r` (Read drops it at a line end). */
  #lastCR = false;

  /**
   * @param width Characters of a line kept on one line. @default 2000
   * @throws {RangeError} When `width` is not an integer of at least 3.
   */
  constructor(width: number = SAVED_LINE_CHARS) {
    if (!Number.isSafeInteger(width) || width < 3)
      throw new RangeError(`LineFolder width must be an integer of at least 3, got ${String(width)}.`);
    this.#width = width;
  }

  /** How many line breaks were inserted so far. */
  get folds(): number {
    return this.#folds;
  }

  /** The longest line of the original text so far, in characters (UTF-16 units, as Read counts). */
  get longestLine(): number {
    return Math.max(this.#longest, this.#line);
  }

  /**
   * Folds the next piece of the text.
   *
   * @param text The next piece, as it comes.
   * @returns The piece with line breaks inserted (the same string when none was needed).
   */
  fold(text: string): string {
    // Read refuses a file with a NUL in it as binary: a NUL is saved as ␀ (U+2400), one character as well.
    if (text.includes('\0')) {
      this.#nuls += text.split('\0').length - 1;
      text = text.replaceAll('\0', '\u2400');
    }
    const w = this.#width;
    let out: string[] | undefined;
    let from = 0;
    const breakAt = (at: number) => {
      out ??= [];
      out.push(text.slice(from, at), '\n');
      from = at;
      this.#col = 0;
      this.#lastCR = false;
      this.#folds++;
    };
    let i = 0;
    while (i < text.length) {
      const nl = text.indexOf('\n', i);
      const end = nl === -1 ? text.length : nl;
      this.#line += end - i;
      // Most lines: short enough that nothing in them can need a break.
      if (this.#col + (end - i) < w - 1) this.#col += end - i;
      else
        for (let j = i; j < end; ) {
          if (this.#col === w) breakAt(j);
          else if (this.#col === w - 1) {
            const c = text.charCodeAt(j);
            if ((c >= 0xd800 && c <= 0xdbff) || c === 13) breakAt(j);
            else {
              this.#col++;
              j++;
            }
          } else {
            const take = Math.min(end - j, w - 1 - this.#col);
            this.#col += take;
            j += take;
          }
        }
      if (end > i) this.#lastCR = text.charCodeAt(end - 1) === 13;
      if (nl === -1) break;
      // Judged by what Read shows: without the \r that ends the line.
      if (this.#col - (this.#lastCR ? 1 : 0) >= w - 1) breakAt(nl);
      this.#longest = Math.max(this.#longest, this.#line);
      this.#line = 0;
      this.#col = 0;
      this.#lastCR = false;
      i = nl + 1;
    }
    if (out === undefined) return text;
    out.push(text.slice(from));
    return out.join('');
  }

  /**
   * Folds the next piece given as ASCII bytes (no byte over 0x7f), without decoding it.
   *
   * @param bytes The next piece.
   * @returns The piece with line breaks inserted (the same bytes when none was needed).
   */
  foldAscii(bytes: Uint8Array): Uint8Array {
    // A NUL becomes ␀, three bytes in UTF-8: folded as text.
    if (bytes.includes(0)) return Buffer.from(this.fold(Buffer.from(bytes).toString('latin1')), 'utf8');
    const w = this.#width;
    let out: Uint8Array[] | undefined;
    let from = 0;
    const NL = new Uint8Array([10]);
    const breakAt = (at: number) => {
      out ??= [];
      out.push(bytes.subarray(from, at), NL);
      from = at;
      this.#col = 0;
      this.#lastCR = false;
      this.#folds++;
    };
    let i = 0;
    while (i < bytes.length) {
      const nl = bytes.indexOf(10, i);
      const end = nl === -1 ? bytes.length : nl;
      this.#line += end - i;
      if (this.#col + (end - i) < w - 1) this.#col += end - i;
      else
        for (let j = i; j < end; ) {
          if (this.#col === w || (this.#col === w - 1 && bytes[j] === 13)) breakAt(j);
          else {
            const take = this.#col === w - 1 ? 1 : Math.min(end - j, w - 1 - this.#col);
            this.#col += take;
            j += take;
          }
        }
      if (end > i) this.#lastCR = bytes[end - 1] === 13;
      if (nl === -1) break;
      if (this.#col - (this.#lastCR ? 1 : 0) >= w - 1) breakAt(nl);
      this.#longest = Math.max(this.#longest, this.#line);
      this.#line = 0;
      this.#col = 0;
      this.#lastCR = false;
      i = nl + 1;
    }
    if (out === undefined) return bytes;
    out.push(bytes.subarray(from));
    return Buffer.concat(out);
  }

  /**
   * The sentence a preview adds when this folder inserted breaks (empty when it did not).
   *
   * @returns The note for the model.
   */
  note(): string {
    const notes: string[] = [];
    if (this.#folds > 0) notes.push(foldedNote(this.longestLine, this.#width));
    if (this.#nuls > 0)
      notes.push(
        `It has ${formatCount(this.#nuls)} NUL characters, saved as ␀ (U+2400) so that Read shows the file as text.`,
      );
    return notes.join(' ');
  }

  /** How many NUL characters were saved as ␀ so far. */
  get nuls(): number {
    return this.#nuls;
  }
}

/**
 * What a preview says of a saved file whose long lines were folded by {@linkcode LineFolder}.
 *
 * @param longestLine The longest line of the output, in characters.
 * @param width The folder's width. @default 2000
 * @returns The sentence.
 *
 * @example
 * ```ts
 * import { foldedNote } from '@toolshed/core/internal';
 *
 * foldedNote(5_000_000); // 'Its longest line has 5,000,000 characters, …'
 * ```
 */
export function foldedNote(longestLine: number, width: number = SAVED_LINE_CHARS): string {
  return (
    `Its longest line has ${formatCount(longestLine)} characters, more than a file line Read shows ` +
    `(${formatCount(width)}), so the file has its long lines folded every ${formatCount(width)} characters: ` +
    `a line of ${formatCount(width - 1)} or ${formatCount(width)} characters in the file continues on the next ` +
    'line, and those line breaks are not in the output (a search for text that spans one does not find it).'
  );
}
