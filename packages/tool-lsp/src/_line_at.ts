import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * Characters of a line {@linkcode lineAt} keeps: a location shows at most 200 of its trimmed text,
 * so this leaves room for any indentation before it.
 *
 * @example
 * ```ts
 * import { LINE_AT_MAX_CHARS } from './_line_at.ts';
 *
 * LINE_AT_MAX_CHARS; // 16384
 * ```
 */
export const LINE_AT_MAX_CHARS = 16_384;

/**
 * One line of a file, read as a stream up to its end: what it costs is the line (cut to
 * {@linkcode LINE_AT_MAX_CHARS}), not the file, which may be a generated bundle of gigabytes.
 *
 * @param file The file.
 * @param line The line, 1-based.
 * @returns Its text without the line break, or undefined past the end of the file.
 * @throws The read's error (a missing file, no permission).
 *
 * @example
 * ```ts
 * import { lineAt } from './_line_at.ts';
 *
 * await lineAt('/repo/dist/bundle.js', 120_000); // 'export function target() {}'
 * ```
 */
export async function lineAt(file: string, line: number): Promise<string | undefined> {
  let current = 1;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  // UTF-8 takes at most four bytes a character.
  const maxBytes = LINE_AT_MAX_CHARS * 4;
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let from = 0;
      while (current < line) {
        const nl = chunk.indexOf(0x0a, from);
        if (nl === -1) break;
        current++;
        from = nl + 1;
      }
      if (current < line) continue;
      const nl = chunk.indexOf(0x0a, from);
      const piece = chunk.subarray(from, nl === -1 ? chunk.length : nl);
      if (keptBytes < maxBytes) {
        const room = piece.subarray(0, maxBytes - keptBytes);
        kept.push(room);
        keptBytes += room.length;
      }
      if (nl !== -1) return text(kept);
    }
  } finally {
    stream.destroy();
  }
  return current === line ? text(kept) : undefined;
}

function text(kept: Buffer[]): string {
  const decoded = new StringDecoder('utf8').write(Buffer.concat(kept));
  const body = decoded.length > LINE_AT_MAX_CHARS ? decoded.slice(0, LINE_AT_MAX_CHARS) : decoded;
  return body.endsWith('\r') ? body.slice(0, -1) : body;
}
