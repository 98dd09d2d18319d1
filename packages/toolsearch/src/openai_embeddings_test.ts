import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { embeddingRanker } from './embedding_ranker.ts';
import { hybridRanker } from './hybrid_ranker.ts';
import { lexicalRanker } from './lexical_ranker.ts';
import { openAiEmbeddings } from './openai_embeddings.ts';
import { createToolIndex } from './tool_index.ts';

// A loopback stand-in for an OpenAI-compatible endpoint. Its "model" knows a few synonyms:
// each text becomes counts of concepts, so "post a note" lands near "send a message".
const CONCEPTS: [string, RegExp][] = [
  ['message', /\b(message|note|post|send|chat)\w*/g],
  ['weather', /\b(weather|forecast|rain|temperature)\w*/g],
  ['file', /\b(file|document|disk)\w*/g],
  ['money', /\b(price|stock|invoice|pay)\w*/g],
];
function fakeVector(text: string): number[] {
  return CONCEPTS.map(([, re]) => (text.toLowerCase().match(re) ?? []).length + 0.01);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

async function fakeEndpoint(
  answer?: (
    body: { model: string; input: string[] },
    req: IncomingMessage,
  ) => { status: number; body: string } | undefined,
) {
  const requests: {
    url: string;
    auth: string | undefined;
    body: { model: string; input: string[]; dimensions?: number };
  }[] = [];
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { model: string; input: string[] };
    requests.push({ url: req.url ?? '', auth: req.headers['authorization'], body });
    const custom = answer?.(body, req);
    if (custom) {
      res.writeHead(custom.status, { 'content-type': 'application/json' }).end(custom.body);
      return;
    }
    // Out of order on purpose: a client must read `index`.
    const data = body.input
      .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }))
      .reverse();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

const tools = [
  { name: 'send_message', description: 'Sends a chat message to a channel.' },
  { name: 'weather_now', description: 'Current weather and forecast for a city.' },
  { name: 'read_file', description: 'Reads a file from disk.' },
  { name: 'stock_price', description: 'Price of a stock ticker.' },
];

test('openAiEmbeddings posts { model, input } to <baseUrl>/embeddings with the key, and reads the vectors in index order', async () => {
  const { baseUrl, requests } = await fakeEndpoint();
  const embed = openAiEmbeddings({ baseUrl: `${baseUrl}/`, model: 'tiny-embed', apiKey: 'sk-test', dimensions: 4 });
  const vectors = await embed(['post a note', 'rain tomorrow']);
  expect(vectors).toEqual([fakeVector('post a note'), fakeVector('rain tomorrow')]);
  expect(requests).toEqual([
    {
      url: '/v1/embeddings',
      auth: 'Bearer sk-test',
      body: { model: 'tiny-embed', input: ['post a note', 'rain tomorrow'], dimensions: 4 },
    },
  ]);
  expect(await embed([])).toEqual([]);
  expect(requests).toHaveLength(1);
});

test('a hybrid of the lexical ranker and the endpoint finds a tool that shares no word with the query', async () => {
  const { baseUrl } = await fakeEndpoint();
  const embed = openAiEmbeddings({ baseUrl, model: 'tiny-embed' });
  // "jot down a note": no word of send_message's name or description, nor a verb that names its operation ("post" would: it is one of the ranker's verbs for send).
  expect(
    createToolIndex(tools)
      .search('jot down a note')
      .map((h) => h.name),
  ).not.toContain('send_message');
  const hybrid = createToolIndex(tools, { ranker: hybridRanker([lexicalRanker(), embeddingRanker({ embed })]) });
  expect((await hybrid.search('jot down a note', { maxResults: 1 }))[0]?.name).toBe('send_message');
  // Exact words still win where they exist.
  expect((await hybrid.search('stock price', { maxResults: 1 }))[0]?.name).toBe('stock_price');
});

test('openAiEmbeddings says what went wrong: a refused key, a wrong count, no vector, a dead endpoint, a bad URL', async () => {
  const { baseUrl } = await fakeEndpoint((body) => {
    if (body.model === 'refused') return { status: 401, body: '{"error":{"message":"Incorrect API key"}}' };
    if (body.model === 'short') return { status: 200, body: JSON.stringify({ data: [] }) };
    if (body.model === 'base64')
      return { status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: 'AAAA' }] }) };
    if (body.model === 'html') return { status: 200, body: '<html>' };
    return undefined;
  });
  await expect(openAiEmbeddings({ baseUrl, model: 'refused' })(['x'])).rejects.toThrow(
    /answered 401: .*Incorrect API key.*check apiKey/,
  );
  await expect(openAiEmbeddings({ baseUrl, model: 'short' })(['x'])).rejects.toThrow(/returned 0 vectors for 1 texts/);
  await expect(openAiEmbeddings({ baseUrl, model: 'base64' })(['x'])).rejects.toThrow(/without a numeric "embedding"/);
  await expect(openAiEmbeddings({ baseUrl, model: 'html' })(['x'])).rejects.toThrow(/not JSON: <html>/);
  const closed = await fakeEndpoint();
  await new Promise((resolve) => servers.pop()!.close(resolve));
  await expect(openAiEmbeddings({ baseUrl: closed.baseUrl, model: 'm' })(['x'])).rejects.toThrow(
    /could not be reached/,
  );
  expect(() => openAiEmbeddings({ baseUrl: 'api.openai.com/v1', model: 'm' })).toThrow(/http\(s\) URL such as/);
  expect(() => openAiEmbeddings({ baseUrl: 'file:///tmp', model: 'm' })).toThrow(/got "file:"/);
  expect(() => openAiEmbeddings({ baseUrl, model: '' })).toThrow(/name of an embedding model/);
});

test('an index whose endpoint failed once searches again on the next call', async () => {
  let fail = true;
  const { baseUrl } = await fakeEndpoint(() => (fail ? { status: 503, body: 'busy' } : undefined));
  const index = createToolIndex(tools, {
    ranker: embeddingRanker({ embed: openAiEmbeddings({ baseUrl, model: 'm' }) }),
  });
  await expect(index.search('post a note')).rejects.toThrow(/answered 503: busy/);
  fail = false;
  expect((await index.search('post a note', { maxResults: 1 }))[0]?.name).toBe('send_message');
});
