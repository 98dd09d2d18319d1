import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, type Session, type SessionEvent, type ToolUseBlock } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { McpConnection } from './_server_connection.ts';
import { BAD_START_SERVER, FAULT_SERVER } from './testdata/_helpers.ts';

let dir: string;
let session: Session;
const failureHooks: string[] = [];
const use = (
  name: string,
  input: unknown,
  id = `t_${name}_${Math.random().toString(36).slice(2, 8)}`,
): ToolUseBlock => ({ type: 'tool_use', id, name, input });
const text = async (block: ToolUseBlock) => {
  const [result] = await session.run([block]);
  return { text: contentToText(result!.content), isError: result!.is_error === true, content: result!.content };
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-bridge-faults-'));
  session = await createSession({
    cwd: dir,
    stateDir: path.join(dir, 'state'),
    permissions: { allow: ['mcp__fault'] },
    hooks: {
      PostToolUse: [{ matcher: 'mcp__fault__fail', hooks: [() => void failureHooks.push('PostToolUse')] }],
      PostToolUseFailure: [
        {
          matcher: 'mcp__fault__fail',
          hooks: [(input) => void failureHooks.push(`${input.tool_name}: ${input.error}`)],
        },
      ],
    },
    families: [
      mcpServers(
        {
          mcpServers: {
            fault: {
              command: process.execPath,
              args: [FAULT_SERVER],
              // Long enough for a 2 MB result on a loaded machine (it took over 400 ms with two test workers).
              timeout: 2000,
              env: { FAULT_MARKER: path.join(dir, 'cancelled.txt') },
            },
          },
        },
        { reconnectDelayMs: 50 },
      ),
    ],
  });
});

