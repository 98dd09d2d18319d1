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
 * import { straightenQuotes } from './_match.ts';
 *
 * straightenQuotes('“hi”'); // '"hi"'
 * ```
 */
export function straightenQuotes(text: string): string {
  return text.replace(/[\u2018\u2019\u201c\u201d]/g, (c) => CURLY_TO_STRAIGHT[c]!);
}

/** Options of {@linkcode findReplacements}. */
export interface FindReplacementsOptions {
  /** What to replace. */
  oldString: string;
  /** What to put instead (line endings already the file's). */
  newString: string;
  /** Replace every occurrence; otherwise more than one is an error. @default false */
  replaceAll?: boolean | undefined;
}

/**
 * Finds where `oldString` is in `text` and what replaces it: exactly; then with the file's CRLF
 * line endings; then with curly quotes straightened on both sides (the replacement then takes
 * the file's curly quotes); then without `cat -n` line-number prefixes a model copied from Read.
 *
 * @param text The file's text.
 * @param options What to replace (`oldString`), what to put instead (`newString`, line endings
 *   already the file's), and whether to replace every occurrence (`replaceAll`; otherwise more
 *   than one is an error).
 * @returns The replacements, or why there are none.
 *
 * @example
 * ```ts
 * import { findReplacements } from './_match.ts';
 *
 * findReplacements('say “hi”', { oldString: 'say "hi"', newString: 'say "bye"' }); // one replacement with text 'say “bye”'
 * ```
 */
export function findReplacements(
  text: string,
  { oldString, newString, replaceAll = false }: FindReplacementsOptions,
): MatchResult {
  const attempts: { old: string; new: string; how: 'exact' | 'line endings' | 'line numbers' }[] = [
    { old: oldString, new: newString, how: 'exact' },
  ];
  const exact = allIndexes(text, oldString);
  if (exact.length > 0) return settle(text, exact, oldString.length, () => newString, replaceAll, 'exact');
  // Only when the exact text is not there: a scan of the whole text for CRLF.
  if (/(^|[^\r])\n/.test(oldString) && text.includes('\r\n')) {
    attempts.push({
      old: oldString.replace(/\r?\n/g, '\r\n'),
      new: newString.replace(/\r?\n/g, '\r\n'),
      how: 'line endings',
    });
  }
  for (const a of attempts.slice(1)) {
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
    const again = findReplacements(text, {
      oldString: unnumbered,
      newString: stripLineNumbers(newString) ?? newString,
      replaceAll,
    });
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
  return {
    kind: 'ok',
    how,
    replacements: found.map((index) => ({ index, length, text: replacementFor(text.slice(index, index + length)) })),
  };
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
 * import { lineOf } from './_match.ts';
 *
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
 * import { linesOf } from './_match.ts';
 *
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

/** Where replacements sit, in lines: see {@linkcode replacementLines}. */
export interface ReplacementLines {
  /** The line (1-based, in the text before) where each replacement's old text starts. */
  starts: number[];
  /** The line where each one's old text ends (its last character). */
  ends: number[];
  /** In the text after: the line of the first replacement's start. */
  firstLine: number;
  /** In the text after: the line of the last replacement's last character. */
  lastLine: number;
  /** How many lines the text after has more than the text before (as {@linkcode countNewlines} counts lines). */
  lineDelta: number;
}

/**
 * The lines of a set of replacements, before and after, in one pass over the text up to the
 * last one (a 20 MB file was walked three times to find the same numbers, and counted twice).
 *
 * @param text The text before.
 * @param replacements Sorted, not overlapping (from {@linkcode findReplacements}); at least one.
 * @returns Their lines.
 *
 * @example
 * ```ts
 * import { replacementLines } from './_match.ts';
 *
 * replacementLines('a\nb\nc', [{ index: 2, length: 1, text: 'x\ny' }]);
 * // { starts: [2], ends: [2], firstLine: 2, lastLine: 3, lineDelta: 1 }
 * ```
 */
export function replacementLines(text: string, replacements: readonly Replacement[]): ReplacementLines {
  const marks: number[] = [];
  for (const r of replacements) marks.push(r.index, r.index + Math.max(0, r.length - 1));
  const lines = linesOf(text, marks);
  const starts = lines.filter((_, i) => i % 2 === 0);
  const ends = lines.filter((_, i) => i % 2 === 1);
  // Each replacement adds the newlines of its text and takes away those of what it replaces.
  const added = replacements.map((r) => newlinesIn(r.text) - newlinesIn(text, r.index, r.index + r.length));
  const last = replacements[replacements.length - 1]!;
  const before = added.slice(0, -1).reduce((sum, n) => sum + n, 0);
  const lastLine = starts[starts.length - 1]! + before + newlinesIn(last.text, 0, Math.max(0, last.text.length - 1));
  const after = applyTail(text, replacements);
  const lineDelta = before + added[added.length - 1]! + tailLine(after) - tailLine(text);
  return { starts, ends, firstLine: starts[0]!, lastLine, lineDelta };
}

/** How many `\n` characters `text` has from index `from` up to (not including) `to`; the whole text by default. */
/**
 * How many newlines a text has (its lines, less one when it ends in a newline).
 *
 * @param text The text.
 * @returns The count of `\n`.
 *
 * @example
 * ```ts
 * import { countNewlines } from './_match.ts';
 *
 * countNewlines('a\nb\n'); // 2
 * ```
 */
export function countNewlines(text: string): number {
  return newlinesIn(text);
}

/** The newlines of `text` from `from` up to (not including) `to`. */
function newlinesIn(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** 1 when the text's last line has no newline after it (it counts as a line), else 0. */
function tailLine(text: string): number {
  return text === '' || text.endsWith('\n') ? 0 : 1;
}

/** The end of the text after the replacements: its emptiness and last character are all that {@linkcode tailLine} needs. */
function applyTail(text: string, replacements: readonly Replacement[]): string {
  const last = replacements[replacements.length - 1]!;
  const rest = text.slice(last.index + last.length);
  if (rest !== '') return rest;
  if (last.text !== '') return last.text;
  // The last replacement removed the end of the text: what comes before it decides.
  return applyReplacements(text, replacements).slice(-1);
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
 * import { applyReplacements } from './_match.ts';
 *
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

/** Options of {@linkcode noMatchMessage}. */
export interface NoMatchMessageOptions {
  /** What was not found. */
  oldString: string;
  /** The path, for the message. */
  file: string;
}

/**
 * A message for an `old_string` that is nowhere in the file: the most similar region of the
 * file with its line numbers, and a short diff against `old_string`, so the model can correct
 * itself in one step.
 *
 * @param text The file's text.
 * @param options What was not found (`oldString`), and the path, for the message (`file`).
 * @returns The message.
 *
 * @example
 * ```ts
 * import { noMatchMessage } from './_match.ts';
 *
 * noMatchMessage('a\nb\n', { oldString: 'a\nc', file: '/x.ts' }); // 'old_string was not found in /x.ts. The closest region is lines 1-2 …'
 * ```
 */
export function noMatchMessage(text: string, { oldString, file }: NoMatchMessageOptions): string {
  const head = `old_string was not found in ${file} (compared exactly, then with the file's line endings and with curly quotes straightened).`;
  const fileLines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const oldLines = oldString.split('\n').map((l) => l.replace(/\r$/, ''));
  const best = closestRegion(fileLines, oldLines);
  if (!best || best.score < 0.3) {
    return `${head} Nothing in the file resembles it. Read the file again and copy the text to replace exactly (without the line-number prefix Read adds).`;
  }
  const region = fileLines.slice(best.start, best.start + oldLines.length);
  const diff = diffLines(region, oldLines).map((d) => ({ ...d, n: d.op === '+' ? 0 : best.start + d.n }));
  const differsInSpaceOnly = whitespaceOnlyDiffers(region, oldLines);
  const shown = diff.slice(0, 40);
  const rendered = shown.map((d, i) => {
    // A removed line and the added one right after it are a pair: a long one is shown where the two differ.
    const other =
      d.op === '-' && shown[i + 1]?.op === '+'
        ? shown[i + 1]
        : d.op === '+' && shown[i - 1]?.op === '-'
          ? shown[i - 1]
          : undefined;
    const visible = clipLine(differsInSpaceOnly(d.line) ? JSON.stringify(d.line) : d.line, other?.line);
    return d.op === '+' ? `+      ${visible}` : `${d.op} ${String(d.n).padStart(4)} ${visible}`;
  });
  if (diff.length > 40) rendered.push(`… (${diff.length - 40} more lines)`);
  const end = best.start + region.length;
  return (
    `${head}\nThe closest region is lines ${best.start + 1}-${end} (${Math.round(best.score * 100)}% similar). ` +
    `Diff from the file (-) to your old_string (+):\n${rendered.join('\n')}\n` +
    'Copy the text from the file exactly (whitespace and indentation included) and try again.'
  );
}

