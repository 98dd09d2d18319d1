import { isAscii } from 'node:buffer';
import { open } from 'node:fs/promises';

/** How a text file's bytes are laid out, so an edit can write them back the same way. */
export interface TextFormat {
  /** The encoding, told by the byte order mark; UTF-8 without one. */
  encoding: 'utf8' | 'utf16le';
  /** The file starts with a byte order mark. */
  bom: boolean;
  /** The file's dominant line ending (`\r\n` when most of its line breaks are CRLF). */
  lineEnding: '\n' | '\r\n';
  /**
   * Every byte after the byte order mark is ASCII, so character and byte offsets are the same
   * (set by {@linkcode decodeText}; undefined: not known).
   */
  ascii?: boolean;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);

/** How many leading bytes are looked at for NUL bytes (git and ripgrep look at about as many). */
const BINARY_SNIFF_BYTES = 8192;

/**
 * Whether bytes look binary: a NUL byte near the start, unless a UTF-16 byte order mark
 * explains the NULs.
 *
 * @param bytes The file's bytes (or its first chunk).
 * @returns True for binary content.
 *
 * @example
 * ```ts
 * import { isBinary } from './_text_file.ts';
 *
 * isBinary(Buffer.from('a\0b')); // true
 * ```
 */
export function isBinary(bytes: Uint8Array): boolean {
  if (startsWith(bytes, UTF16LE_BOM)) return false;
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Decodes a text file's bytes, dropping a byte order mark, and tells its format.
 *
 * @param bytes The file's bytes.
 * @returns The text (line endings as they are) and its {@linkcode TextFormat}.
 *
 * @example
 * ```ts
 * import { decodeText } from './_text_file.ts';
 *
 * decodeText(Buffer.from('\uFEFFa\r\nb\r\n')).format; // { encoding: 'utf8', bom: true, lineEnding: '\r\n', ascii: true }
 * ```
 */
export function decodeText(bytes: Buffer): { text: string; format: TextFormat } {
  let encoding: TextFormat['encoding'] = 'utf8';
  let bom = false;
  let body = bytes;
  if (startsWith(bytes, UTF8_BOM)) {
    bom = true;
    body = bytes.subarray(3);
  } else if (startsWith(bytes, UTF16LE_BOM)) {
    bom = true;
    encoding = 'utf16le';
    body = bytes.subarray(2);
  }
  // ASCII is its own UTF-8: copied as Latin-1 (a third of the UTF-8 decoder's time on a 20 MB file).
  const ascii = encoding === 'utf8' && isAscii(body);
  const text = body.toString(ascii ? 'latin1' : encoding);
  return { text, format: { encoding, bom, lineEnding: dominantLineEnding(text), ascii } };
}

/**
 * Encodes text back into the layout it was read in (byte order mark and encoding; line endings
 * are the caller's, since edits keep them in the text itself).
 *
 * @param text The text.
 * @param format The format from {@linkcode decodeText}.
 * @returns The bytes to write.
 *
 * @example
 * ```ts
 * import { encodeText } from './_text_file.ts';
 *
 * encodeText('a', { encoding: 'utf8', bom: true }); // <Buffer ef bb bf 61>
 * ```
 */
export function encodeText(text: string, format: Pick<TextFormat, 'encoding' | 'bom'>): Buffer {
  const body = Buffer.from(text, format.encoding);
  if (!format.bom) return body;
  return Buffer.concat([format.encoding === 'utf8' ? UTF8_BOM : UTF16LE_BOM, body]);
}

/**
 * The line ending most of the text's line breaks use; `\n` for text without any.
 *
 * @param text The text.
 * @returns `\r\n` or `\n`.
 *
 * @example
 * ```ts
 * import { dominantLineEnding } from './_text_file.ts';
 *
 * dominantLineEnding('a\r\nb\r\nc\n'); // '\r\n'
 * ```
 */
export function dominantLineEnding(text: string): '\n' | '\r\n' {
  // Most files have no CR at all: one native scan says so.
  if (text.indexOf('\r') === -1) return '\n';
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/**
 * Splits text into lines the way `cat -n` counts them: on `\n`, a `\r` before it dropped, and
 * no empty last line for a final newline.
 *
 * @param text The text.
 * @returns The lines.
 *
 * @example
 * ```ts
 * import { splitLines } from './_text_file.ts';
 *
 * splitLines('a\r\nb\n'); // ['a', 'b']
 * ```
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/**
 * How many lines {@linkcode splitLines} would give, without making them (for a 20 MB file, the
 * difference between a count and a few hundred thousand strings).
 *
 * @param text The text.
 * @returns The number of lines.
 *
 * @example
 * ```ts
 * import { countLines } from './_text_file.ts';
 *
 * countLines('a\r\nb\n'); // 2
 * ```
 */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/**
 * A file's bytes, read with as few system calls as its size allows (`readFile` reads in 512 KB
 * pieces, each a trip through the thread pool: 40 for a 20 MB file). Reads to the end even when
 * the file grew after its size was taken.
 *
 * @param file The path.
 * @returns The bytes.
 * @throws {Error} What the file system reports (ENOENT, EISDIR, EACCES).
 *
 * @example
 * ```ts
 * import { readWholeFile } from './_text_file.ts';
 *
 * const bytes = await readWholeFile('/repo/a.ts');
 * ```
 */
export async function readWholeFile(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    // One byte more than the size: the first read ends at the end, the second finds nothing.
    let buffer = Buffer.allocUnsafeSlow(Math.max(size + 1, 8192));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length === buffer.length ? buffer : buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
