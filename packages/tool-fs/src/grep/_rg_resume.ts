import { comparePathBytes } from './_rg_path_order.ts';

/**
 * Where a run writing line by line had got to in what it gave (or held): the last record's path
 * and line number, the lines after it without a path (`--` separators), and all its lines.
 */
export interface GivenMark {
  path: Buffer | undefined;
  line: number;
  /** Its records carry line numbers (`path\0N:` or `N-`; a count, `path\0N`, does not). */
  numbered: boolean;
  /** Lines without a path given after the last record. */
  trailing: number;
  lines: number;
}

/**
 * How a run that replaces one writing line by line leaves out what that one gave. With line
 * numbers in the output (as the mark saw it), by place: every record at or before the mark's (path, line) and the
 * separators given after it, so that a file changed between the two runs gives no line twice
 * (counting lines, a line added above the mark made the last line given come again). Without
 * them (counts), by the number of lines.
 */
export interface Resumption {
  mark: GivenMark;
  byPlace: boolean;
  /** Lines without a path met since the last record left out (given again only past the mark's `trailing`). */
  pending: Buffer[];
  /** Lines still to leave out, when not by place. */
  lines: number;
  done: boolean;
}

/**
 * A mark before anything is given.
 *
 * @returns An empty mark.
 *
 * @example
 * ```ts
 * import { newMark } from './_rg_resume.ts';
 *
 * newMark().lines; // 0
 * ```
 */
export function newMark(): GivenMark {
  return { path: undefined, line: 0, numbered: false, trailing: 0, lines: 0 };
}

/**
 * Moves a mark past `bytes`, whole lines of `--null` output just given or held.
 *
 * @param mark The mark, changed in place.
 * @param bytes The lines.
 *
 * @example
 * ```ts
 * import { markGiven, newMark } from './_rg_resume.ts';
 *
 * const mark = newMark();
 * markGiven(mark, Buffer.from('a\u00003:x\n--\n'));
 * [mark.line, mark.trailing, mark.lines]; // [3, 1, 2]
 * ```
 */
export function markGiven(mark: GivenMark, bytes: Buffer): void {
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) {
      mark.path = Buffer.from(bytes.subarray(pos, nul));
      mark.line = lineNumber(bytes, nul + 1);
      // A line number ends in `:` (a match) or `-` (context); a count ends the line.
      const after = bytes[nul + 1 + String(mark.line).length];
      mark.numbered = after === 58 || after === 45;
      mark.trailing = 0;
    } else mark.trailing++;
    mark.lines++;
    pos = nl + 1;
  }
}

/**
 * What of a replacing run's `bytes` is new: those past the mark (see {@linkcode Resumption}).
 *
 * @param resumption The state of the leaving out, changed in place (`done` once past the mark).
 * @param bytes Whole lines of the replacing run's output.
 * @returns The lines to give.
 *
 * @example
 * ```ts
 * import { markGiven, newMark, skipGiven } from './_rg_resume.ts';
 *
 * const mark = newMark();
 * markGiven(mark, Buffer.from('a\u00001:x\n'));
 * const resumption = { mark, byPlace: true, pending: [], lines: mark.lines, done: false };
 * skipGiven(resumption, Buffer.from('a\u00001:x\n--\na\u00004:y\n')).toString(); // '--\na\u00004:y\n'
 * ```
 */
export function skipGiven(resumption: Resumption, bytes: Buffer): Buffer {
  if (resumption.done) return bytes;
  const { mark } = resumption;
  if (!resumption.byPlace) {
    let pos = 0;
    for (; resumption.lines > 0 && pos < bytes.length; resumption.lines--) {
      const nl = bytes.indexOf(10, pos);
      pos = nl === -1 ? bytes.length : nl + 1;
    }
    resumption.done = resumption.lines === 0;
    return bytes.subarray(pos);
  }
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length - 1;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) {
      const order = mark.path === undefined ? 1 : comparePathBytes(bytes.subarray(pos, nul), mark.path);
      if (order > 0 || (order === 0 && lineNumber(bytes, nul + 1) > mark.line)) {
        resumption.done = true;
        return Buffer.concat([...resumption.pending.slice(mark.trailing), bytes.subarray(pos)]);
      }
      resumption.pending = [];
    } else resumption.pending.push(Buffer.from(bytes.subarray(pos, nl + 1)));
    pos = nl + 1;
  }
  return Buffer.alloc(0);
}

/** The decimal number at `at` (a record's line number after its path's NUL); 0 without one. */
function lineNumber(bytes: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < bytes.length && bytes[i]! >= 48 && bytes[i]! <= 57; i++) n = n * 10 + bytes[i]! - 48;
  return n;
}
