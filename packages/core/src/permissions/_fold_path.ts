/**
 * A path as a case-insensitive file system sees it: in Unicode NFC, since macOS (APFS, HFS+)
 * opens `Café` written in NFD as the `café` a rule names in NFC, and case-folded the way those
 * file systems fold, one character at a time: lower case, and then the one lower form of every
 * character with several (`ς` and `σ` are both `Σ`, so one file; `ſ` is `s`; the Kelvin sign
 * is `k`). A character whose upper case is longer (`ß` → `SS`) keeps its own form, as the file
 * systems do: `straße` and `strasse` are two files. On a case-sensitive system paths are compared
 * as written: there `café` in NFC and in NFD are two files, and folding would let an allow rule
 * cover the wrong one.
 *
 * @param text A path or path pattern.
 * @param caseInsensitive Whether the file system ignores case (and, with it, normalization).
 * @returns The text to compare.
 *
 * @example
 * ```ts
 * import { foldPath } from './_fold_path.ts';
 *
 * foldPath('Caf\u0065\u0301.txt', true); // 'café.txt' in NFC
 * foldPath('ΟΔΟΣ', true) === foldPath('οδος', true); // true: final and medial sigma fold together
 * ```
 */
export function foldPath(text: string, caseInsensitive: boolean | undefined): string {
  if (!caseInsensitive) return text;
  const lower = text.normalize('NFC').toLowerCase();
  // ASCII folds completely with toLowerCase; only other scripts have several lower forms of one letter.
  return NON_ASCII.test(lower) ? Array.from(lower, foldCharacter).join('') : lower;
}

const NON_ASCII = /[^\u0000-\u007f]/;

/** The lower form of a character's upper form, when that is one character too (else the character). */
function foldCharacter(ch: string): string {
  const upper = ch.toUpperCase();
  if (upper.length !== ch.length) return ch;
  const folded = upper.toLowerCase();
  return folded.length === ch.length ? folded : ch;
}
