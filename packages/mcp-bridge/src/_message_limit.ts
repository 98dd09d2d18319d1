import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The most the bridge reads as one message from a server: the MCP SDK's own limit for stdio
 * (`STDIO_DEFAULT_MAX_BUFFER_SIZE`), applied to HTTP as well, where the SDK has none. A message
 * is parsed whole, so what it costs in memory is several times its size.
 *
 * @example
 * ```ts
 * import { MAX_MCP_MESSAGE_BYTES } from './_message_limit.ts';
 *
 * MAX_MCP_MESSAGE_BYTES / 2 ** 20; // 10 (MiB)
 * ```
 */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * A server's message was over the limit; reading stopped there.
 *
 * @example
 * ```ts
 * import { McpMessageTooLarge } from './_message_limit.ts';
 *
 * new McpMessageTooLarge(10 * 2 ** 20).message; // 'the server sent a message of more than 10 MB'
 * ```
 */
export class McpMessageTooLarge extends Error {
  /** @param maxBytes The limit that was passed. */
  constructor(readonly maxBytes: number) {
    super(`the server sent a message of more than ${maxBytes / 2 ** 20} MB`);
    this.name = 'McpMessageTooLarge';
  }
}

/**
 * The limit an error says was passed: {@linkcode McpMessageTooLarge}, or the SDK's stdio
 * `ReadBuffer exceeded maximum size of N bytes`, anywhere in its `cause` chain.
 *
 * @param e What a transport reported.
 * @returns The limit in bytes, or undefined for any other error.
 *
 * @example
 * ```ts
 * import { messageLimitPassed } from './_message_limit.ts';
 *
 * messageLimitPassed(new Error('ReadBuffer exceeded maximum size of 10485760 bytes')); // 10485760
 * ```
 */
export function messageLimitPassed(e: unknown): number | undefined {
  for (let cause = e, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof McpMessageTooLarge) return cause.maxBytes;
    const sdk = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(cause.message);
    if (sdk) return Number(sdk[1]);
  }
  return undefined;
}

/**
 * A fetch whose successful responses stop with {@linkcode McpMessageTooLarge} once one message
 * passes `maxBytes`: a JSON body as a whole (a `Content-Length` over it is refused before reading),
 * an SSE stream event by event (a long-lived stream may carry any number of small events). The
 * rest of the body is never read, so a server that answers with gigabytes costs the bridge at
 * most one message's worth (an error's body included). Redirects pass through untouched.
 *
 * @param onTooLarge Told when a response is cut (the connection drops the client, failing what
 *   was waiting on it).
 * @param options `maxBytes` (default {@linkcode MAX_MCP_MESSAGE_BYTES}) and the `fetch` to wrap.
 * @returns The bounded fetch.
 *
 * @example
 * ```ts
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * import { boundedFetch } from './_message_limit.ts';
 *
 * const fetch = boundedFetch((e) => console.error(e.message));
 * new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), { fetch });
 * ```
 */
export function boundedFetch(
  onTooLarge: (e: McpMessageTooLarge) => void,
  options: { maxBytes?: number; fetch?: FetchLike } = {},
): FetchLike {
  const maxBytes = options.maxBytes ?? MAX_MCP_MESSAGE_BYTES;
  const base = options.fetch ?? fetch;
  return async (url, init) => {
    const response = await base(url, init);
    // A redirect is followed or reported by the SDK without its body; an error's body is read
    // for its message, so it is bounded as well.
    if (!response.body || (response.status >= 300 && response.status < 400) || [204, 205].includes(response.status))
      return response;
    const sse = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    const tooLarge = () => {
      const e = new McpMessageTooLarge(maxBytes);
      onTooLarge(e);
      return e;
    };
    if (!sse && Number(response.headers.get('content-length')) > maxBytes) {
      void response.body.cancel().catch(() => {});
      throw tooLarge();
    }
    const count = sse ? eventCounter() : (chunk: Uint8Array) => chunk.length;
    let size = 0;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        size = sse ? count(value) : size + value.length;
        if (size > maxBytes) {
          void reader.cancel().catch(() => {});
          return controller.error(tooLarge());
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/**
 * Measures SSE events as chunks come: a blank line (`\n\n`, `\r\n\r\n` or `\r\r`) ends an event
 * and starts the count again. Each call returns the largest event the chunk ended or continued.
 */
function eventCounter(): (chunk: Uint8Array) => number {
  let size = 0;
  // The bytes just before the chunk, so that a blank line split between two chunks is seen.
  let last = 0;
  let beforeLast = 0;
  return (chunk) => {
    let start = 0;
    let largest = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte !== 0x0a && byte !== 0x0d) continue;
      const prev = i > 0 ? chunk[i - 1]! : last;
      const prev2 = i > 1 ? chunk[i - 2]! : i === 1 ? last : beforeLast;
      const blank =
        (byte === 0x0a && prev === 0x0a) ||
        (byte === 0x0a && prev === 0x0d && prev2 === 0x0a) ||
        (byte === 0x0d && prev === 0x0d);
      if (blank) {
        // An event that ended inside this chunk counts too: it may have been whole in it.
        largest = Math.max(largest, size + i + 1 - start);
        size = 0;
        start = i + 1;
      }
    }
    size += chunk.length - start;
    largest = Math.max(largest, size);
    beforeLast = chunk.length > 1 ? chunk[chunk.length - 2]! : last;
    last = chunk.length > 0 ? chunk[chunk.length - 1]! : last;
    return largest;
  };
}
