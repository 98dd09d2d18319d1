import { ToolshedError } from '@toolshed/core';

/**
 * Turns what the HTTP client throws when a server breaks the protocol (closes mid-body, sends
 * headers past the client's limit, a body of another length than announced, bytes that are not
 * HTTP) into a message that names the URL and what the server did, instead of the client's own
 * code (`UND_ERR_SOCKET: other side closed`).
 *
 * @param error What was thrown.
 * @param context The URL being fetched and how many body bytes had arrived.
 * @returns The error for the model, or undefined when `error` is not one of these.
 *
 * @example
 * ```ts
 * import { describeTransportError } from './_transport_error.ts';
 *
 * describeTransportError({ code: 'UND_ERR_SOCKET' }, { url: 'https://example.com/', received: 0 })?.message;
 * // '"https://example.com/" closed the connection before the response was complete …'
 * ```
 */
export function describeTransportError(
  error: unknown,
  context: { url: string; received: number },
): ToolshedError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const at = `"${context.url}"`;
  const fail = (what: string, advice: string) =>
    new ToolshedError('web_fetch_http', `${at} ${what}; ${advice}`, { cause: error });
  switch (code) {
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'EPIPE':
      return fail(
        `closed the connection before the response was complete${context.received > 0 ? ` (after ${context.received} bytes of the body)` : ''}`,
        'the server may be failing: try again later.',
      );
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return fail(
        'sent a body of another length than its Content-Length header said',
        'the server is misbehaving: try again later or another URL.',
      );
    case 'UND_ERR_HEADERS_OVERFLOW':
      return fail(
        'sent response headers larger than WebFetch accepts, so no body was read',
        'the server is misbehaving: try another URL.',
      );
    default:
      if (code.startsWith('HPE_'))
        return fail(
          `sent a response that is not valid HTTP/1.1 (${code})`,
          'the server is misbehaving or is not a web server: try another URL.',
        );
      return undefined;
  }
}
