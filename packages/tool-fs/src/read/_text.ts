import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { decodeText, isBinary, splitLines } from '../_text_file.ts';

/** Lines a Read returns when no `limit` is given (Claude Code's default). */
export const DEFAULT_READ_LINES = 2000;
/** Characters after which one line is cut, with a marker. */
export const MAX_LINE_CHARS = 2000;
/** Characters of numbered output a Read returns at most (about 25 000 tokens). */
export const MAX_READ_OUTPUT_CHARS = 100_000;
/** Files larger than this are streamed line by line instead of read whole. */
export const STREAM_THRESHOLD_BYTES = 32 * 1024 * 1024;

/** What {@linkcode readTextRange} found. */
export interface TextRange {
  /** sha256 of the whole file's bytes. */
  contentHash: string;
  /** The first line shown (1-based). */
  start: number;
  /** The lines shown, already cut to {@linkcode MAX_LINE_CHARS}. */
  lines: string[];
  /** Lines in the whole file. */
  totalLines: number;
  /** The whole text, when the file was read whole (small files). */
  text?: string;
  /** The file turned out to be binary. */
  binaryAt?: number;
  /** The output cap stopped the range before `limit` lines. */
  capped: boolean;
}

/**
 * Reads lines `start … start+limit-1` of an open text file, hashing all of it. Small files are
 * read whole; files over {@linkcode STREAM_THRESHOLD_BYTES} are streamed so that memory stays
 * bounded by the lines shown.
 *
 * @param handle The open file (a regular file).
 * @param size Its size in bytes.
 * @param options The first line (1-based) and how many lines.
 * @returns The range, the hash and the line count.
 *
 * @example
 * ```ts
 * import { open } from 'node:fs/promises';
 * import { readTextRange } from './_text.ts';
 *
 * const handle = await open('/repo/a.ts');
 * const range = await readTextRange(handle, (await handle.stat()).size, { start: 1, limit: 2000 });
 * ```
 */
export async function readTextRange(
  handle: FileHandle,
  size: number,
  options: { start: number; limit: number },
): Promise<TextRange> {
  const { start, limit } = options;
  if (size <= STREAM_THRESHOLD_BYTES) {
    const bytes = await handle.readFile();
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    if (isBinary(bytes))
      return { contentHash, start, lines: [], totalLines: 0, binaryAt: bytes.indexOf(0), capped: false };
    const { text } = decodeText(bytes);
    const all = splitLines(text);
    const picked = pickLines(all.slice(start - 1, start - 1 + limit));
    return { contentHash, start, lines: picked.lines, totalLines: all.length, text, capped: picked.capped };
  }
  return streamRange(handle, options);
}

async function streamRange(handle: FileHandle, { start, limit }: { start: number; limit: number }): Promise<TextRange> {
  const hash = createHash('sha256');
  const lines: string[] = [];
  let chars = 0;
  let capped = false;
  let lineNo = 0;
  let partial = '';
  let first = true;
  let decoder = new StringDecoder('utf8');
  let dropped = 0;
  const take = (raw: string) => {
    lineNo++;
    const extra = dropped;
    dropped = 0;
    if (lineNo < start || capped || lines.length >= limit) return;
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const line = clipLine(body, body.length + extra);
    if (chars + line.length > MAX_READ_OUTPUT_CHARS && lines.length > 0) {
      capped = true;
      return;
    }
    chars += line.length + 8;
    lines.push(line);
  };
  for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    let body = chunk;
    if (first) {
      first = false;
      if (isBinary(chunk)) {
        return { contentHash: '', start, lines: [], totalLines: 0, binaryAt: chunk.indexOf(0), capped: false };
      }
      if (chunk[0] === 0xff && chunk[1] === 0xfe) {
        decoder = new StringDecoder('utf16le');
        body = chunk.subarray(2);
      } else if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        body = chunk.subarray(3);
      }
    }
    const text = partial + decoder.write(body);
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      take(text.slice(from, nl));
      from = nl + 1;
    }
    // Keep at most a cut line's worth of an unfinished line: a 1 GB line must not fill memory.
    partial = text.slice(from);
    if (partial.length > MAX_LINE_CHARS * 2) {
      dropped += partial.length - MAX_LINE_CHARS * 2;
      partial = partial.slice(0, MAX_LINE_CHARS * 2);
    }
  }
  const rest = partial + decoder.end();
  if (rest !== '') take(rest);
  return { contentHash: hash.digest('hex'), start, lines, totalLines: lineNo, capped };
}

function pickLines(raw: string[]): { lines: string[]; capped: boolean } {
  const lines: string[] = [];
  let chars = 0;
  for (const r of raw) {
    const line = clipLine(r);
    if (chars + line.length > MAX_READ_OUTPUT_CHARS && lines.length > 0) return { lines, capped: true };
    chars += line.length + 8;
    lines.push(line);
  }
  return { lines, capped: false };
}

/**
 * Cuts a line longer than {@linkcode MAX_LINE_CHARS}, with a marker saying how long it was.
 *
 * @param line One line.
 * @param fullLength Its length before a streaming reader dropped its tail.
 * @returns The line, or its start and the marker.
 *
 * @example
 * ```ts
 * import { clipLine } from './_text.ts';
 *
 * clipLine('x'.repeat(5000)); // 'xxx…x… [line truncated: 5000 characters]'
 * ```
 */
export function clipLine(line: string, fullLength: number = line.length): string {
  if (fullLength <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${fullLength} characters]`;
}

/**
 * Numbers lines as `cat -n` does: the number right-aligned in six columns, a tab, the line.
 *
 * @param lines The lines.
 * @param start The number of the first.
 * @returns The numbered text.
 *
 * @example
 * ```ts
 * import { numberLines } from './_text.ts';
 *
 * numberLines(['a', 'b'], 9); // '     9\ta\n    10\tb'
 * ```
 */
export function numberLines(lines: readonly string[], start: number): string {
  return lines.map((line, i) => `${String(start + i).padStart(6)}\t${line}`).join('\n');
}
