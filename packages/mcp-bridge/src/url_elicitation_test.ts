import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  askUserKey,
  contentToText,
  createSession,
  type AskUser,
  type AskUserRequest,
  type Session,
} from '@toolshed/core';
import { mcpServers } from './mod.ts';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'url_elicit_server.mjs');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-url-elicit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function session(askUser?: AskUser): Promise<Session> {
  return await createSession({
    cwd: dir,
    homeDir: dir,
    permissions: { allow: ['mcp__url'] },
    families: [mcpServers({ mcpServers: { url: { command: process.execPath, args: [SERVER] } } }, { homeDir: dir })],
    ...(askUser ? { services: [[askUserKey, askUser]] } : {}),
  });
}

const call = async (s: Session, tool: string) => {
  const [result] = await s.run([{ type: 'tool_use', id: tool, name: `mcp__url__${tool}`, input: {} }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
};

describe('URL-mode elicitation (2025-11-25)', () => {
  test('is declared; the page is shown to askUser with its full URL and site, and the answer goes back', async () => {
    const asked: AskUserRequest[] = [];
    const s = await session({ ask: async (r) => (asked.push(r), { action: 'accept' }) });
    try {
      expect((await call(s, 'url_capable')).text).toBe('true');
      expect((await call(s, 'pay')).text).toBe('user: accept');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ source: 'MCP server "url"', url: 'https://pay.example.com/checkout/42' });
      expect(asked[0]!.message).toBe(
        'Pay for the order\nIt asks you to open this page (site pay.example.com):\n  https://pay.example.com/checkout/42\nOpen it?',
      );
      expect(asked[0]!.schema).toBeUndefined();
      // The server's notifications/elicitation/complete becomes a notice.
      for (let i = 0; i < 40 && !s.notices().some((n) => n.message.includes('is complete')); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(s.notices().map((n) => n.message)).toContain(
        'MCP server "url": the interaction at https://pay.example.com/checkout/42 is complete.',
      );
    } finally {
      await s.close();
    }
  });

  test('a decline goes back as decline; without askUser, or for a URL that is not http(s), it is declined with a notice', async () => {
    const declining = await session({ ask: async () => ({ action: 'decline' }) });
    try {
      expect((await call(declining, 'pay')).text).toBe('user: decline');
    } finally {
      await declining.close();
    }
    const asked: AskUserRequest[] = [];
    const s = await session({ ask: async (r) => (asked.push(r), { action: 'accept' }) });
    try {
      expect((await call(s, 'bad_url')).text).toBe('user: decline');
      expect(asked).toEqual([]);
      expect(s.notices().map((n) => n.message)).toContain(
        'MCP server "url" asked the user to open "javascript:alert(1)", which is not an http(s) URL, so it was declined.',
      );
    } finally {
      await s.close();
    }
    const nobody = await session();
    try {
      expect((await call(nobody, 'pay')).text).toBe('user: decline');
      expect(nobody.notices().some((n) => n.message.includes('but this session has no askUser service'))).toBe(true);
    } finally {
      await nobody.close();
    }
  });

  test('a call refused with -32042 shows the page to the user and fails saying what the user answered', async () => {
    const asked: AskUserRequest[] = [];
    const s = await session({ ask: async (r) => (asked.push(r), { action: 'accept' }) });
    try {
      const result = await call(s, 'needs_page');
      expect(result.isError).toBe(true);
      expect(result.text).toContain(
        'MCP server "url" needs the user to finish an interaction in the browser before mcp__url__needs_page can run: https://tracker.example.com/login (the user accepted to open it). Call mcp__url__needs_page again once the user says they are done.',
      );
      expect(asked[0]!.url).toBe('https://tracker.example.com/login');
      expect(asked[0]!.message).toContain('Sign in to the tracker first');
    } finally {
      await s.close();
    }
  });
});
