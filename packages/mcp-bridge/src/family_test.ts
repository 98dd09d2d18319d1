import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTool, contentToText, createSession, type Session, type SessionEvent, type ToolUseBlock } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { listMcpServers, mcpServers } from './mod.ts';
import { EVERYTHING, FAULT_SERVER, FILESYSTEM, freePort, startProcess, stopProcess } from './testdata/_helpers.ts';

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
  httpServer = await startProcess(EVERYTHING, ['streamableHttp'], { env: { PORT: String(httpPort) }, ready: /listening on port/i });
  const echoBuiltIn = buildTool({
    name: 'mcp__everything__get-env',
    description: 'A built-in tool that happens to take an MCP name.',
    inputSchema: passthrough(),
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
      permissions: { allow: ['mcp__fs__write_file'], deny: ['mcp__everything__toggle-simulated-logging', 'mcp__broken'] },
      families: [mcpServers({
        mcpServers: {
          everything: { command: EVERYTHING, args: ['${EVERYTHING_TRANSPORT:-stdio}'] },
          fs: { command: FILESYSTEM, args: [dir] },
          broken: { command: path.join(dir, 'no-such-server') },
        },
      })],
    }),
    createSession({
      cwd: dir,
      stateDir: path.join(dir, 'state-http'),
      families: [mcpServers({ mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:${MCP_TEST_PORT}/mcp' } } }, { env: { MCP_TEST_PORT: String(httpPort) } })],
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([stdio?.close(), http?.close()]);
  await stopProcess(httpServer);
  await rm(dir, { recursive: true, force: true });
});

function passthrough() {
  // The same trick the bridge uses: zod is not a dependency of this package.
  return { safeParse: (input: unknown) => ({ success: true, data: input }) } as never;
}

describe('mcpServers over stdio (server-everything, server-filesystem)', () => {
  test('each server tool joins the pool as mcp__<server>__<tool> with the server schema kept as is', () => {
    const names = stdio.catalog().map((e) => e.name);
    expect(names).toContain('mcp__everything__echo');
    expect(names).toContain('mcp__everything__trigger-long-running-operation');
    expect(names).toContain('mcp__fs__read_text_file');
    const echo = stdio.toolsFor('anthropic').find((t) => t.name === 'mcp__everything__echo')!;
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
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
    expect(stdio.notices().some((n) => n.level === 'error' && n.message.includes('MCP server "broken" failed to start'))).toBe(true);
    const [result] = await stdio.run([use('mcp__everything__echo', { message: 'still here' })]);
    expect(result!.is_error).toBeUndefined();
    expect(contentToText(result!.content)).toContain('still here');
  });

  test('a deny rule naming a tool removes it, and a built-in tool wins a name clash with a warning', async () => {
    expect(stdio.catalog().some((e) => e.name === 'mcp__everything__toggle-simulated-logging')).toBe(false);
    const clash = stdio.catalog().find((e) => e.name === 'mcp__everything__get-env')!;
    expect(clash.isMcp).toBe(false);
    expect(stdio.notices().some((n) => n.level === 'warn' && n.message.includes('"mcp__everything__get-env"') && n.message.includes('built-in'))).toBe(true);
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
    expect(enumBad!.content).toContain('parameter `location` must be one of "New York", "Chicago", "Los Angeles", got string "Paris"');
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
    expect(JSON.parse(structured!.content as string)).toMatchObject({ conditions: expect.any(String), humidity: expect.any(Number) });
    expect(reference!.content).toMatch(/\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]/);
    expect(links!.content).toContain('[resource link]');
    expect(links!.content).toContain('ReadMcpResource {"server": "everything"');
  });

  test('progress notifications of the long-running operation become progress events', async () => {
    const events: SessionEvent[] = [];
    for await (const event of stdio.stream([use('mcp__everything__trigger-long-running-operation', { duration: 0.3, steps: 3 })])) events.push(event);
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
    for await (const event of stdio.stream([use('mcp__everything__trigger-long-running-operation', { duration: 30, steps: 30 })], { signal: controller.signal })) {
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
    const [write] = await stdio.run([use('mcp__fs__write_file', { path: path.join(dir, 'out.txt'), content: 'written over MCP' })]);
    expect(write!.is_error).toBeUndefined();
    expect(await readFile(path.join(dir, 'out.txt'), 'utf8')).toBe('written over MCP');
    const [outside] = await stdio.run([use('mcp__fs__read_text_file', { path: '/etc/hostname' })]);
    expect(outside!.is_error).toBe(true);
    expect(outside!.content).toContain('MCP server "fs"');
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
    ])) events.push(event);
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

  test('a remote server that goes away fails the call naming it, and is reconnected once it is back', async () => {
    await stopProcess(httpServer);
    const [down] = await http.run([use('mcp__remote__echo', { message: 'anyone?' })]);
    expect(down!.is_error).toBe(true);
    expect(down!.content).toContain('MCP server "remote" could not be reached while running mcp__remote__echo');
    httpServer = await startProcess(EVERYTHING, ['streamableHttp'], { env: { PORT: String(httpPort) }, ready: /listening on port/i });
    const [back] = await http.run([use('mcp__remote__echo', { message: 'back again' })]);
    expect(back!.is_error).toBeUndefined();
    expect(contentToText(back!.content)).toContain('back again');
  });
});

describe('mcpServers over the HTTP+SSE transport (server-everything)', () => {
  test('connects to an SSE server and calls its tools', async () => {
    const port = await freePort();
    const server = await startProcess(EVERYTHING, ['sse'], { env: { PORT: String(port) }, ready: /running on port/i });
    const session = await createSession({ cwd: dir, families: [mcpServers({ mcpServers: { legacy: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } })] });
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
  test('two servers whose names normalize alike keep the first one\'s tools and warn once about the second', async () => {
    const server = { command: process.execPath, args: [FAULT_SERVER] };
    const session = await createSession({ cwd: dir, families: [mcpServers({ mcpServers: { 'a.b': server, a_b: server } })] });
    try {
      expect(session.catalog().filter((e) => e.name === 'mcp__a_b__pid')).toHaveLength(1);
      const warnings = session.notices().filter((n) => n.message.includes('"mcp__a_b__pid" of MCP server "a_b" is ignored'));
      expect(warnings).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});

describe('permission rules on MCP tools', () => {
  test('a rule naming a server (mcp__server) removes all of its tools', async () => {
    const session = await createSession({
      cwd: dir,
      permissions: { deny: ['mcp__fs'] },
      families: [mcpServers({ mcpServers: { fs: { command: FILESYSTEM, args: [dir] } } })],
    });
    try {
      expect(session.catalog().filter((e) => e.name.startsWith('mcp__fs__'))).toEqual([]);
      const [denied] = await session.run([use('mcp__fs__read_text_file', { path: path.join(dir, 'hello.txt') })]);
      expect(denied!.content).toContain('No such tool available: mcp__fs__read_text_file');
    } finally {
      await session.close();
    }
  });
});

describe('listMcpServers', () => {
  test('reports each server with its state and tool count, failures included', async () => {
    const statuses = await listMcpServers({
      mcpServers: {
        fs: { command: FILESYSTEM, args: [dir] },
        remote: { type: 'http', url: `http://127.0.0.1:${httpPort}/mcp` },
        missing: { command: path.join(dir, 'missing-binary') },
      },
    }, { startTimeoutMs: 15_000 });
    expect(statuses.map((s) => [s.name, s.transport, s.state])).toEqual([
      ['fs', 'stdio', 'connected'],
      ['remote', 'http', 'connected'],
      ['missing', 'stdio', 'failed'],
    ]);
    expect(statuses[0]!.tools).toBeGreaterThan(5);
    expect(statuses[1]!.resources).toBe(true);
    expect(statuses[2]!.error).toMatch(/ENOENT|spawn/);
  });
});