/** Characters of one line a no-match message shows, at most: a minified file's line is megabytes. */
const SHOWN_LINE_CHARS = 240;

/**
 * A line as the diff shows it: whole when short; else the part around where it first differs
 * from `other` (its pair on the other side), with how much was left out on each side.
 */
function clipLine(line: string, other: string | undefined): string {
  if (line.length <= SHOWN_LINE_CHARS) return line;
  let at = 0;
  if (other !== undefined) while (at < line.length && line[at] === other[at]) at++;
  const from = Math.max(0, Math.min(at - SHOWN_LINE_CHARS / 2, line.length - SHOWN_LINE_CHARS));
  const to = from + SHOWN_LINE_CHARS;
  const before = from > 0 ? `…(${from} characters)…` : '';
  const after = to < line.length ? `…(${line.length - to} more characters)` : '';
  return `${before}${line.slice(from, to)}${after}`;
}

/** A test: some other line of either side equals this one but for white space (then the diff shows it quoted). */
function whitespaceOnlyDiffers(a: readonly string[], b: readonly string[]): (line: string) => boolean {
  const squash = (s: string) => s.replace(/\s+/g, '');
  const bySquash = new Map<string, Set<string>>();
  for (const line of [...a, ...b]) {
    const key = squash(line);
    let lines = bySquash.get(key);
    if (!lines) bySquash.set(key, (lines = new Set()));
    lines.add(line);
  }
  return (line) => {
    const same = bySquash.get(squash(line));
    return same !== undefined && (same.size > 1 || !same.has(line));
  };
}

