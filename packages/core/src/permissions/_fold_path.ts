/**
 * A path as a case-insensitive file system sees it: lower case and in Unicode NFC, since macOS
 * (APFS, HFS+) opens `Café` written in NFD as the `café` a rule names in NFC. On a
 * case-sensitive system paths are compared as written: there `café` in NFC and in NFD are two
 * files, and folding would let an allow rule cover the wrong one.
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
 * ```
 */
export function foldPath(text: string, caseInsensitive: boolean | undefined): string {
  return caseInsensitive ? text.normalize('NFC').toLowerCase() : text;
}
