import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createSession, type Session } from '@toolshed/core';
import { createMcpPermissionPrompt, mcpServers, serveSession, type ServedSession } from './mod.ts';
import { FAULT_SERVER, INSPECTOR, PACKAGE_DIR } from './testdata/_helpers.ts';
import { sessionTools } from './testdata/session_tools.ts';

const run = promisify(execFile);
const FIXTURE = path.join(PACKAGE_DIR, 'src', 'testdata', 'serve_fixture.ts');
const NODE_ARGS = ['--conditions=@toolshed/source', '--import', 'tsx', FIXTURE];

let dir: string;
let httpDir: string;
let stdioClient: Client;
let bareClient: Client;
let session: Session;
let served: ServedSession;
let httpClient: Client;
const elicitations: string[] = [];
let nextAnswer: ElicitResult = { action: 'accept', content: { allow: true } };

function textOf(result: unknown): string {
  return (result as { content: { type: string; text?: string }[] }).content
    .map((b) => b.text ?? `[${b.type}]`)
    .join('\n');
}

function elicitingClient(): Client {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params.message);
    return nextAnswer;
  });
  return client;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-bridge-serve-'));
  httpDir = await mkdtemp(path.join(os.tmpdir(), 'mcp-bridge-serve-http-'));
  stdioClient = elicitingClient();
  bareClient = new Client({ name: 'bare', version: '1' });
  const prompt = createMcpPermissionPrompt();
  session = await createSession({ cwd: httpDir, tools: sessionTools(), canUseTool: prompt.canUseTool });
  served = await serveSession(session, {
    http: { port: 0, noAuth: true },
    permissionPrompt: prompt,
    approve: 'elicit',
  });
  httpClient = elicitingClient();
  await Promise.all([
    stdioClient.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...NODE_ARGS, dir],
        cwd: PACKAGE_DIR,
        stderr: 'ignore',
      }),
    ),
    bareClient.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...NODE_ARGS, dir],
        cwd: PACKAGE_DIR,
        stderr: 'ignore',
      }),
    ),
    httpClient.connect(new StreamableHTTPClientTransport(new URL(served.url!))),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([stdioClient?.close(), bareClient?.close(), httpClient?.close()]);
  await served?.close();
  await session?.close();
  await rm(dir, { recursive: true, force: true });
  await rm(httpDir, { recursive: true, force: true });
});