/** Line comparisons the closest-region search may make when scoring windows (so windows ≤ this / old_string's lines). */
export const MAX_SCORED_LINES = 200_000;
/** Up to this many line comparisons in all, every window of the file is scored rather than ranked first. */
const SCORE_ALL_LINES = 20_000;
/** Votes (file line, old_string line) pairs that may be counted to rank where windows start. */
const MAX_VOTES = 500_000;
/** Milliseconds after which the search answers with the best window found so far. */
const SEARCH_BUDGET_MS = 250;

/** What {@linkcode closestRegion} found, and how much it looked at. */
export interface ClosestRegion {
  /** 0-based first line of the window. */
  start: number;
  /** Similarity from 0 to 1. */
  score: number;
  /** Windows scored (each compares up to `oldLines.length` lines). */
  windows: number;
}

/**
 * The window of the file most similar to `oldLines`, within a fixed budget: in a small file
 * every window is scored; in a larger one the windows are ranked first by how many of their
 * lines equal (trimmed) the line of old_string they would align with, and only the best
 * `MAX_SCORED_LINES / oldLines.length` are scored. Whatever the sizes, it answers with what it has
 * after 250 ms.
 *
 * @param fileLines The file's lines.
 * @param oldLines old_string's lines.
 * @param options `budgetMs`: when to answer with the best so far (at least one window is scored).
 * @returns The best window, or undefined for an empty side.
 *
 * @example
 * ```ts
 * import { closestRegion } from './_match.ts';
 *
 * closestRegion(['a', 'b', 'c'], ['b', 'x']); // { start: 1, score: 0.5, windows: 2 }
 * ```
 */
export function closestRegion(
  fileLines: readonly string[],
  oldLines: readonly string[],
  options: { budgetMs?: number } = {},
): ClosestRegion | undefined {
  const k = oldLines.length;
  if (fileLines.length === 0 || k === 0) return undefined;
  const began = performance.now();
  const budget = options.budgetMs ?? SEARCH_BUDGET_MS;
  const deadline = began + budget;
  const oldGrams = oldLines.map(bigrams);
  const oldTrimmed = oldLines.map((l) => l.trim());
  const fileGrams: (Int32Array | undefined)[] = new Array(fileLines.length);
  const gramsOf = (j: number) => (fileGrams[j] ??= bigrams(fileLines[j]!));
  const lastStart = Math.max(0, fileLines.length - k);
  const maxWindows = Math.max(1, Math.floor(MAX_SCORED_LINES / k));
  let starts: number[];
  if ((lastStart + 1) * k <= SCORE_ALL_LINES) {
    starts = Array.from({ length: lastStart + 1 }, (_, s) => s);
  } else {
    starts = rankedStarts(fileLines, oldLines, oldGrams, gramsOf, lastStart, began + budget / 2).slice(0, maxWindows);
  }
  let best: { start: number; score: number } | undefined;
  let windows = 0;
  for (const s of starts) {
    if (best?.score === 1 || (best !== undefined && performance.now() > deadline)) break;
    windows++;
    let total = 0;
    const need = best ? best.score * k : -1;
    for (let i = 0; i < k; i++) {
      // Even a perfect rest could not beat the best: the window is out.
      if (total + (k - i) <= need) break;
      const line = fileLines[s + i];
      if (line === undefined) break;
      total += line === oldLines[i] ? 1 : line.trim() === oldTrimmed[i] ? 0.9 : dice(gramsOf(s + i), oldGrams[i]!);
    }
    const score = total / k;
    if (!best || score > best.score) best = { start: s, score };
  }
  return best && { ...best, windows };
}

