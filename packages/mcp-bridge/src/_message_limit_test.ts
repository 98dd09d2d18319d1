import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { boundedFetch, McpMessageTooLarge, messageLimitPassed } from './_message_limit.ts';

// A loopback server whose path says what to send: /sse/<events>x<bytes>[/crlf], /json/<bytes>, /length/<bytes>,
// /error/<bytes> (a 500), /sse-whole/<bytes> (one event in one write).
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    const [, kind, size, crlf] = req.url!.split('/');
    if (kind === 'sse-whole') {
      // One write: an event that begins and ends in one chunk.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${'e'.repeat(Number(size) - 8)}\n\n`);
    } else if (kind === 'sse') {
      const [events, bytes] = size!.split('x').map(Number) as [number, number];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const end = crlf ? '\r\n\r\n' : '\n\n';
      for (let i = 0; i < events; i++) {
        const event = `data: ${'e'.repeat(bytes - 6 - end.length)}${end}`;
        // The blank line split between two writes.
        res.write(event.slice(0, -1));
        await new Promise((resolve) => setTimeout(resolve, 1));
        res.write(event.slice(-1));
      }
      res.end();
    } else if (kind === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('e'.repeat(Number(size)));
    } else if (kind === 'length') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': size });
      res.end('x'.repeat(Number(size)));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('x'.repeat(Number(size)));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function limited(maxBytes: number) {
  const cut: McpMessageTooLarge[] = [];
  return { cut, fetch: boundedFetch((e) => cut.push(e), { maxBytes }) };
}

describe('boundedFetch', () => {
  test('passes a body within the limit untouched', async () => {
    const { cut, fetch } = limited(4096);
    const response = await fetch(`${base}/json/4096`);
    expect((await response.text()).length).toBe(4096);
    expect(response.url).toBe(`${base}/json/4096`);
    expect(cut).toEqual([]);
  });

  test('stops a body without a length at the limit', async () => {
    const { cut, fetch } = limited(4096);
    const response = await fetch(`${base}/json/100000`);
    await expect(response.text()).rejects.toThrow('the server sent a message of more than');
    expect(cut).toHaveLength(1);
  });

  test('stops an SSE event over the limit that arrives whole in one chunk', async () => {
    const { cut, fetch } = limited(4096);
    await expect((await fetch(`${base}/sse-whole/8192`)).text()).rejects.toBeInstanceOf(McpMessageTooLarge);
    expect(cut).toHaveLength(1);
    expect((await (await fetch(`${base}/sse-whole/4096`)).text()).length).toBe(4096);
  });

  test("bounds an error's body too, which the SDK reads for its message", async () => {
    const { cut, fetch } = limited(4096);
    const response = await fetch(`${base}/error/100000`);
    expect(response.status).toBe(500);
    await expect(response.text()).rejects.toBeInstanceOf(McpMessageTooLarge);
    expect(cut).toHaveLength(1);
  });

  test('refuses a Content-Length over the limit before reading', async () => {
    const { cut, fetch } = limited(4096);
    await expect(fetch(`${base}/length/5000`)).rejects.toBeInstanceOf(McpMessageTooLarge);
    expect(cut).toHaveLength(1);
  });

  test.each([
    ['\\n\\n', ''],
    ['\\r\\n\\r\\n', '/crlf'],
  ])('counts an SSE stream event by event (blank line %s, split between chunks)', async (_, crlf) => {
    const { cut, fetch } = limited(4096);
    // Twenty events of 1 KB: 20 KB in all, each well within the limit.
    const many = await fetch(`${base}/sse/20x1024${crlf}`);
    expect((await many.text()).length).toBe(20 * 1024);
    expect(cut).toEqual([]);
    const one = await fetch(`${base}/sse/1x8192${crlf}`);
    await expect(one.text()).rejects.toBeInstanceOf(McpMessageTooLarge);
    expect(cut).toHaveLength(1);
  });
});

describe('messageLimitPassed', () => {
  test("reads the limit from the bridge's error and the SDK's stdio one, also as a cause", () => {
    expect(messageLimitPassed(new McpMessageTooLarge(4096))).toBe(4096);
    expect(messageLimitPassed(new Error('ReadBuffer exceeded maximum size of 10485760 bytes'))).toBe(10485760);
    expect(messageLimitPassed(new TypeError('terminated', { cause: new McpMessageTooLarge(1024) }))).toBe(1024);
    expect(messageLimitPassed(new Error('fetch failed'))).toBeUndefined();
  });
});
