import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession } from '@toolshed/core';
import {
  createWebSearchTool,
  searchBackendFromEnv,
  searxngSearchBackend,
  webTools,
  type SearchBackend,
  type SearchRequest,
} from './mod.ts';
import { startServer, type LoopbackServer } from './testdata/loopback_server.ts';

let dir: string;
const servers: LoopbackServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-web-search-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const RESULTS = [
  { url: 'https://docs.python.org/3/library/asyncio.html', title: 'asyncio [docs]', content: 'Asynchronous I/O.' },
  { url: 'https://www.pinterest.com/pin/1', title: 'Pinned', content: 'A pin.' },
  { url: 'https://python.org.evil.test/asyncio', title: 'Look-alike', content: 'Not python.org.' },
  { url: 'https://docs.python.org/3/library/asyncio.html', title: 'asyncio again', content: 'Duplicate.' },
  { url: 'javascript:alert(1)', title: 'Script', content: 'Not a web page.' },
  { url: 'https://realpython.com/async-io-python/', title: 'Async IO in Python', content: 'A walkthrough.' },
];

async function searxng(): Promise<LoopbackServer> {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ query: 'q', number_of_results: 0, results: RESULTS, answers: [], suggestions: [] }));
  });
  servers.push(server);
  return server;
}

async function search(backend: SearchBackend | false, input: Record<string, unknown>) {
  const session = await createSession({ cwd: dir, stateDir: dir, families: [webTools({ search: backend })] });
  try {
    const [result] = await session.run([{ type: 'tool_use', id: 's1', name: 'WebSearch', input }]);
    return { text: contentToText(result!.content), isError: result!.is_error === true };
  } finally {
    await session.close();
  }
}

describe('WebSearch through a session', () => {
  test('WebSearch returns a Markdown list of titles, links and snippets, without duplicates or non-web links', async () => {
    const server = await searxng();
    const { text, isError } = await search(searxngSearchBackend({ url: server.origin }), { query: 'python asyncio' });
    expect(isError).toBe(false);
    expect(text).toContain('Web search results for "python asyncio" from SearXNG:');
    expect(text).toContain(
      '1. [asyncio \\[docs\\]](https://docs.python.org/3/library/asyncio.html)\n   Asynchronous I/O.',
    );
    expect(text).toContain('[Async IO in Python](https://realpython.com/async-io-python/)');
    expect(text).not.toContain('asyncio again');
    expect(text).not.toContain('javascript:');
    expect(text).toContain('Cite the sources');
  });

  test('WebSearch keeps only allowed domains and their subdomains, never a look-alike', async () => {
    const server = await searxng();
    const { text } = await search(searxngSearchBackend({ url: server.origin }), {
      query: 'python asyncio',
      allowed_domains: ['python.org'],
    });
    expect(text).toContain('within python.org');
    expect(text).toContain('docs.python.org');
    expect(text).not.toContain('evil.test');
    expect(text).not.toContain('realpython.com');
    expect(text).not.toContain('pinterest');
    const asked = new URL(server.requests[0]!.slice(4), server.origin);
    expect(asked.searchParams.get('q')).toBe('python asyncio site:python.org');
  });

  test('WebSearch drops blocked domains, written as URLs or names', async () => {
    const server = await searxng();
    const { text } = await search(searxngSearchBackend({ url: server.origin }), {
      query: 'python asyncio',
      blocked_domains: ['https://pinterest.com/', 'realpython.com'],
    });
    expect(text).toContain('excluding pinterest.com, realpython.com:');
    expect(text).not.toContain('https://www.pinterest.com');
    expect(text).not.toContain('https://realpython.com');
    expect(text).toContain('docs.python.org');
  });

  test('WebSearch says so when filtering leaves no result', async () => {
    const server = await searxng();
    const { text, isError } = await search(searxngSearchBackend({ url: server.origin }), {
      query: 'python asyncio',
      allowed_domains: ['rust-lang.org'],
    });
    expect(isError).toBe(false);
    expect(text).toBe(
      'No results for "python asyncio" from SearXNG within rust-lang.org. Try other words or fewer domain filters.',
    );
  });

  test('WebSearch refuses allowed and blocked domains together, and a domain that is not one', async () => {
    const backend: SearchBackend = { name: 'Never', search: () => Promise.reject(new Error('must not be called')) };
    const both = await search(backend, { query: 'x y', allowed_domains: ['a.com'], blocked_domains: ['b.com'] });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('not both');
    const bad = await search(backend, { query: 'x y', allowed_domains: ['not a domain!'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('is not a domain');
  });

  test('WebSearch turns a failing backend into an error result with its message', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(403);
      res.end();
    });
    servers.push(server);
    const { text, isError } = await search(searxngSearchBackend({ url: server.origin }), { query: 'anything' });
    expect(isError).toBe(true);
    expect(text).toContain('refuses JSON output');
  });

  test('WebSearch passes the wanted count and the abort signal to its backend', async () => {
    const seen: SearchRequest[] = [];
    const backend: SearchBackend = {
      name: 'Recorder',
      async search(request) {
        seen.push(request);
        return Array.from({ length: 12 }, (_, i) => ({ title: `r${i}`, url: `https://example.com/${i}`, snippet: '' }));
      },
    };
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      tools: [createWebSearchTool({ search: backend, maxResults: 3 })],
    });
    try {
      const [result] = await session.run([
        { type: 'tool_use', id: 's1', name: 'WebSearch', input: { query: 'count me' } },
      ]);
      expect(contentToText(result!.content).match(/^\d+\. /gm)).toHaveLength(3);
    } finally {
      await session.close();
    }
    expect(seen[0]).toMatchObject({ query: 'count me', maxResults: 3, allowedDomains: [], blockedDomains: [] });
    expect(seen[0]!.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('WebSearch configuration', () => {
  test('searchBackendFromEnv picks Brave for a key, else SearXNG for a URL, else nothing', () => {
    expect(searchBackendFromEnv({ BRAVE_API_KEY: 'k', SEARXNG_URL: 'http://localhost:8888' })?.name).toBe(
      'Brave Search',
    );
    expect(searchBackendFromEnv({ BRAVE_SEARCH_API_KEY: 'k' })?.name).toBe('Brave Search');
    expect(searchBackendFromEnv({ SEARXNG_URL: 'http://localhost:8888' })?.name).toBe('SearXNG');
    expect(searchBackendFromEnv({ BRAVE_API_KEY: '  ' })).toBeUndefined();
    expect(searchBackendFromEnv({})).toBeUndefined();
    expect(() => searchBackendFromEnv({ SEARXNG_URL: 'localhost:8888' })).toThrow(
      'SEARXNG_URL "localhost:8888" is not an http or https URL',
    );
  });

  test('createWebSearchTool is disabled without a backend and enabled with one from the environment', () => {
    expect(createWebSearchTool({ env: {} }).isEnabled()).toBe(false);
    expect(createWebSearchTool({ search: false, env: { BRAVE_API_KEY: 'k' } }).isEnabled()).toBe(false);
    expect(createWebSearchTool({ env: { SEARXNG_URL: 'http://localhost:8888' } }).isEnabled()).toBe(true);
    // A malformed variable disables the tool; it does not throw out of isEnabled().
    expect(createWebSearchTool({ env: { SEARXNG_URL: 'ftp://x' } }).isEnabled()).toBe(false);
  });

  test('createWebSearchTool rejects a result count out of range', () => {
    expect(() => createWebSearchTool({ maxResults: 0 })).toThrow(RangeError);
  });
});
