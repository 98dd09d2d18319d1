import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ToolshedError } from '@toolshed/core';

/** Content codings undone at most; servers apply one, rarely two. */
const MAX_CODINGS = 5;

/** What {@linkcode readBody} read. */
export interface BodyRead {
  data: Buffer;
  /** True when the body went past the cap and reading stopped there. */
  truncated: boolean;
}

/**
 * Reads a response body, decompressing gzip, deflate and br, and stops once `maxBytes` of
 * decompressed data have arrived: the rest is never read (the connection is torn down), so
 * neither a huge body nor a compression bomb is buffered past the cap.
 *
 * @param body The response body stream.
 * @param contentEncoding The `content-encoding` header, if any.
 * @param options `maxBytes`; `progress`, whose `received` counts decompressed bytes as they come; the `url` messages name.
 * @returns The bytes, at most `maxBytes`.
 * @throws {ToolshedError} `web_fetch_decode` for an unknown encoding, more than five codings, or a corrupt compressed body;
 *   the stream's error (an abort) otherwise.
 *
 * @example
 * ```ts
 * import type { IncomingMessage } from 'node:http';
 * import { readBody } from './_read_body.ts';
 * declare const response: IncomingMessage;
 *
 * const { data, truncated } = await readBody(response, response.headers['content-encoding'], { maxBytes: 1024, progress: { received: 0 }, url: 'https://example.com/' });
 * ```
 */
export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  options: { maxBytes: number; progress: { received: number }; url: string },
): Promise<BodyRead> {
  const codings = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c && c !== 'identity');
  if (codings.length > MAX_CODINGS) {
    body.on('error', () => {});
    body.destroy();
    // Each stage holds its own decoder state; a long list is a way to make memory follow the
    // header rather than the bytes kept.
    throw new ToolshedError(
      'web_fetch_decode',
      `"${options.url}" sent its content wrapped in ${codings.length} content codings (Content-Encoding: ${codings.slice(0, 3).join(', ')}, …); WebFetch undoes at most ${MAX_CODINGS}, and a real server applies one. The response was not read; try another URL.`,
    );
  }
  let stream: Readable = body;
  const stages: Readable[] = [body];
  // Codings are listed in the order they were applied; undo them last first.
  for (const coding of [...codings].reverse()) {
    const next = decoderFor(coding);
    if (!next) {
      body.on('error', () => {});
      body.destroy();
      throw new ToolshedError(
        'web_fetch_decode',
        `"${options.url}" sent its content encoded as "${coding}", which WebFetch cannot decode (it reads gzip, deflate and br); try another URL.`,
      );
    }
    stream.on('error', (e) => next.destroy(e));
    stream.pipe(next);
    stages.push(next);
    stream = next;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      if (size + buf.length > options.maxBytes) {
        chunks.push(buf.subarray(0, options.maxBytes - size));
        size = options.maxBytes;
        options.progress.received = size;
        truncated = true;
        break;
      }
      chunks.push(buf);
      size += buf.length;
      options.progress.received = size;
    }
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) {
      throw new ToolshedError(
        'web_fetch_decode',
        `"${options.url}" said its content is encoded as "${codings.join(', ')}" but the body does not decode (${code}); the server is misbehaving, try again later.`,
        { cause: e },
      );
    }
    throw e;
  } finally {
    for (const stage of stages) {
      // Tearing down a body that was not read to its end is the point here, not an error.
      stage.on('error', () => {});
      if (!stage.destroyed) stage.destroy();
    }
  }
  return { data: Buffer.concat(chunks, size), truncated };
}

function decoderFor(coding: string): (Readable & NodeJS.WritableStream) | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