/** Window starts, most promising first: by lines shared (trimmed) at that alignment, or by a line like old_string's first. */
function rankedStarts(
  fileLines: readonly string[],
  oldLines: readonly string[],
  oldGrams: readonly Int32Array[],
  gramsOf: (j: number) => Int32Array,
  lastStart: number,
  deadline: number,
): number[] {
  const trimmedOld = new Map<string, number[]>();
  oldLines.forEach((l, i) => {
    const t = l.trim();
    if (!t) return;
    const at = trimmedOld.get(t);
    if (at) at.push(i);
    else trimmedOld.set(t, [i]);
  });
  // Where each of old_string's lines occurs in the file.
  const inFile = new Map<string, number[]>();
  for (let j = 0; j < fileLines.length; j++) {
    if ((j & 4095) === 0 && performance.now() > deadline) break;
    const t = fileLines[j]!.trim();
    if (!trimmedOld.has(t)) continue;
    const at = inFile.get(t);
    if (at) at.push(j);
    else inFile.set(t, [j]);
  }
  // Rare lines vote first: a line found once in each places the window; `}` found everywhere says little.
  const shared = [...inFile].map(([t, js]) => ({
    js,
    is: trimmedOld.get(t)!,
    pairs: js.length * trimmedOld.get(t)!.length,
  }));
  shared.sort((x, y) => x.pairs - y.pairs);
  const counts = new Float64Array(lastStart + 1);
  let cast = 0;
  outer: for (const { js, is } of shared) {
    for (const j of js) {
      for (const i of is) {
        counts[Math.min(lastStart, Math.max(0, j - i))]! += 1;
        if (++cast >= MAX_VOTES) break outer;
      }
    }
  }
  const votes = new Map<number, number>();
  if (cast > 0) for (let s = 0; s <= lastStart; s++) if (counts[s]! > 0) votes.set(s, counts[s]!);
  if (votes.size === 0) {
    // No shared line: align on the lines most like old_string's first non-blank line.
    const anchor = Math.max(
      0,
      oldLines.findIndex((l) => l.trim() !== ''),
    );
    const like = similarTo(oldGrams[anchor]!);
    for (let j = 0; j < fileLines.length; j++) {
      if ((j & 1023) === 0 && performance.now() > deadline) break;
      const d = like(fileLines[j]!);
      if (d >= 0.6) {
        const s = Math.min(lastStart, Math.max(0, j - anchor));
        votes.set(s, Math.max(votes.get(s) ?? 0, d));
      }
    }
  }
  // Cut short before any vote: the first window still gets an answer.
  if (votes.size === 0) votes.set(0, 0);
  return [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([s]) => s);
}

/** Characters of a line that count for its bigrams: enough to tell lines apart, and a bound on the work. */
const MAX_GRAM_CHARS = 1000;

/** The trimmed line's character bigrams, each as one number, sorted (a multiset that merges in one pass). */
function bigrams(s: string): Int32Array {
  const t = s.trim();
  const n = Math.max(0, Math.min(t.length, MAX_GRAM_CHARS) - 1);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = (t.charCodeAt(i) << 16) | t.charCodeAt(i + 1);
  return out.sort();
}

/**
 * Dice's coefficient against one fixed line, for many lines: no bigram array per line, only a
 * lookup in the fixed line's counts (what a scan of every line of a large file needs).
 */
function similarTo(grams: Int32Array): (line: string) => number {
  const counts = new Map<number, number>();
  for (const g of grams) counts.set(g, (counts.get(g) ?? 0) + 1);
  const used = new Map<number, number>();
  return (line) => {
    const t = line.trim();
    const n = Math.max(0, Math.min(t.length, MAX_GRAM_CHARS) - 1);
    if (n + grams.length === 0) return 1;
    // Lengths alone can rule a line out: shared bigrams are at most the shorter side's.
    if ((2 * Math.min(n, grams.length)) / (n + grams.length) < 0.6) return 0;
    used.clear();
    let common = 0;
    for (let i = 0; i < n; i++) {
      const g = (t.charCodeAt(i) << 16) | t.charCodeAt(i + 1);
      const have = counts.get(g);
      if (have === undefined) continue;
      const u = used.get(g) ?? 0;
      if (u < have) {
        used.set(g, u + 1);
        common++;
      }
    }
    return (2 * common) / (n + grams.length);
  };
}

/** Dice's coefficient of two bigram multisets: 2 × shared / total (1 for two lines too short to have any). */
function dice(a: Int32Array, b: Int32Array): number {
  if (a.length + b.length === 0) return 1;
  let common = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) {
      i++;
    } else {
      j++;
    }
  }
  return (2 * common) / (a.length + b.length);
}