afterAll(async () => {
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a server of our own that misbehaves', () => {
  test('a server that crashes mid-call fails the call naming the server, and the next call restarts it', async () => {
    const before = await text(use('mcp__fault__pid', {}));
    const crash = await text(use('mcp__fault__crash', {}));
    expect(crash.isError).toBe(true);
    expect(crash.text).toContain('MCP server "fault" closed the connection while mcp__fault__crash was running');
    expect(crash.text).toContain('crashing on purpose');
    const after = await text(use('mcp__fault__pid', {}));
    expect(after.isError).toBe(false);
    expect(Number(after.text)).toBeGreaterThan(0);
    expect(after.text).not.toBe(before.text);
  });

  test('a call past the server timeout is cancelled with a message naming the server and the fix', async () => {
    const hang = await text(use('mcp__fault__hang', {}));
    expect(hang.isError).toBe(true);
    expect(hang.text).toContain('MCP server "fault" did not answer mcp__fault__hang within 2000 ms');
    expect(hang.text).toContain('raise "timeout"');
    expect((await text(use('mcp__fault__pid', {}))).isError).toBe(false);
  });

  test('aborting a run sends an MCP cancellation that the server receives', async () => {
    const controller = new AbortController();
    const events: SessionEvent[] = [];
    for await (const event of session.stream([use('mcp__fault__hang', {})], { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'tool_start') setTimeout(() => controller.abort(), 50);
    }
    const result = events.find((e): e is Extract<SessionEvent, { type: 'result' }> => e.type === 'result')!;
    expect(result.result.content).toContain('mcp__fault__hang was cancelled while it was running');
    let marker = '';
    for (let i = 0; i < 200 && !marker; i++) {
      marker = await readFile(path.join(dir, 'cancelled.txt'), 'utf8').catch(() => '');
      if (!marker) await new Promise((r) => setTimeout(r, 25));
    }
    expect(marker).toBe('cancelled by the client');
  });

  test('a changed tool list refreshes the pool', async () => {
    expect(session.catalog().some((e) => e.name === 'mcp__fault__added')).toBe(false);
    await text(use('mcp__fault__add_tool', {}));
    for (let i = 0; i < 200 && !session.catalog().some((e) => e.name === 'mcp__fault__added'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(session.toolsFor('anthropic').some((t) => t.name === 'mcp__fault__added')).toBe(true);
    expect((await text(use('mcp__fault__added', {}))).text).toBe('the added tool ran');
  });

  test('an isError result becomes an is_error result that keeps its lines and images, and runs PostToolUseFailure hooks', async () => {
    const fail = await text(use('mcp__fault__fail', {}));
    expect(fail.isError).toBe(true);
    expect(fail.content).toEqual([
      { type: 'text', text: 'first line of the failure\nsecond line with the detail' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBOR/) } },
    ]);
    expect(failureHooks).toEqual(['mcp__fault__fail: first line of the failure\nsecond line with the detail\n[image]']);
    expect(session.metrics().tools['mcp__fault__fail']).toMatchObject({ calls: 1, errors: 1 });
  });

  test('every content kind is mapped: image block, audio and resource notes, embedded text, resource link', async () => {
    const kinds = await text(use('mcp__fault__kinds', {}));
    const blocks = kinds.content as { type: string; text?: string }[];
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image', 'text', 'text', 'text']);
    expect(blocks[2]!.text).toMatch(/^\[audio of type audio\/wav, \d+ bytes: not shown to the model\]$/);
    expect(blocks[3]!.text).toBe('[resource file:///notes.txt (text/plain)]\nembedded notes');
    expect(blocks[4]!.text).toContain('[resource link] other.txt: file:///other.txt');
  });

  test('bad input is refused before the call with the validator naming each field', async () => {
    const extra = await text(use('mcp__fault__sleep', { ms: 1, extra: true }));
    expect(extra.text).toContain('unexpected parameter `extra`; remove it');
    const negative = await text(use('mcp__fault__sleep', { ms: -1 }));
    expect(negative.text).toContain('parameter `ms`: must be >= 0, got number -1');
    const notObject = await text(use('mcp__fault__sleep', 'ms=1'));
    expect(notObject.text).toContain('expected a JSON object of parameters, got string "ms=1"');
  });

  test('a huge result is saved whole by the result budget and the model gets a preview with the path', async () => {
    const [big] = await session.run([use('mcp__fault__big', { chars: 2_000_000 }, 'toolu_huge')]);
    expect(big!.is_error).toBeUndefined();
    const preview = contentToText(big!.content);
    expect(preview).toContain('Output too large: 2,000,000 characters');
    expect(preview.length).toBeLessThan(5000);
    const saved = path.join(dir, 'state', 'tool-results', 'toolu_huge.txt');
    expect(preview).toContain(saved);
    // Saved for Read: the one long line is folded every 2 000 characters (the preview says so).
    expect(preview).toContain('folded every 2,000 characters');
    expect((await readFile(saved, 'utf8')).replaceAll('\n', '')).toBe('x'.repeat(2_000_000));
  });

  test('read-only calls of one turn run in parallel: every call starts before the first result', async () => {
    const events: SessionEvent[] = [];
    const blocks = [0, 1, 2].map((i) => use('mcp__fault__sleep', { ms: 150 }, `p${i}`));
    for await (const event of session.stream(blocks)) events.push(event);
    const kinds = events.filter((e) => e.type === 'tool_start' || e.type === 'result').map((e) => e.type);
    expect(kinds).toEqual(['tool_start', 'tool_start', 'tool_start', 'result', 'result', 'result']);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
  });
});

describe('McpConnection', () => {
  const options = {
    cwd: os.tmpdir(),
    startTimeoutMs: 30_000,
    toolTimeoutMs: 5000,
    reconnectDelayMs: 10,
    maxReconnectDelayMs: 10,
    clientInfo: { name: 'test', version: '0' },
    onToolsChanged: () => {},
  };
  const ghostServer = { command: path.join(os.tmpdir(), 'no-such-mcp-server-binary') };
  const badStart = (mode: string, extra: string[] = []) => ({
    command: process.execPath,
    args: [BAD_START_SERVER, mode, ...extra],
    startTimeout: 500,
  });

  test('a server that cannot start is retried on the next call only after a backoff', async () => {
    const connection = new McpConnection('ghost', ghostServer, {
      ...options,
      reconnectDelayMs: 60_000,
      maxReconnectDelayMs: 60_000,
    });
    await connection.connect();
    expect(connection.state).toBe('failed');
    const signal = new AbortController().signal;
    await expect(
      connection.callTool('x', {}, { signal, onProgress: () => {}, toolName: 'mcp__ghost__x' }),
    ).rejects.toThrow(/MCP server "ghost" is not connected .*next reconnection attempt is in 60 s/);
    await connection.close();
    expect(connection.state).toBe('closed');
    await expect(connection.client()).rejects.toThrow('MCP server "ghost" is closed');
  });

  test('each failed reconnection doubles the wait before the next attempt, up to the longest wait', async () => {
    const ghost = (maxReconnectDelayMs: number) =>
      new McpConnection('ghost', ghostServer, { ...options, reconnectDelayMs: 700, maxReconnectDelayMs });
    const doubling = ghost(30_000);
    const capped = ghost(800);
    const call = (c: McpConnection) =>
      c
        .callTool('x', {}, { signal: new AbortController().signal, onProgress: () => {}, toolName: 'mcp__ghost__x' })
        .then(
          () => 'ok',
          (e: Error) => e.message,
        );
    await Promise.all([doubling.connect(), capped.connect()]);
    expect(await call(doubling)).toMatch(/next reconnection attempt is in 1 s/);
    await new Promise((r) => setTimeout(r, 750));
    // The wait is over: this call tries again, and that attempt fails too.
    expect(await call(doubling)).toMatch(/^MCP server "ghost" could not be reconnected: .*ENOENT/);
    expect(await call(capped)).toMatch(/^MCP server "ghost" could not be reconnected/);
    expect(await call(doubling)).toMatch(/next reconnection attempt is in 2 s/);
    expect(await call(capped)).toMatch(/next reconnection attempt is in 1 s/);
    await Promise.all([doubling.close(), capped.close()]);
  });

  test('a server that never answers initialize fails at its start timeout and its process is ended', async () => {
    const pidFile = path.join(dir, 'silent.pid');
    const connection = new McpConnection('mute', badStart('silent', [pidFile]), options);
    await connection.connect();
    expect(connection.state).toBe('failed');
    expect(connection.error).toBe('it did not finish starting within 500 ms');
    const pid = Number(await readFile(pidFile, 'utf8'));
    let alive = true;
    for (let i = 0; i < 200 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 25));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
    await connection.close();
  });

  test('a server that writes only garbage to stdout fails, and the error says stdout must carry only MCP', async () => {
    const connection = new McpConnection('chatty', badStart('garbage'), options);
    await connection.connect();
    expect(connection.state).toBe('failed');
    expect(connection.error).toMatch(
      /^it did not finish starting within 500 ms; it wrote lines to stdout that are not MCP messages \(.*garbage.*\): a stdio server must write only JSON-RPC to stdout and its logs to stderr$/,
    );
    await connection.close();
  });

  test('a server that logs a few non-MCP lines to stdout before serving still connects and works', async () => {
    const connection = new McpConnection(
      'noisy',
      { command: process.execPath, args: [BAD_START_SERVER, 'noisy'] },
      options,
    );
    await connection.connect();
    try {
      expect(connection.state).toBe('connected');
      const result = await connection.callTool(
        'pid',
        {},
        { signal: new AbortController().signal, onProgress: () => {}, toolName: 'mcp__noisy__pid' },
      );
      expect(Number((result.content![0] as { text: string }).text)).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
  });

  test('a server that exits at once is reported with its last words on stderr', async () => {
    const connection = new McpConnection('quitter', badStart('exit'), options);
    await connection.connect();
    expect(connection.state).toBe('failed');
    expect(connection.error).toBe(
      'its process exited before it finished the MCP handshake (its last words on stderr: "fatal: MISSING_TOKEN is not set")',
    );
    await connection.close();
  });
});
