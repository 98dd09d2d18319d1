import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  buildTool,
  contentToText,
  createSession,
  type Session,
  type SessionEvent,
  type ToolUseBlock,
} from '@toolshed/core';
import { createPermissionContext } from '@toolshed/core/internal';
import { checkFamily } from '@toolshed/core/testing';
import { listMcpServers, mcpServers } from './mod.ts';
import {
  BAD_START_SERVER,
  EVERYTHING,
  FAULT_SERVER,
  FILESYSTEM,
  freePort,
  startProcess,
  stopProcess,
} from './testdata/_helpers.ts';

// The npm servers take a moment to start, so each transport's session is made once and shared.
let dir: string;
let stdio: Session;
let http: Session;
let httpServer: ChildProcess | undefined;
let httpPort: number;

const use = (name: string, input: unknown, id = `t_${name}`): ToolUseBlock => ({ type: 'tool_use', id, name, input });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-bridge-family-'));
  await writeFile(path.join(dir, 'hello.txt'), 'hello from disk\n');
  httpPort = await freePort();
  httpServer = await startProcess(EVERYTHING, ['streamableHttp'], {
    env: { PORT: String(httpPort) },
    ready: /listening on port/i,
  });
  const echoBuiltIn = buildTool({
    name: 'mcp__everything__get-env',
    description: 'A built-in tool that happens to take an MCP name.',
    inputSchema: z.looseObject({}),
    inputJSONSchema: { type: 'object' },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call() {
      return { data: 'built-in wins' };
    },
  });
  [stdio, http] = await Promise.all([
    createSession({
      cwd: dir,
      stateDir: path.join(dir, 'state-stdio'),
      tools: [echoBuiltIn],
      maxResultSizeChars: 3000,
      permissions: { allow: ['mcp__fs__write_file'], deny: ['mcp__everything__toggle-simulated-logging'] },
      families: [
        mcpServers({
          mcpServers: {
            everything: { command: EVERYTHING, args: ['${EVERYTHING_TRANSPORT:-stdio}'], trust: 'readOnlyHint' },
            fs: { command: FILESYSTEM, args: [dir], trust: 'readOnlyHint' },
            broken: { command: path.join(dir, 'no-such-server') },
          },
        }),
      ],
    }),
    createSession({
      cwd: dir,
      stateDir: path.join(dir, 'state-http'),
      families: [
        mcpServers(
          {
            mcpServers: {
              remote: { type: 'http', url: 'http://127.0.0.1:${MCP_TEST_PORT}/mcp', trust: 'readOnlyHint' },
            },
          },
          { env: { MCP_TEST_PORT: String(httpPort) }, reconnectDelayMs: 50, maxReconnectDelayMs: 50 },
        ),
      ],
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await stopProcess(httpServer);
  await rm(dir, { recursive: true, force: true });
});

describe('mcpServers over stdio (server-everything, server-filesystem)', () => {
  test('each server tool joins the pool as mcp__<server>__<tool> with the server schema kept as is', () => {
    const names = stdio.catalog().map((e) => e.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).toContain('mcp__everything__trigger-long-running-operation');
    expect(names).toContain('mcp__fs__read_text_file');
    const echo = stdio.toolsFor('anthropic').find((t) => t.name === 'mcp__everything__echo')!;
    expect(echo.input_schema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    expect(echo.input_schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(stdio.catalog().find((e) => e.name === 'mcp__everything__echo')?.isMcp).toBe(true);
  });

  test('annotations become flags: readOnlyHint read-only and concurrency-safe, destructiveHint destructive', () => {
    const tool = (name: string) => stdio.catalog().find((e) => e.name === name)!.tool!;
    expect(tool('mcp__everything__echo').isReadOnly({})).toBe(true);
    expect(tool('mcp__everything__echo').isConcurrencySafe({})).toBe(true);
    expect(tool('mcp__fs__write_file').isReadOnly({})).toBe(false);
    expect(tool('mcp__fs__write_file').isConcurrencySafe({})).toBe(false);
    expect(tool('mcp__fs__write_file').isDestructive({})).toBe(true);
    expect(tool('mcp__everything__echo').isDestructive({})).toBe(false);
  });

  test('a server that fails to start is reported as a notice and the others still work', async () => {
    expect(
      stdio.notices().some((n) => n.level === 'error' && n.message.includes('MCP server "broken" failed to start')),
    ).toBe(true);
    const [result] = await stdio.run([use('mcp__everything__echo', { message: 'still here' })]);
    expect(result!.is_error).toBeUndefined();
    expect(contentToText(result!.content)).toContain('still here');
  });

  test('a deny rule naming a tool removes it, and a built-in tool wins a name clash with a warning', async () => {
    expect(stdio.catalog().some((e) => e.name === 'mcp__everything__toggle-simulated-logging')).toBe(false);
    const clash = stdio.catalog().find((e) => e.name === 'mcp__everything__get-env')!;
    expect(clash.isMcp).toBe(false);
    expect(
      stdio
        .notices()
        .some(
          (n) =>
            n.level === 'warn' && n.message.includes('"mcp__everything__get-env"') && n.message.includes('built-in'),
        ),
    ).toBe(true);
    const [result] = await stdio.run([use('mcp__everything__get-env', {})]);
    expect(result!.content).toBe('built-in wins');
  });

  test('input is checked against the JSON Schema before the call, in the words of built-in tools', async () => {
    const [missing, wrongType] = await stdio.run([
      use('mcp__everything__echo', {}, 'a'),
      use('mcp__everything__get-sum', { a: 'one', b: 2 }, 'b'),
    ]);
    expect(missing!.is_error).toBe(true);
    expect(missing!.content).toContain('Invalid input for tool "mcp__everything__echo"');
    expect(missing!.content).toContain('required parameter `message` is missing (expected string)');
    expect(wrongType!.content).toContain('parameter `a` should be a number, got string "one"');
    const [enumBad] = await stdio.run([use('mcp__everything__get-structured-content', { location: 'Paris' })]);
    expect(enumBad!.content).toContain(
      'parameter `location` must be one of "New York", "Chicago", "Los Angeles", got string "Paris"',
    );
  });

  test('text, images, structured content, embedded resources and resource links are mapped', async () => {
    const [image, structured, reference, links] = await stdio.run([
      use('mcp__everything__get-tiny-image', {}, 'img'),
      use('mcp__everything__get-structured-content', { location: 'Chicago' }, 'sc'),
      use('mcp__everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 }, 'ref'),
      use('mcp__everything__get-resource-links', { count: 2 }, 'links'),
    ]);
    expect(Array.isArray(image!.content)).toBe(true);
    const blocks = image!.content as { type: string; source?: { media_type: string } }[];
    expect(blocks.some((b) => b.type === 'image' && b.source?.media_type === 'image/png')).toBe(true);
    expect(JSON.parse(structured!.content as string)).toMatchObject({
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
    expect(reference!.content).toMatch(/\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]/);
    expect(links!.content).toContain('[resource link]');
    expect(links!.content).toContain('ReadMcpResource {"server": "everything"');
  });

  test('progress notifications of the long-running operation become progress events', async () => {
    const events: SessionEvent[] = [];
    for await (const event of stdio.stream([
      use('mcp__everything__trigger-long-running-operation', { duration: 0.3, steps: 3 }),
    ]))
      events.push(event);
    const progress = events.filter((e) => e.type === 'progress');
    // The SDK dispatches notifications a tick after responses, so the last step's notification
    // may lose the race with the result; the earlier ones arrive in order.
    const steps = progress.map((e) => (e as unknown as { progress: { progress: number } }).progress.progress);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps).toEqual([1, 2, 3].slice(0, steps.length));
    expect((progress[0] as unknown as { progress: { message: string } }).progress.message).toBe('1/3');
    const result = events.find((e) => e.type === 'result') as Extract<SessionEvent, { type: 'result' }>;
    expect(contentToText(result.result.content)).toContain('Long running operation completed');
    expect(events.findIndex((e) => e.type === 'result')).toBeGreaterThan(events.lastIndexOf(progress.at(-1)!));
  });

  test('aborting a run cancels the MCP call and answers with a cancelled result', async () => {
    const controller = new AbortController();
    const events: SessionEvent[] = [];
    for await (const event of stdio.stream(
      [use('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 })],
      { signal: controller.signal },
    )) {
      events.push(event);
      if (event.type === 'progress') controller.abort();
    }
    const result = events.find((e) => e.type === 'result') as Extract<SessionEvent, { type: 'result' }>;
    expect(result.result.is_error).toBe(true);
    expect(result.result.content).toContain('was cancelled while it was running');
    // The server is still usable after the cancellation.
    const [after] = await stdio.run([use('mcp__everything__echo', { message: 'after abort' })]);
    expect(contentToText(after!.content)).toContain('after abort');
  });

  test('the filesystem server reads and, with an allow rule, writes real files', async () => {
    const [read] = await stdio.run([use('mcp__fs__read_text_file', { path: path.join(dir, 'hello.txt') })]);
    expect(contentToText(read!.content)).toContain('hello from disk');
    const [write] = await stdio.run([
      use('mcp__fs__write_file', { path: path.join(dir, 'out.txt'), content: 'written over MCP' }),
    ]);
    expect(write!.is_error).toBeUndefined();
    expect(await readFile(path.join(dir, 'out.txt'), 'utf8')).toBe('written over MCP');
    const [outside] = await stdio.run([use('mcp__fs__read_text_file', { path: '/etc/hostname' })]);
    expect(outside!.is_error).toBe(true);
    // The server's own message, as it wrote it.
    expect(outside!.content).toMatch(/^Access denied - path outside allowed directories: \/etc\/hostname/);
  });

  test('a result over the size limit goes through the result budget', async () => {
    await writeFile(path.join(dir, 'big.txt'), 'line of text\n'.repeat(1000));
    const [big] = await stdio.run([use('mcp__fs__read_text_file', { path: path.join(dir, 'big.txt') }, 'toolu_big')]);
    expect(contentToText(big!.content)).toContain('Output too large');
    const saved = await readFile(path.join(dir, 'state-stdio', 'tool-results', 'toolu_big.txt'), 'utf8');
    expect(saved).toContain('line of text');
  });

  test('ListMcpResources and ReadMcpResource reach the servers that offer resources', async () => {
    const [list] = await stdio.run([use('ListMcpResources', { server: 'everything' })]);
    const resources = JSON.parse(list!.content as string) as { server: string; uri: string }[];
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.server === 'everything')).toBe(true);
    const uri = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!.uri;
    const [read] = await stdio.run([use('ReadMcpResource', { server: 'everything', uri })]);
    expect(read!.is_error).toBeUndefined();
    expect(contentToText(read!.content)).toContain(`[resource ${uri} (text/markdown)]`);
    const [unknown] = await stdio.run([use('ReadMcpResource', { server: 'nope', uri })]);
    expect(unknown!.content).toContain('No connected MCP server named "nope" offers resources');
    const [bad] = await stdio.run([use('ReadMcpResource', { uri })]);
    expect(bad!.content).toContain('required parameter `server` is missing');
  });

  test('the family passes the conformance check with its servers connected', async () => {
    const family = mcpServers({ mcpServers: { fs: { command: FILESYSTEM, args: [dir] } } });
    expect(await checkFamily(family)).toEqual([]); // before setup: no servers, no tools
    const session = await createSession({ cwd: dir, families: [family] });
    try {
      expect((await family.loadTools()).length).toBeGreaterThan(5);
      expect(await checkFamily(family)).toEqual([]);
      const again = await createSession({ cwd: dir, families: [family] });
      expect(again.notices().some((n) => n.message.includes('already serves an open session'))).toBe(true);
      await again.close();
    } finally {
      await session.close();
    }
    expect(await family.loadTools()).toEqual([]);
  });
});

describe('mcpServers over Streamable HTTP (server-everything)', () => {
  test('tools are listed with their annotations and called over HTTP', async () => {
    const entry = http.catalog().find((e) => e.name === 'mcp__remote__get-sum')!;
    expect(entry.tool!.isReadOnly({})).toBe(true);
    const [sum] = await http.run([use('mcp__remote__get-sum', { a: 2, b: 3 })]);
    expect(contentToText(sum!.content)).toContain('5');
  });

  test('progress, images and structured content arrive over HTTP too', async () => {
    const events: SessionEvent[] = [];
    for await (const event of http.stream([
      use('mcp__remote__trigger-long-running-operation', { duration: 0.2, steps: 2 }, 'p'),
      use('mcp__remote__get-tiny-image', {}, 'i'),
      use('mcp__remote__get-structured-content', { location: 'New York' }, 's'),
    ]))
      events.push(event);
    expect(events.filter((e) => e.type === 'progress' && e.toolUseId === 'p')).toHaveLength(2);
    const results = events.filter((e): e is Extract<SessionEvent, { type: 'result' }> => e.type === 'result');
    expect(results.map((r) => r.toolUseId)).toEqual(['p', 'i', 's']);
    expect((results[1]!.result.content as { type: string }[]).some((b) => b.type === 'image')).toBe(true);
    expect(JSON.parse(results[2]!.result.content as string)).toHaveProperty('temperature');
  });

  test('resources are listed over HTTP', async () => {
    const [list] = await http.run([use('ListMcpResources', {})]);
    expect(list!.content).toContain('demo://resource/static/document/');
  });

  test('a remote server that restarted between calls (and forgot the session) gets a new session, and the call succeeds', async () => {
    const [before] = await http.run([use('mcp__remote__echo', { message: 'first session' })]);
    expect(contentToText(before!.content)).toContain('first session');
    await stopProcess(httpServer);
    httpServer = await startProcess(EVERYTHING, ['streamableHttp'], {
      env: { PORT: String(httpPort) },
      ready: /listening on port/i,
    });
    const [after] = await http.run([use('mcp__remote__echo', { message: 'new session' })]);
    expect(after!.is_error).toBeUndefined();
    expect(contentToText(after!.content)).toContain('new session');
  });

  test('a remote server that goes away fails the call naming it, and is reconnected once it is back', async () => {
    await stopProcess(httpServer);
    try {
      const [down] = await http.run([use('mcp__remote__echo', { message: 'anyone?' })]);
      expect(down!.is_error).toBe(true);
      // The call finds the server gone (before or after the session noticed the lost stream), or is under way when
      // its stream breaks; each message names the server.
      expect(down!.content).toMatch(
        /mcp__remote__echo failed: MCP server "remote" (could not be reached while running mcp__remote__echo|went away while mcp__remote__echo|could not be reconnected: .*ECONNREFUSED)/,
      );
    } finally {
      httpServer = await startProcess(EVERYTHING, ['streamableHttp'], {
        env: { PORT: String(httpPort) },
        ready: /listening on port/i,
      });
    }
    await new Promise((r) => setTimeout(r, 60)); // past the test's 50 ms reconnection backoff
    const [back] = await http.run([use('mcp__remote__echo', { message: 'back again' })]);
    expect(back!.is_error).toBeUndefined();
    expect(contentToText(back!.content)).toContain('back again');
  });
});

describe('mcpServers over the HTTP+SSE transport (server-everything)', () => {
  test('connects to an SSE server and calls its tools', async () => {
    const port = await freePort();
    const server = await startProcess(EVERYTHING, ['sse'], { env: { PORT: String(port) }, ready: /running on port/i });
    const session = await createSession({
      cwd: dir,
      families: [
        mcpServers({
          mcpServers: { legacy: { type: 'sse', url: `http://127.0.0.1:${port}/sse`, trust: 'readOnlyHint' } },
        }),
      ],
    });
    try {
      expect(session.notices().filter((n) => n.level === 'error')).toEqual([]);
      const [sum] = await session.run([use('mcp__legacy__get-sum', { a: 20, b: 22 })]);
      expect(contentToText(sum!.content)).toContain('42');
    } finally {
      await session.close();
      await stopProcess(server);
    }
  });
});

describe('server names', () => {
  test('two servers whose names normalize alike offer none of their tools, with one warning naming both', async () => {
    const server = { command: process.execPath, args: [FAULT_SERVER] };
    const session = await createSession({
      cwd: dir,
      families: [mcpServers({ mcpServers: { 'a.b': server, a_b: server } })],
    });
    try {
      expect(session.catalog().filter((e) => e.name.startsWith('mcp__a_b__'))).toHaveLength(0);
      const warnings = session
        .notices()
        .filter((n) => n.message.includes('The MCP servers "a.b" and "a_b" share the tool-name prefix "mcp__a_b__"'));
      expect(warnings).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe('tool lists written a little off', () => {
  test('one odd tool does not fail its server: it is repaired or left out with a warning naming it', async () => {
    const session = await createSession({
      cwd: dir,
      permissions: { allow: ['mcp__odd'] },
      families: [
        mcpServers({
          mcpServers: {
            odd: { command: process.execPath, args: [BAD_START_SERVER, 'odd'] },
            nolist: { command: process.execPath, args: [BAD_START_SERVER, 'nolist'] },
          },
        }),
      ],
    });
    try {
      expect(
        session
          .catalog()
          .map((e) => e.name)
          .filter((n) => n.startsWith('mcp__')),
      ).toEqual(['mcp__odd__bare', 'mcp__odd__untyped']);
      const warnings = session
        .notices()
        .filter((n) => n.level === 'warn')
        .map((n) => n.message);
      expect(warnings).toEqual(
        expect.arrayContaining([
          'MCP server "odd": tool "untyped" has an inputSchema without "type": "object"; it was added.',
          'MCP server "odd": a tool without a name was left out: {"description":"No name at all.","inputSchema":{"type":"object"}}.',
          'MCP server "odd": tool "stringly" was left out: its inputSchema has "type": "string", and tool inputs are objects.',
        ]),
      );
      const untyped = session.toolsFor('anthropic').find((t) => t.name === 'mcp__odd__untyped')!;
      expect(untyped.input_schema).toEqual({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      });
      const [missing, ok] = await session.run([
        use('mcp__odd__untyped', {}, 'm'),
        use('mcp__odd__untyped', { text: 'hi' }, 'o'),
      ]);
      expect(missing!.content).toContain('required parameter `text` is missing (expected string)');
      expect(ok!.content).toBe('untyped: {"text":"hi"}');
      // A server whose answer is not a tool list at all fails, saying where the answer went wrong.
      expect(session.notices().find((n) => n.level === 'error')?.message).toMatch(
        /^MCP server "nolist" failed to start: its answer does not follow the MCP schema \(tools: .+\)\./,
      );
    } finally {
      await session.close();
    }
  });
});

describe('remote servers that refuse us', () => {
  test('a server that answers 401 and offers no OAuth sign-in is reported as such, with the header to add', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"', 'content-type': 'application/json' });
      res.end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as { port: number };
    try {
      const statuses = await listMcpServers(
        {
          mcpServers: {
            http: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
            sse: { type: 'sse', url: `http://127.0.0.1:${port}/sse` },
          },
        },
        { homeDir: dir },
      );
      for (const status of statuses) {
        expect(status.state).toBe('failed');
        expect(status.error).toMatch(
          /^it asks for a sign-in \(HTTP 401\), and the OAuth sign-in failed \(.+\)\. If it takes an API key instead, give it in "headers" \(for example "Authorization": "Bearer \$\{TOKEN\}"\)$/,
        );
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('permission rules on MCP tools', () => {
  test('a server that a deny rule removes whole (mcp__server) is never started, and its tools are denied by that rule', async () => {
    // Each "server" writes a marker file the moment its process starts.
    const marker = (name: string) => path.join(dir, `spawned-${name}.txt`);
    const spawnMarker = (name: string) => ({
      command: process.execPath,
      args: ['-e', 'require("fs").writeFileSync(process.argv[1], "spawned")', marker(name)],
    });
    const session = await createSession({
      cwd: dir,
      permissions: { deny: ['mcp__fs', 'mcp__wild__*', 'mcp__fault__crash'] },
      families: [
        mcpServers({
          mcpServers: {
            fs: spawnMarker('fs'),
            wild: spawnMarker('wild'),
            fault: { command: process.execPath, args: [FAULT_SERVER] },
          },
        }),
      ],
    });
    try {
      expect(session.notices()).toEqual(
        expect.arrayContaining([
          {
            level: 'info',
            message: 'MCP server "fs" is not started: deny rule "mcp__fs" from options removes all of its tools.',
          },
          {
            level: 'info',
            message:
              'MCP server "wild" is not started: deny rule "mcp__wild__*" from options removes all of its tools.',
          },
        ]),
      );
      // A rule naming one tool of a server leaves the server running, without that tool.
      const names = session.catalog().map((e) => e.name);
      expect(names).toContain('mcp__fault__pid');
      expect(names).not.toContain('mcp__fault__crash');
      const [denied] = await session.run([use('mcp__fs__read_text_file', { path: path.join(dir, 'hello.txt') })]);
      expect(denied!.is_error).toBe(true);
      expect(denied!.content).toContain('No such tool available: mcp__fs__read_text_file');
      expect(await session.explain('mcp__fs__read_text_file', {})).toMatchObject({ behavior: 'deny', rule: 'mcp__fs' });
    } finally {
      await session.close();
    }
    await expect(readFile(marker('fs'), 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(readFile(marker('wild'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('listMcpServers', () => {
  test('reports each server with its state and tool count, failures included', async () => {
    const statuses = await listMcpServers(
      {
        mcpServers: {
          fs: { command: FILESYSTEM, args: [dir] },
          remote: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp` },
          missing: { command: path.join(dir, 'missing-binary') },
        },
      },
      { startTimeoutMs: 15_000 },
    );
    expect(statuses.map((s) => [s.name, s.transport, s.state])).toEqual([
      ['fs', 'stdio', 'connected'],
      ['remote', 'http', 'connected'],
      ['missing', 'stdio', 'failed'],
    ]);
    expect(statuses[0]!.tools).toBeGreaterThan(5);
    expect(statuses[1]!.resources).toBe(true);
    expect(statuses[2]!.error).toMatch(/ENOENT|spawn/);
  });

  test('with the session permissions, a server that a deny rule removes whole is reported as denied (rule and source) and never started', async () => {
    const marker = path.join(dir, 'spawned-listed.txt');
    const { context } = createPermissionContext({ deny: ['mcp__listed', 'mcp__remote__*', 'mcp__fault__crash'] }, dir, {
      source: 'cli',
    });
    const statuses = await listMcpServers(
      {
        mcpServers: {
          listed: {
            command: process.execPath,
            args: ['-e', 'require("fs").writeFileSync(process.argv[1], "spawned")', marker],
          },
          fault: { command: process.execPath, args: [FAULT_SERVER] },
          remote: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      },
      { permissions: context },
    );
    expect(statuses).toEqual([
      {
        name: 'listed',
        transport: 'stdio',
        state: 'denied',
        tools: 0,
        resources: false,
        deniedBy: { rule: 'mcp__listed', source: 'cli' },
      },
      expect.objectContaining({ name: 'fault', state: 'connected', tools: 8 }),
      {
        name: 'remote',
        transport: 'sse',
        state: 'denied',
        tools: 0,
        resources: false,
        deniedBy: { rule: 'mcp__remote__*', source: 'cli' },
      },
    ]);
    await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
