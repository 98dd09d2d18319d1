import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { braveSearchBackend } from './mod.ts';
import { startServer, type LoopbackServer } from './testdata/loopback_server.ts';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// Trimmed from the Brave Search API's WebSearchApiResponse: `web.results` of type `search_result`.
const BRAVE_RESPONSE = {
  type: 'search',
  query: { original: 'zod schema', more_results_available: true },
  mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }] },
  web: {
    type: 'search',
    family_friendly: true,
    results: [
      {
        type: 'search_result',
        subtype: 'generic',
        title: 'Zod | <strong>TypeScript</strong>-first schema validation',
        url: 'https://zod.dev/',
        description: 'TypeScript-first <strong>schema</strong> validation with static type inference &amp; more.',
        is_source_local: false,
        is_source_both: false,
        language: 'en',
        family_friendly: true,
        profile: {
          name: 'Zod',
          url: 'https://zod.dev/',
          long_name: 'zod.dev',
          img: 'https://imgs.search.brave.com/x.png',
        },
        meta_url: {
          scheme: 'https',
          netloc: 'zod.dev',
          hostname: 'zod.dev',
          favicon: 'https://imgs.search.brave.com/f.png',
          path: '',
        },
        extra_snippets: ['Zod is a TypeScript-first validation library.'],
      },
      {
        type: 'search_result',
        title: 'colinhacks/zod',
        url: 'https://github.com/colinhacks/zod',
        description: '',
        extra_snippets: ['TypeScript-first schema validation with static type inference'],
        meta_url: { hostname: 'github.com' },
      },
      { type: 'search_result', title: 'broken entry without a url' },
    ],
  },
};

describe('braveSearchBackend against a loopback server speaking the Brave Search API', () => {
  test('braveSearchBackend sends the key header and query parameters and reads web.results', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(BRAVE_RESPONSE)));
    });
    servers.push(server);
    const backend = braveSearchBackend({
      apiKey: 'test-key',
      endpoint: `${server.origin}/res/v1/web/search`,
      country: 'us',
    });
    const results = await backend.search({
      query: 'zod schema',
      allowedDomains: [],
      blockedDomains: [],
      maxResults: 5,
      signal: new AbortController().signal,
    });
    expect(results).toEqual([
      {
        title: 'Zod | TypeScript-first schema validation',
        url: 'https://zod.dev/',
        snippet: 'TypeScript-first schema validation with static type inference & more.',
      },
      {
        title: 'colinhacks/zod',
        url: 'https://github.com/colinhacks/zod',
        snippet: 'TypeScript-first schema validation with static type inference',
      },
    ]);
    const url = new URL(server.requests[0]!.slice('GET '.length), server.origin);
    expect(url.pathname).toBe('/res/v1/web/search');
    expect(url.searchParams.get('q')).toBe('zod schema');
    expect(url.searchParams.get('count')).toBe('5');
    expect(url.searchParams.get('country')).toBe('us');
    expect(server.headers[0]?.['x-subscription-token']).toBe('test-key');
    expect(server.headers[0]?.['accept']).toBe('application/json');
  });

  test('braveSearchBackend puts domain filters into the query as site operators', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'search', query: { original: 'x' } }));
    });
    servers.push(server);
    const backend = braveSearchBackend({ apiKey: 'k', endpoint: `${server.origin}/s` });
    const none = await backend.search({
      query: 'release notes',
      allowedDomains: ['nodejs.org', 'github.com'],
      blockedDomains: [],
      maxResults: 5,
      signal: new AbortController().signal,
    });
    expect(none).toEqual([]);
    const url = new URL(server.requests[0]!.slice('GET '.length), server.origin);
    expect(url.searchParams.get('q')).toBe('release notes (site:nodejs.org OR site:github.com)');
    expect(url.searchParams.get('count')).toBe('20');
  });

  test('braveSearchBackend explains a rejected key from Brave error response', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'ErrorResponse',
          error: {
            id: 'abc',
            status: 422,
            code: 'SUBSCRIPTION_TOKEN_INVALID',
            detail: 'The provided subscription token is invalid.',
          },
          time: 1,
        }),
      );
    });
    servers.push(server);
    const backend = braveSearchBackend({ apiKey: 'bad', endpoint: `${server.origin}/s` });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 5,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow(
      'Brave Search rejected the API key, HTTP 422 (SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.)',
    );
  });

  test('braveSearchBackend reports the rate limit', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'ErrorResponse',
          error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' },
        }),
      );
    });
    servers.push(server);
    const backend = braveSearchBackend({ apiKey: 'k', endpoint: `${server.origin}/s` });
    await expect(
      backend.search({
        query: 'x y',
        allowedDomains: [],
        blockedDomains: [],
        maxResults: 5,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('rate limit or monthly quota reached');
  });

  test('braveSearchBackend refuses to be built without a key', () => {
    expect(() => braveSearchBackend({ apiKey: ' ' })).toThrow(TypeError);
  });
});
