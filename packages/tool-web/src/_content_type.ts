const HTML_START = /^<!doctype html|^<html[\s>]|^<head[\s>]|^<body[\s>]/;

/** How WebFetch treats a response: converted, passed through, sniffed, or refused. */
export type ContentKind = 'html' | 'markdown' | 'json' | 'text' | 'unknown' | 'binary';

const TEXT_APPLICATION = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/xml',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'application/graphql',
  'application/x-ndjson',
  'application/rss+xml',
  'application/atom+xml',
]);

/**
 * What kind of content a `content-type` header announces. A missing or generic type
 * (`application/octet-stream` included, which servers send for anything) is `unknown` and is
 * sniffed from the bytes; images, audio, video, fonts, archives, PDFs and other binary types
 * are `binary` and refused before their body is read.
 *
 * @param contentType The header, parameters included.
 * @returns The kind.
 *
 * @example
 * ```ts
 * import { classifyContentType } from './_content_type.ts';
 *
 * classifyContentType('text/html; charset=utf-8'); // 'html'
 * classifyContentType('image/png');                // 'binary'
 * ```
 */
export function classifyContentType(contentType: string): ContentKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (!type || type === 'application/octet-stream' || type === 'binary/octet-stream') return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json') return 'json';
  if (type.startsWith('text/') || TEXT_APPLICATION.has(type) || type.endsWith('+xml')) return 'text';
  return 'binary';
}

/**
 * Guesses the kind of a body whose type was not announced: HTML by its opening tags, JSON by
 * parsing, text when it has no NUL byte and decodes as UTF-8, binary otherwise.
 *
 * @param body The first bytes, or all of them.
 * @returns `html`, `json`, `text` or `binary`.
 *
 * @example
 * ```ts
 * import { sniffContent } from './_content_type.ts';
 *
 * sniffContent(Buffer.from('<!doctype html><p>hi')); // 'html'
 * ```
 */
export function sniffContent(body: Buffer): Exclude<ContentKind, 'unknown' | 'markdown'> {
  const head = body.subarray(0, 4096);
  const bom = bomCharset(body);
  // UTF-16 text is full of NUL bytes; its byte order mark says it is text all the same.
  const utf16 = bom === 'utf-16le' || bom === 'utf-16be';
  if (!utf16 && head.includes(0)) return 'binary';
  const text = (utf16 ? new TextDecoder(bom).decode(head) : head.toString('utf8'))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (utf16) return HTML_START.test(text) ? 'html' : 'text';
  if (HTML_START.test(text)) return 'html';
  if (/^[{[]/.test(text)) {
    try {
      JSON.parse(body.toString('utf8'));
      return 'json';
    } catch {
      // Not JSON after all; plain text.
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < body.length ? trimPartialUtf8(head) : head);
    return 'text';
  } catch {
    return 'binary';
  }
}

/**
 * Decodes a body to text with the charset its byte order mark says, else the one the header
 * names, else the one an HTML `<meta>` names, else UTF-8.
 *
 * @param body The bytes.
 * @param how The `content-type` header (`contentType`), and whether to look for a `<meta charset>` (`isHtml`).
 * @returns The text.
 *
 * @example
 * ```ts
 * import { decodeText } from './_content_type.ts';
 *
 * decodeText(Buffer.from([0xe9]), { contentType: 'text/plain; charset=latin1', isHtml: false }); // 'é'
 * ```
 */
export function decodeText(body: Buffer, how: { contentType: string; isHtml: boolean }): string {
  const { contentType, isHtml } = how;
  // A byte order mark wins over the header and <meta>, as in browsers; TextDecoder itself only
  // drops the BOM of the encoding it was given, it does not switch to another.
  const bom = bomCharset(body);
  if (bom) return new TextDecoder(bom).decode(body);
  let label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (!label && isHtml) {
    const head = body.subarray(0, 2048).toString('latin1');
    label = /<meta[^>]+charset\s*=\s*["']?([^"'\s/>;]+)/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Drops an incomplete UTF-8 sequence at the end of a prefix so a fatal decode judges the rest. */
function trimPartialUtf8(buf: Buffer): Buffer {
  let end = buf.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const byte = buf[end - i]!;
    if ((byte & 0xc0) === 0xc0) return buf.subarray(0, end - i);
    if ((byte & 0x80) === 0) break;
  }
  return buf;
}

/** The encoding a byte order mark at the start of a body names, if it has one. */
function bomCharset(body: Buffer): 'utf-8' | 'utf-16le' | 'utf-16be' | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}