describe('serveSession over stdio, with the SDK client', () => {
  test('lists the session tools with JSON Schema from zod and annotations from the flags', async () => {
    const { tools } = await stdioClient.listTools();
    expect(tools.map((t) => t.name)).toEqual(['Echo', 'Slow', 'Touch']);
    const echo = tools.find((t) => t.name === 'Echo')!;
    expect(echo.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo' } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(echo.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'Touch')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
  });

  test('a call runs through the pipeline: results, and input errors in the pipeline words', async () => {
    expect(textOf(await stdioClient.callTool({ name: 'Echo', arguments: { text: 'hi' } }))).toBe('echo: hi');
    const bad = await stdioClient.callTool({ name: 'Echo', arguments: { text: 1 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('parameter `text` should be a string, got number 1');
    const unknown = await stdioClient.callTool({ name: 'Nope', arguments: {} });
    expect(textOf(unknown)).toContain('No such tool available: Nope');
  });

  test('a permission ask becomes an elicitation request, and the answer decides the call', async () => {
    nextAnswer = { action: 'accept', content: { allow: true } };
    const allowed = await stdioClient.callTool({ name: 'Touch', arguments: { name: 'a.txt', content: 'from MCP' } });
    expect(allowed.isError).toBeFalsy();
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('from MCP');
    expect(elicitations.at(-1)).toContain('Allow Touch?');
    nextAnswer = { action: 'decline' };
    const declined = await stdioClient.callTool({ name: 'Touch', arguments: { name: 'b.txt', content: 'no' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain("Permission to use Touch was denied: the MCP client's user declined");
    await expect(readFile(path.join(dir, 'b.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  test('a client without elicitation gets a denial that names the rule that would allow the call', async () => {
    const denied = await bareClient.callTool({ name: 'Touch', arguments: { name: 'c.txt', content: 'no' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('the MCP client cannot be asked (it does not support elicitation)');
    expect(textOf(denied)).toContain('add "Touch" to permissions.allow');
  });

  test('progress events become progress notifications and a cancellation reaches the tool', async () => {
    const progress: number[] = [];
    const done = await stdioClient.callTool({ name: 'Slow', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(done)).toBe('done after 3 steps');
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const call = stdioClient.callTool({ name: 'Slow', arguments: { steps: 200 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow();
    let marker = '';
    for (let i = 0; i < 200 && !marker; i++) {
      marker = await readFile(path.join(dir, 'cancelled.txt'), 'utf8').catch(() => '');
      if (!marker) await new Promise((r) => setTimeout(r, 25));
    }
    expect(marker).toMatch(/^cancelled at step \d+$/);
  });
});

describe('serveSession over Streamable HTTP, with the SDK client', () => {
  test('lists and calls tools, and elicits permission over the call stream', async () => {
    const { tools } = await httpClient.listTools();
    expect(tools.map((t) => t.name)).toEqual(['Echo', 'Slow', 'Touch']);
    expect(textOf(await httpClient.callTool({ name: 'Echo', arguments: { text: 'over http' } }))).toBe(
      'echo: over http',
    );
    nextAnswer = { action: 'accept', content: { allow: true } };
    const before = elicitations.length;
    const touched = await httpClient.callTool({ name: 'Touch', arguments: { name: 'h.txt', content: 'http' } });
    expect(touched.isError).toBeFalsy();
    expect(elicitations.length).toBe(before + 1);
    expect(await readFile(path.join(httpDir, 'h.txt'), 'utf8')).toBe('http');
  });

  test('several clients share one session given as an object (not a factory), and progress arrives over HTTP', async () => {
    const second = new Client({ name: 'second', version: '1' });
    await second.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
    try {
      const progress: number[] = [];
      const [a, b] = await Promise.all([
        second.callTool({ name: 'Slow', arguments: { steps: 2 } }, undefined, {
          onprogress: (p) => progress.push(p.progress),
        }),
        httpClient.callTool({ name: 'Echo', arguments: { text: 'first' } }),
      ]);
      expect(textOf(a)).toBe('done after 2 steps');
      expect(textOf(b)).toBe('echo: first');
      expect(progress).toEqual([1, 2]);
    } finally {
      await second.close();
    }
  });

  test('a request with an unknown session id or to another path is refused with a clear error', async () => {
    const wrongSession = await fetch(served.url!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-session-id': 'nope',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(wrongSession.status).toBe(404);
    const body = (await wrongSession.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32001);
    expect(body.error.message).toContain('Session not found: MCP session "nope" has ended');
    const wrongPath = await fetch(new URL('/other', served.url!), { method: 'POST', body: '{}' });
    expect(wrongPath.status).toBe(404);
  });

  test('a request whose Host is not the loopback address is refused (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const url = new URL(served.url!);
    const before = served.sessionCount();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      );
    });
    expect(status).toBe(403);
    expect(served.sessionCount()).toBe(before); // the refused initialize left no server behind
  });

  test('a session whose pool changes tells its clients with tools/list_changed (MCP server → bridge → session → MCP client)', async () => {
    const chained = await createSession({
      cwd: httpDir,
      tools: sessionTools(),
      permissions: { allow: ['mcp__fault'] },
      families: [mcpServers({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } })],
    });
    const chainedServer = await serveSession(chained, { http: { port: 0, noAuth: true } });
    const client = new Client({ name: 'chain', version: '1' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(chainedServer.url!)));
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).toContain('mcp__fault__add_tool');
      expect(before).not.toContain('mcp__fault__added');
      expect(textOf(await client.callTool({ name: 'mcp__fault__add_tool', arguments: {} }))).toBe('added');
      for (let i = 0; i < 200 && !chained.catalog().some((e) => e.name === 'mcp__fault__added'); i++)
        await new Promise((r) => setTimeout(r, 25));
      await client.callTool({ name: 'Echo', arguments: { text: 'x' } });
      for (let i = 0; i < 200 && changed === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(changed).toBe(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('mcp__fault__added');
      expect(textOf(await client.callTool({ name: 'mcp__fault__added', arguments: {} }))).toBe('the added tool ran');
    } finally {
      await client.close();
      await chainedServer.close();
      await chained.close();
    }
  });
});

describe('serveSession with the MCP inspector CLI as a client nobody here wrote', () => {
  test('the inspector lists and calls tools over stdio', async () => {
    const list = await run(INSPECTOR, ['--cli', process.execPath, ...NODE_ARGS, dir, '--method', 'tools/list'], {
      cwd: PACKAGE_DIR,
      timeout: 30_000,
    });
    expect((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual([
      'Echo',
      'Slow',
      'Touch',
    ]);
    const call = await run(
      INSPECTOR,
      [
        '--cli',
        process.execPath,
        ...NODE_ARGS,
        dir,
        '--method',
        'tools/call',
        '--tool-name',
        'Echo',
        '--tool-arg',
        'text=inspected',
      ],
      { cwd: PACKAGE_DIR, timeout: 30_000 },
    );
    expect(JSON.parse(call.stdout)).toMatchObject({ content: [{ type: 'text', text: 'echo: inspected' }] });
  }, 60_000);

  test('the inspector calls tools over Streamable HTTP, and a denied call comes back as an error result', async () => {
    const call = await run(
      INSPECTOR,
      [
        '--cli',
        served.url!,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'Touch',
        '--tool-arg',
        'name=i.txt',
        '--tool-arg',
        'content=x',
      ],
      { timeout: 30_000 },
    );
    const result = JSON.parse(call.stdout) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('does not support elicitation');
  }, 60_000);
});

/** Polls until `check` holds; the wait is generous, so only a behaviour that never happens fails. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('serveSession over Streamable HTTP: idle client sessions', () => {
  test('a client that goes away without DELETE has its session closed after idleTimeoutMs, and its id then gets 404 Session not found', async () => {
    const idle = await serveSession(session, { http: { port: 0, idleTimeoutMs: 150, noAuth: true } });
    const client = new Client({ name: 'leaver', version: '1' });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(idle.url!));
      await client.connect(transport);
      expect(textOf(await client.callTool({ name: 'Echo', arguments: { text: 'before' } }))).toBe('echo: before');
      expect(idle.sessionCount()).toBe(1);
      const oldId = transport.sessionId!;
      await client.close(); // the SDK client does not send DELETE
      await until(() => idle.sessionCount() === 0, 'the idle session to be closed');
      const expired = await post(
        idle.url!,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-session-id': oldId, 'mcp-protocol-version': '2025-06-18' },
      );
      expect(expired.status).toBe(404);
      const body = (await expired.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32001);
      expect(body.error.message).toContain(`Session not found: MCP session "${oldId}" has ended`);
      // The client reconnects by initializing again.
      const again = new Client({ name: 'back', version: '1' });
      await again.connect(new StreamableHTTPClientTransport(new URL(idle.url!)));
      expect(textOf(await again.callTool({ name: 'Echo', arguments: { text: 'after' } }))).toBe('echo: after');
      expect(idle.sessionCount()).toBe(1);
      await again.close();
    } finally {
      await idle.close();
    }
    expect(idle.sessionCount()).toBe(0);
  });

  test('a session whose call outlasts the idle timeout is kept until the call ends, and an idle raw session is closed', async () => {
    const idle = await serveSession(session, { http: { port: 0, idleTimeoutMs: 100, noAuth: true } });
    const busy = new Client({ name: 'busy', version: '1' });
    try {
      // A raw session (no notification stream held open) that sends one request and goes quiet.
      const init = await post(idle.url!, INITIALIZE);
      expect(init.status).toBe(200);
      await init.text();
      await busy.connect(new StreamableHTTPClientTransport(new URL(idle.url!)));
      expect(idle.sessionCount()).toBe(2);
      const progress: number[] = [];
      const call = busy.callTool({ name: 'Slow', arguments: { steps: 40 } }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      // The raw session is closed while the slow call is still reporting progress...
      await until(() => idle.sessionCount() === 1, 'the raw session to be closed');
      expect(progress.length).toBeLessThan(40);
      // ...and the busy one survives it: the call completes and the session still answers.
      expect(textOf(await call)).toBe('done after 40 steps');
      expect(textOf(await busy.callTool({ name: 'Echo', arguments: { text: 'still here' } }))).toBe('echo: still here');
    } finally {
      await busy.close();
      await idle.close();
    }
  });

  test('close() ends every client session, and a refused first request leaves no session behind', async () => {
    const served2 = await serveSession(session, { http: { port: 0, noAuth: true } });
    const a = new Client({ name: 'a', version: '1' });
    const b = new Client({ name: 'b', version: '1' });
    let closedA = false;
    try {
      const notInitialize = await post(served2.url!, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(notInitialize.status).toBe(400);
      const notJson = await fetch(served2.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{oops',
      });
      expect(notJson.status).toBe(400);
      expect(served2.sessionCount()).toBe(0);
      await a.connect(new StreamableHTTPClientTransport(new URL(served2.url!)));
      await b.connect(new StreamableHTTPClientTransport(new URL(served2.url!)));
      a.onclose = () => void (closedA = true);
      expect(served2.sessionCount()).toBe(2);
    } finally {
      await served2.close();
    }
    expect(served2.sessionCount()).toBe(0);
    await expect(b.callTool({ name: 'Echo', arguments: { text: 'x' } })).rejects.toThrow();
    await Promise.all([a.close(), b.close()]);
    expect(closedA).toBe(true);
  });

  test('an idle timeout that is not a positive number is refused, naming the value', async () => {
    await expect(serveSession(session, { http: { port: 0, idleTimeoutMs: 0 } })).rejects.toThrow(
      'http.idleTimeoutMs must be a positive number of milliseconds (or Infinity to never close idle sessions), got 0',
    );
    await expect(serveSession(session, { http: { port: 0, idleTimeoutMs: Number.NaN } })).rejects.toThrow(
      /idleTimeoutMs .* got null/,
    );
  });
});
