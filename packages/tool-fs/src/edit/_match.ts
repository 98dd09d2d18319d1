import { diffLines } from '../_diff.ts';

/** One replacement of an edit: where in the text, how long, and with what. */
export interface Replacement {
  index: number;
  length: number;
  text: string;
}

/** What {@linkcode findReplacements} found. */
export type MatchResult =
  | { kind: 'ok'; replacements: Replacement[]; how: 'exact' | 'line endings' | 'quotes' | 'line numbers' }
  | { kind: 'none' }
  | { kind: 'many'; count: number; lines: number[] };

const CURLY_TO_STRAIGHT: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"' };

/**
 * Straightens curly quotes. Each is one UTF-16 unit, as is its replacement, so indices into the
 * straightened text are indices into the original.
 *
 * @param text The text.
 * @returns The text with ‘ ’ “ ” replaced by ' and ".
 *
 * @example
 * ```ts
 * straightenQuotes('“hi”'); // '"hi"'
 * ```
 */
export function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201c\u201d]/g, (c) => CURLY_TO_STRAIGHT[c]!);
}

/**
 * Finds where `oldString` is in `text` and what replaces it: exactly; then with the file's CRLF
 * line endings; then with curly quotes straightened on both sides (the replacement then takes
 * the file's curly quotes); then without `cat -n` line-number prefixes a model copied from Read.
 *
 * @param text The file's text.
 * @param oldString What to replace.
 * @param newString What to put instead (line endings already the file's).
 * @param replaceAll Replace every occurrence; otherwise more than one is an error.
 * @returns The replacements, or why there are none.
 *
 * @example
 * ```ts
 * findReplacements('say “hi”', 'say "hi"', 'say "bye"', false); // one replacement with text 'say “bye”'
 * ```
 */
export function findReplacements(text: string, oldString: string, newString: string, replaceAll: boolean): MatchResult {
  const crlf = text.includes('\r\n');
  const attempts: { old: string; new: string; how: 'exact' | 'line endings' | 'line numbers' }[] = [{ old: oldString, new: newString, how: 'exact' }];
  if (crlf && /(^|[^\r])\n/.test(oldString)) {
    attempts.push({ old: oldString.replace(/\r?\n/g, '\r\n'), new: newString.replace(/\r?\n/g, '\r\n'), how: 'line endings' });
  }
  for (const a of attempts) {
    const found = allIndexes(text, a.old);
    if (found.length > 0) return settle(text, found, a.old.length, () => a.new, replaceAll, a.how);
  }
  const straight = straightenQuotes(text);
  for (const a of attempts) {
    const found = allIndexes(straight, straightenQuotes(a.old));
    if (found.length > 0) {
      return settle(text, found, a.old.length, (actual) => withQuoteStyleOf(a.new, actual), replaceAll, 'quotes');
    }
  }
  const unnumbered = stripLineNumbers(oldString);
  if (unnumbered !== undefined) {
    const again = findReplacements(text, unnumbered, stripLineNumbers(newString) ?? newString, replaceAll);
    if (again.kind === 'ok') return { ...again, how: 'line numbers' };
  }
  return { kind: 'none' };
}

function settle(
  text: string,
  found: number[],
  length: number,
  replacementFor: (actual: string) => string,
  replaceAll: boolean,
  how: 'exact' | 'line endings' | 'quotes' | 'line numbers',
): MatchResult {
  if (found.length > 1 && !replaceAll) return { kind: 'many', count: found.length, lines: linesOf(text, found) };
  return { kind: 'ok', how, replacements: found.map((index) => ({ index, length, text: replacementFor(text.slice(index, index + length)) })) };
}

