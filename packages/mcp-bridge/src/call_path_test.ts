import { mkdtemp, rm } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { getEventListeners } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { buildTool, contentToText, createSession, type Session, type SessionEvent } from '@toolshed/core';
import { z } from 'zod';
import { mcpServers, type McpServersOptions } from './mod.ts';
import { EVERYTHING, FAULT_SERVER, freePort, startProcess, stopProcess } from './testdata/_helpers.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-call-path-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const use = (name: string, input: unknown, id = `t_${name}`) => ({ type: 'tool_use' as const, id, name, input });

async function faultSession(options: McpServersOptions = {}): Promise<Session> {
  return await createSession({
    cwd: dir,
    homeDir: dir,
    permissions: { allow: ['mcp__fault'] },
    families: [
      mcpServers(
        { mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER], env: { FAULT_EXTRA_TOOLS: '1' } } } },
        { homeDir: dir, ...options },
      ),
    ],
  });
}

describe('what one call costs', () => {
  test('a call sends one message and gets one back: the request with its progress token, and no ping, list or other request', async () => {
    const session = await faultSession();
    const sent = vi.spyOn(StdioClientTransport.prototype, 'send');
    const read = vi.spyOn(ReadBuffer.prototype, 'readMessage');
    try {
      await session.run([use('mcp__fault__pid', {}, 'warm')]);
      sent.mockClear();
      read.mockClear();
      const [result] = await session.run([use('mcp__fault__pid', {})]);
      expect(result!.is_error).toBeUndefined();
      const messages = sent.mock.calls.map(([message]) => message as { method?: string; params?: { _meta?: object } });
      expect(messages.map((m) => m.method)).toEqual(['tools/call']);
      expect(messages[0]!.params?._meta).toEqual({ progressToken: expect.any(Number) });
      expect(read.mock.results.filter((r) => r.value !== null)).toHaveLength(1);
    } finally {
      sent.mockRestore();
      read.mockRestore();
      await session.close();
    }
  });

  test('a call in a turn that follows no signal gives the SDK none; one in a turn that follows a signal gives it one that aborts with it', async () => {
    const session = await faultSession();
    const calls = vi.spyOn(Client.prototype, 'callTool');
    try {
      await session.run([use('mcp__fault__pid', {}, 'plain')]);
      const controller = new AbortController();
      await session.run([use('mcp__fault__pid', {}, 'signalled')], { signal: controller.signal });
      const [plain, signalled] = calls.mock.calls.map(([, , options]) => options?.signal);
      expect(plain).toBeUndefined();
      expect(signalled?.aborted).toBe(false);
      const running = session.run([use('mcp__fault__hang', {}, 'hang')], { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      expect(contentToText((await running)[0]!.content)).toContain('was cancelled while it was running');
      expect(calls.mock.calls[2]![2]?.signal?.aborted).toBe(true);
    } finally {
      calls.mockRestore();
      await session.close();
    }
  });

  test("calls leave at most one abort listener on the signal their turns give the tools, however many ran (the SDK keeps its own on a signal of the request's)", async () => {
    let turnSignal: AbortSignal | undefined;
    const probe = buildTool({
      name: 'Probe',
      description: 'Keeps the signal of the turn it runs in.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      async call(_input, _ctx, { signal }) {
        turnSignal = signal;
        return { data: '' };
      },
    });
    const session = await createSession({
      cwd: dir,
      homeDir: dir,
      tools: [probe],
      permissions: { allow: ['mcp__fault', 'Probe'] },
      families: [
        mcpServers({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } }, { homeDir: dir }),
      ],
    });
    try {
      for (const turn of ['1', '2']) {
        const results = await session.run([
          use('mcp__fault__pid', {}, `a${turn}`),
          use('mcp__fault__pid', {}, `b${turn}`),
          use('mcp__fault__pid', {}, `c${turn}`),
          use('Probe', {}, `p${turn}`),
        ]);
        expect(results.filter((r) => r.is_error)).toEqual([]);
      }
      expect(getEventListeners(turnSignal!, 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      await session.close();
    }
  });
});

describe('structuredContent against the outputSchema', () => {
  test('a result that matches is used; one that does not is an error result naming each field; a missing one is an error too', async () => {
    const session = await faultSession();
    try {
      const [ok, wrong, missing] = await session.run([
        use('mcp__fault__structured', { value: { count: 3, name: 'three' } }, 'ok'),
        use('mcp__fault__structured', { value: { count: 'three', name: 7 } }, 'wrong'),
        use('mcp__fault__structured', {}, 'missing'),
      ]);
      expect(ok!.is_error).toBeFalsy();
      expect(ok!.content).toBe('{"count":3,"name":"three"}');
      expect(wrong!.is_error).toBe(true);
      expect(wrong!.content).toBe(
        'The result of tool "structured" of MCP server "fault" does not match the tool\'s outputSchema: structuredContent.count must be integer (got string "three"); structuredContent.name must be string (got number 7). The server broke its own contract, so its result is not used.',
      );
      expect(missing!.is_error).toBe(true);
      expect(missing!.content).toContain('has no structuredContent, though the tool declares an outputSchema');
      const [required] = await session.run([use('mcp__fault__structured', { value: { name: 'x' } })]);
      expect(required!.content).toContain('structuredContent.count is required (missing)');
    } finally {
      await session.close();
    }
  });
});

describe('timeouts and progress', () => {
  test("progress notifications restart a call's timeout: a call three times as long as its timeout finishes while it reports progress", async () => {
    const session = await faultSession({ toolTimeoutMs: 1000 });
    try {
      const events: SessionEvent[] = [];
      for await (const e of session.stream([use('mcp__fault__tick', { ms: 3000, every: 100 })])) events.push(e);
      const result = events.find((e) => e.type === 'result');
      expect(result?.type === 'result' ? result.result.content : undefined).toBe('ticked for 3000 ms');
      expect(events.filter((e) => e.type === 'progress').length).toBeGreaterThan(5);
    } finally {
      await session.close();
    }
  });

  test('a call that keeps reporting progress is still cancelled at the hard maximum, with a message saying which limit to raise', async () => {
    const session = await faultSession({ toolTimeoutMs: 1000, maxToolTimeoutMs: 2000 });
    try {
      const [result] = await session.run([use('mcp__fault__tick', { ms: 8000, every: 100 })]);
      expect(result!.is_error).toBe(true);
      expect(result!.content).toContain(
        'MCP server "fault" kept reporting progress on mcp__fault__tick but did not finish within the hard limit of 2000 ms, so the call was cancelled. If the tool needs longer, raise "maxToolTimeoutMs" of mcpServers().',
      );
    } finally {
      await session.close();
    }
  });
});

describe('an HTTP server that dies mid-call', () => {
  let server: ChildProcess | undefined;
  afterAll(async () => {
    await stopProcess(server);
  });

  test('the call fails as soon as the transport gives up, with its reason, not after the call timeout as "did not answer"', async () => {
    const port = await freePort();
    server = await startProcess(EVERYTHING, ['streamableHttp'], {
      env: { PORT: String(port) },
      ready: /listening on port/i,
    });
    const session = await createSession({
      cwd: dir,
      permissions: { allow: ['mcp__remote'] },
      families: [
        mcpServers(
          { mcpServers: { remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } } },
          { homeDir: dir, toolTimeoutMs: 120_000 },
        ),
      ],
    });
    try {
      expect(session.notices().filter((n) => n.level === 'error')).toEqual([]);
      const events: SessionEvent[] = [];
      for await (const e of session.stream([
        use('mcp__remote__trigger-long-running-operation', { duration: 60, steps: 60 }),
      ])) {
        events.push(e);
        // The server is killed once the call is under way.
        if (e.type === 'progress' && server) {
          server.kill('SIGKILL');
          server = undefined;
        }
      }
      const result = events.find((e) => e.type === 'result');
      const block = result?.type === 'result' ? result.result : undefined;
      expect(block?.is_error).toBe(true);
      expect(String(block?.content)).toMatch(
        /^mcp__remote__trigger-long-running-operation failed: MCP server "remote" went away while mcp__remote__trigger-long-running-operation was running \(.+; it no longer answers \(.+\)\), so the outcome is unknown\. It is reconnected on the next call\.$/,
      );
      expect(String(block?.content)).not.toContain('did not answer');
    } finally {
      await session.close();
    }
  }, 60_000);
});
