import { afterEach, describe, expect, test } from 'vitest';
import { searxngSearchBackend } from './mod.ts';
import { startServer, type LoopbackServer } from './testdata/loopback_server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// The shape of SearXNG's `format=json` answer (searx/webapp.py), trimmed.
const SEARXNG_RESPONSE = {
  query: 'python asyncio gather',
  number_of_results: 0,
  results: [
    {
      url: 'https://docs.python.org/3/library/asyncio-task.html',
      title: 'Coroutines and Tasks — Python 3 documentation',
      content: 'asyncio.gather(*aws, return_exceptions=False) runs awaitable objects in the aws sequence concurrently.',
      engine: 'duckduckgo',
      parsed_url: ['https', 'docs.python.org', '/3/library/asyncio-task.html', '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'brave'],
      positions: [1, 2],
      score: 4.5,
      category: 'general',
    },
    {
      url: 'https://stackoverflow.com/q/1',
      title: 'asyncio.gather vs wait',
      content: '',
      engine: 'google',
      engines: ['google'],
      score: 1,
      category: 'general',
    },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ['asyncio gather exception'],
  unresponsive_engines: [['bing', 'timeout']],
};

describe('searxngSearchBackend against a loopback server speaking the SearXNG JSON API', () => {
  test('searxngSearchBackend asks /search with format=json under the instance path and reads results', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(SEARXNG_RESPONSE));
    });
    servers.push(server);
    const backend = searxngSearchBackend({ url: `${server.origin}/searxng`, categories: 'general', language: 'en' });
    const results = await backend.search({
      query: 'python asyncio gather',
      allowedDomains: [],
      blockedDomains: ['pinterest.com'],
      maxResults: 10,
      signal: new AbortController().signal,
    });
    expect(results).toEqual([
      {
        title: 'Coroutines and Tasks — Python 3 documentation',
        url: 'https://docs.python.org/3/library/asyncio-task.html',
        snippet:
          'asyncio.gather(*aws, return_exceptions=False) runs awaitable objects in the aws sequence concurrently.',
      },
      { title: 'asyncio.gather vs wait', url: 'https://stackoverflow.com/q/1', snippet: '' },
    ]);
    const url = new URL(server.requests[0]!.slice('GET '.length), server.origin);
    expect(url.pathname).toBe('/searxng/search');
    expect(url.searchParams.get('format')).toBe('json');
    expect(url.searchParams.get('q')).toBe('python asyncio gather -site:pinterest.com');
    expect(url.searchParams.get('categories')).toBe('general');
    expect(url.searchParams.get('language')).toBe('en');
  });

  test('searxngSearchBackend says how to enable JSON when the instance answers 403', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<h1>403 Forbidden</h1>');
    });
    servers.push(server);
    const backend = searxngSearchBackend({ url: server.origin });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 10,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('add "json" to search.formats in settings.yml');
  });

  test('searxngSearchBackend reports an answer that is not JSON', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html>search page</html>');
    });
    servers.push(server);
    const backend = searxngSearchBackend({ url: server.origin });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 10,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('did not answer with JSON');
  });

  test('searxngSearchBackend reports an instance that is down', async () => {
    const server = await startServer((_req, res) => res.end());
    const origin = server.origin;
    await server.close();
    const backend = searxngSearchBackend({ url: origin });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 10,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(`Could not reach SearXNG at ${origin}/search (ECONNREFUSED)`);
  });

  test("searxngSearchBackend gives up on an instance that never answers once its timeout passes, and stops on the caller's abort", async () => {
    const server = await startServer(() => {
      // Takes the request and never answers.
    });
    servers.push(server);
    const backend = searxngSearchBackend({ url: server.origin, timeoutMs: 200 });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 10,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(`SearXNG did not answer within 0.2 s (${server.origin}/search); try again later.`);
    const caller = new AbortController();
    const slow = searxngSearchBackend({ url: server.origin, timeoutMs: 60_000 });
    const pending = slow.search({
      query: 'x y',
      allowedDomains: [],
      blockedDomains: [],
      maxResults: 10,
      signal: caller.signal,
    });
    caller.abort(new Error('interrupted by the user'));
    await expect(pending).rejects.toThrow('interrupted by the user');
  });

  test('searxngSearchBackend refuses a URL that is not http(s)', () => {
    expect(() => searxngSearchBackend({ url: 'ftp://x' })).toThrow(TypeError);
    expect(() => searxngSearchBackend({ url: 'nope' })).toThrow('such as "http://localhost:8888"');
  });
});