function allIndexes(text: string, needle: string): number[] {
  if (needle === '') return [];
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/**
 * The 1-based line of a character index.
 *
 * @param text The text.
 * @param index A character index.
 * @returns The line number.
 *
 * @example
 * ```ts
 * lineOf('a\nb', 2); // 2
 * ```
 */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The 1-based lines of many character indices, in one pass over the text (calling
 * {@linkcode lineOf} for each would be quadratic: 100 000 matches in a big file took minutes).
 *
 * @param text The text.
 * @param indices Character indices, ascending.
 * @returns The line of each index, in the same order.
 *
 * @example
 * ```ts
 * linesOf('a\nb\nc', [0, 2, 4]); // [1, 2, 3]
 * ```
 */
export function linesOf(text: string, indices: readonly number[]): number[] {
  const out: number[] = new Array(indices.length);
  let line = 1;
  let nl = text.indexOf('\n');
  for (let k = 0; k < indices.length; k++) {
    const index = indices[k]!;
    while (nl !== -1 && nl < index) {
      line++;
      nl = text.indexOf('\n', nl + 1);
    }
    out[k] = line;
  }
  return out;
}

/**
 * Applies replacements (sorted, not overlapping) to a text.
 *
 * @param text The text.
 * @param replacements From {@linkcode findReplacements}.
 * @returns The new text.
 *
 * @example
 * ```ts
 * applyReplacements('abc', [{ index: 1, length: 1, text: 'X' }]); // 'aXc'
 * ```
 */
export function applyReplacements(text: string, replacements: readonly Replacement[]): string {
  let out = '';
  let at = 0;
  for (const r of replacements) {
    out += text.slice(at, r.index) + r.text;
    at = r.index + r.length;
  }
  return out + text.slice(at);
}

/** Puts the curly quotes of `actual` (what the file has) into `replacement` (what the model typed straight). */
function withQuoteStyleOf(replacement: string, actual: string): string {
  let out = replacement;
  if (/[\u201c\u201d]/.test(actual)) {
    out = out.replace(/"/g, (_, offset: number, s: string) => (isOpening(s, offset) ? '\u201c' : '\u201d'));
  }
  if (/[\u2018\u2019]/.test(actual)) {
    out = out.replace(/'/g, (_, offset: number, s: string) => {
      const prev = s[offset - 1] ?? '';
      const next = s[offset + 1] ?? '';
      if (/\p{L}/u.test(prev) && /\p{L}/u.test(next)) return '\u2019'; // an apostrophe: don't, it's
      return isOpening(s, offset) ? '\u2018' : '\u2019';
    });
  }
  return out;
}

function isOpening(s: string, offset: number): boolean {
  return offset === 0 || /[\s([{\u2014\u2013-]/.test(s[offset - 1]!);
}

function stripLineNumbers(text: string): string | undefined {
  const lines = text.split('\n');
  if (!lines.every((l) => /^ *\d+\t/.test(l))) return undefined;
  return lines.map((l) => l.replace(/^ *\d+\t/, '')).join('\n');
}

/**
 * A message for an `old_string` that is nowhere in the file: the most similar region of the
 * file with its line numbers, and a short diff against `old_string`, so the model can correct
 * itself in one step.
 *
 * @param text The file's text.
 * @param oldString What was not found.
 * @param file The path, for the message.
 * @returns The message.
 *
 * @example
 * ```ts
 * noMatchMessage('a\nb\n', 'a\nc', '/x.ts'); // 'old_string was not found in /x.ts. The closest region is lines 1-2 …'
 * ```
 */
export function noMatchMessage(text: string, oldString: string, file: string): string {
  const head = `old_string was not found in ${file} (compared exactly, then with the file's line endings and with curly quotes straightened).`;
  const fileLines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const oldLines = oldString.split('\n').map((l) => l.replace(/\r$/, ''));
  const best = closestRegion(fileLines, oldLines);
  if (!best || best.score < 0.3) {
    return `${head} Nothing in the file resembles it. Read the file again and copy the text to replace exactly (without the line-number prefix Read adds).`;
  }
  const region = fileLines.slice(best.start, best.start + oldLines.length);
  const diff = diffLines(region, oldLines).map((d) => ({ ...d, n: d.op === '+' ? 0 : best.start + d.n }));
  const rendered = diff.slice(0, 40).map((d) => {
    const visible = whitespaceOnlyDiffers(d.line, region, oldLines) ? JSON.stringify(d.line) : d.line;
    return d.op === '+' ? `+      ${visible}` : `${d.op} ${String(d.n).padStart(4)} ${visible}`;
  });
  if (diff.length > 40) rendered.push(`… (${diff.length - 40} more lines)`);
  const end = best.start + region.length;
  return `${head}\nThe closest region is lines ${best.start + 1}-${end} (${Math.round(best.score * 100)}% similar). ` +
    `Diff from the file (-) to your old_string (+):\n${rendered.join('\n')}\n` +
    'Copy the text from the file exactly (whitespace and indentation included) and try again.';
}

function whitespaceOnlyDiffers(line: string, a: readonly string[], b: readonly string[]): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '');
  return [...a, ...b].some((other) => other !== line && squash(other) === squash(line));
}

function closestRegion(fileLines: readonly string[], oldLines: readonly string[]): { start: number; score: number } | undefined {
  const k = oldLines.length;
  if (fileLines.length === 0 || k === 0) return undefined;
  const oldGrams = oldLines.map(bigrams);
  const trimmedOld = new Map<string, number[]>();
  oldLines.forEach((l, i) => {
    const t = l.trim();
    if (t) trimmedOld.set(t, [...(trimmedOld.get(t) ?? []), i]);
  });
  // Candidate starts: where a file line equals (trimmed) some line of old_string, aligned to it;
  // in a small file, every start.
  const starts = new Set<number>();
  const lastStart = Math.max(0, fileLines.length - k);
  if (fileLines.length * k <= 200_000) {
    for (let s = 0; s <= lastStart; s++) starts.add(s);
  } else {
    fileLines.forEach((l, j) => {
      for (const i of trimmedOld.get(l.trim()) ?? []) starts.add(Math.min(lastStart, Math.max(0, j - i)));
    });
    if (starts.size === 0) {
      // No shared line: align on the lines most like old_string's first non-blank line.
      const anchor = oldLines.findIndex((l) => l.trim() !== '');
      const grams = oldGrams[Math.max(0, anchor)]!;
      fileLines.forEach((l, j) => {
        if (dice(bigrams(l), grams) >= 0.6) starts.add(Math.min(lastStart, Math.max(0, j - Math.max(0, anchor))));
      });
    }
  }
  let best: { start: number; score: number } | undefined;
  for (const s of starts) {
    if (starts.size > 5000 && best && best.score === 1) break;
    let total = 0;
    for (let i = 0; i < k; i++) {
      const line = fileLines[s + i];
      if (line === undefined) break;
      total += line === oldLines[i] ? 1 : line.trim() === oldLines[i]!.trim() ? 0.9 : dice(bigrams(line), oldGrams[i]!);
    }
    const score = total / k;
    if (!best || score > best.score) best = { start: s, score };
  }
  return best;
}

function bigrams(s: string): Map<string, number> {
  const t = s.trim();
  const m = new Map<string, number>();
  for (let i = 0; i < t.length - 1; i++) {
    const g = t.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let sa = 0;
  let sb = 0;
  let common = 0;
  for (const v of a.values()) sa += v;
  for (const v of b.values()) sb += v;
  if (sa + sb === 0) return 1;
  for (const [g, v] of a) common += Math.min(v, b.get(g) ?? 0);
  return (2 * common) / (sa + sb);
}
