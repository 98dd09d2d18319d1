import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { searxngSearchBackend, WEB_SEARCH_SETUP_HINT, webTools } from './mod.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-web-family-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('webTools', () => {
  test('the web family passes the conformance check, with and without a search backend', async () => {
    const family = webTools({ search: false });
    expect(family.name).toBe('web');
    expect(await checkFamily(family)).toEqual([]);
    expect(await checkFamily(webTools({ search: searxngSearchBackend({ url: 'http://localhost:8888' }) }))).toEqual([]);
  });

  test('both tools are read-only and concurrency-safe; WebSearch is deferred by default and WebFetch is not', async () => {
    const tools = await webTools({ search: searxngSearchBackend({ url: 'http://localhost:8888' }) }).loadTools();
    const [fetchTool, searchTool] = tools;
    expect(tools.map((t) => t.name)).toEqual(['WebFetch', 'WebSearch']);
    for (const tool of tools) {
      expect(tool.isReadOnly({})).toBe(true);
      expect(tool.isConcurrencySafe({})).toBe(true);
      expect(tool.isDestructive({})).toBe(false);
      expect(tool.searchHint).toBeTruthy();
    }
    expect(fetchTool!.shouldDefer).toBe(false);
    expect(searchTool!.shouldDefer).toBe(true);
    expect((await webTools({ search: false, deferSearch: false }).loadTools())[1]!.shouldDefer).toBe(false);
  });

  test('without a search backend the session leaves WebSearch out and tells the user how to enable it', async () => {
    const session = await createSession({ cwd: dir, stateDir: dir, families: [webTools({ search: false })] });
    try {
      expect(session.catalog().map((e) => e.name)).toEqual(['WebFetch']);
      expect(session.notices()).toContainEqual({ level: 'info', message: WEB_SEARCH_SETUP_HINT });
      expect(WEB_SEARCH_SETUP_HINT).toContain('BRAVE_API_KEY');
      expect(WEB_SEARCH_SETUP_HINT).toContain('SEARXNG_URL');
      const [result] = await session.run([
        { type: 'tool_use', id: 'w1', name: 'WebSearch', input: { query: 'anything' } },
      ]);
      expect(result?.is_error).toBe(true);
      expect(contentToText(result!.content)).toContain('No such tool available: WebSearch');
    } finally {
      await session.close();
    }
  });

  test('a SEARXNG_URL that is no URL leaves WebSearch out with a warning naming the variable, and WebFetch still works', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [webTools({ env: { SEARXNG_URL: 'localhost:8888' } })],
    });
    try {
      expect(session.catalog().map((e) => e.name)).toEqual(['WebFetch']);
      expect(session.notices()).toEqual([
        {
          level: 'warn',
          message:
            'WebSearch is disabled: SEARXNG_URL "localhost:8888" is not an http or https URL: set it to the SearXNG instance\'s address, such as "http://localhost:8888".',
        },
      ]);
    } finally {
      await session.close();
    }
  });

  test('with a backend, WebSearch is in the pool and no notice is given', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [webTools({ search: searxngSearchBackend({ url: 'http://localhost:8888' }) })],
    });
    try {
      expect(session.catalog().map((e) => [e.name, e.family])).toEqual([
        ['WebFetch', 'web'],
        ['WebSearch', 'web'],
      ]);
      expect(session.notices()).toEqual([]);
    } finally {
      await session.close();
    }
  });

  test('a blanket deny rule removes WebFetch from the pool', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [webTools({ search: false })],
      permissions: { deny: ['WebFetch'] },
    });
    try {
      expect(session.catalog()).toEqual([]);
    } finally {
      await session.close();
    }
  });

  test('webTools rejects options out of range with the value given', () => {
    expect(() => webTools({ timeoutMs: -1 })).toThrow('timeoutMs must be a positive number, got -1');
    expect(() => webTools({ allowPrivateHosts: ['http://x/'] })).toThrow('is not a host pattern');
  });

  test('a session explains a WebFetch decision with the domain rule that decided it', async () => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [webTools({ search: false })],
      permissions: { allow: ['WebFetch(domain:example.com)'] },
    });
    try {
      const allowed = await session.explain('WebFetch', { url: 'https://docs.example.com/a', prompt: 'p' });
      expect(allowed).toMatchObject({ behavior: 'allow', rule: 'WebFetch(domain:example.com)' });
      const asked = await session.explain('WebFetch', { url: 'https://example.com.evil.test/', prompt: 'p' });
      expect(asked).toMatchObject({ behavior: 'ask', suggestions: ['WebFetch(domain:example.com.evil.test)'] });
      const preapproved = await session.explain('WebFetch', { url: 'https://docs.python.org/3/', prompt: 'p' });
      expect(preapproved).toMatchObject({ behavior: 'allow', source: 'tool' });
      const metadata = await session.explain('WebFetch', { url: 'http://169.254.169.254/latest/', prompt: 'p' });
      expect(metadata.behavior).toBe('deny');
    } finally {
      await session.close();
    }
  });
});
