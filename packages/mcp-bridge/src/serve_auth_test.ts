// `serveSession` over HTTP as an attacker meets it: another local process without the token, a web
// page with its own Origin, a second client trying to use what the first one read, and a client
// answering the permission prompt for its own call.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { buildTool, createSession, type AnyTool, type Session } from '@toolshed/core';
import { createMcpPermissionPrompt, serveSession, type ServeApprove, type ServedSession } from './mod.ts';
import { sessionTools } from './testdata/session_tools.ts';

let dir: string;
const toClose: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-serve-auth-'));
});
afterAll(async () => {
  for (const c of toClose.reverse()) await c.close().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return (result as { content: { type: string; text?: string }[] }).content
    .map((b) => b.text ?? `[${b.type}]`)
    .join('\n');
}

/** Tools that keep state in the session: the cwd (contextModifier) and the file-state cache. */
const stateTools: AnyTool[] = [
  buildTool({
    name: 'Cd',
    description: 'Changes the working directory.',
    inputSchema: z.strictObject({ path: z.string() }),
    isReadOnly: () => true,
    async call({ path: to }, ctx) {
      const next = path.resolve(ctx.cwd, to);
      return { data: `cd ${next}`, contextModifier: (c) => ({ ...c, cwd: next }) };
    },
  }),
  buildTool({
    name: 'Pwd',
    description: 'Prints the working directory.',
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    async call(_input, ctx) {
      return { data: ctx.cwd };
    },
  }),
  buildTool({
    name: 'MarkRead',
    description: 'Records a file as read.',
    inputSchema: z.strictObject({ file: z.string() }),
    isReadOnly: () => true,
    async call({ file }, ctx) {
      ctx.fileState.record(path.resolve(ctx.cwd, file), { contentHash: 'x', mtimeMs: 1, size: 1, partial: false });
      return { data: 'recorded' };
    },
  }),
  buildTool({
    name: 'WasRead',
    description: 'Says whether this session read a file.',
    inputSchema: z.strictObject({ file: z.string() }),
    isReadOnly: () => true,
    async call({ file }, ctx) {
      return { data: ctx.fileState.get(path.resolve(ctx.cwd, file)) ? 'read' : 'never read' };
    },
  }),
];

interface Served {
  served: ServedSession;
  made: Session[];
  closedCount: () => number;
}

async function serve(http: Record<string, unknown> = {}, approve?: ServeApprove): Promise<Served> {
  const prompt = createMcpPermissionPrompt();
  const made: Session[] = [];
  let closed = 0;
  const served = await serveSession(
    async () => {
      const s = await createSession({
        cwd: dir,
        tools: [...sessionTools(), ...stateTools],
        canUseTool: prompt.canUseTool,
      });
      const close = s.close.bind(s);
      (s as { close: () => Promise<void> }).close = async () => {
        closed++;
        await close();
      };
      made.push(s);
      return s;
    },
    { http: { port: 0, ...http }, permissionPrompt: prompt, ...(approve ? { approve } : {}) },
  );
  toClose.push(served);
  return { served, made, closedCount: () => closed };
}

async function connect(
  served: ServedSession,
  options: { token?: string | undefined; elicit?: (message: string) => void } = {},
): Promise<Client> {
  const client = new Client({ name: 'c', version: '1' }, options.elicit ? { capabilities: { elicitation: {} } } : {});
  if (options.elicit) {
    const seen = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen(request.params.message);
      return { action: 'accept', content: { allow: true } };
    });
  }
  const token = 'token' in options ? options.token : served.token;
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(served.url!),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  toClose.push(client);
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: initialize,
  });

describe('mcp serve over HTTP: who may connect', () => {
  test('a request without the token gets 401 and starts no session; a wrong token too', async () => {
    const { served, made } = await serve();
    expect(served.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const none = await post(served.url!, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain('Authorization: Bearer');
    const wrong = await post(served.url!, { authorization: `Bearer ${served.token!.slice(1)}x` });
    expect(wrong.status).toBe(401);
    await expect(connect(served, { token: undefined })).rejects.toThrow();
    expect(made).toHaveLength(0);
    expect(served.sessionCount()).toBe(0);
    const client = await connect(served);
    expect(textOf(await client.callTool({ name: 'Echo', arguments: { text: 'ok' } }))).toBe('echo: ok');
  });

  test('a browser Origin that is not loopback gets 403, even with the token; a loopback origin is served', async () => {
    const { served } = await serve();
    const auth = { authorization: `Bearer ${served.token}` };
    expect((await post(served.url!, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(served.url!, { ...auth, origin: 'null' })).status).toBe(403);
    expect((await post(served.url!, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(served.url!, { ...auth, origin: 'http://localhost:6274' })).status).toBe(200);
  });

  test('allowedOrigins adds an origin', async () => {
    const { served } = await serve({ allowedOrigins: ['https://app.example'] });
    expect(
      (await post(served.url!, { authorization: `Bearer ${served.token}`, origin: 'https://app.example' })).status,
    ).toBe(200);
  });

  test('noAuth serves without a token on loopback only, still checking Origin', async () => {
    const { served } = await serve({ noAuth: true });
    expect(served.token).toBeUndefined();
    expect((await post(served.url!, {})).status).toBe(200);
    expect((await post(served.url!, { origin: 'https://evil.example' })).status).toBe(403);
    await expect(
      serveSession(() => createSession({ cwd: dir }), { http: { port: 0, host: '0.0.0.0', noAuth: true } }),
    ).rejects.toThrow(/loopback addresses only/);
    await expect(
      serveSession(() => createSession({ cwd: dir }), { http: { port: 0, token: 'short' } }),
    ).rejects.toThrow(/at least 16 characters/);
  });

  test('a given token is the one required', async () => {
    const { served } = await serve({ token: 'a-token-of-the-users-own-choosing' });
    expect(served.token).toBe('a-token-of-the-users-own-choosing');
    expect((await post(served.url!, { authorization: 'Bearer a-token-of-the-users-own-choosing' })).status).toBe(200);
  });
});

describe('mcp serve over HTTP: each client its own session', () => {
  test('two clients share neither cwd nor read state, and each session closes when its client ends', async () => {
    const { served, made, closedCount } = await serve();
    const a = await connect(served);
    const b = await connect(served);
    await a.callTool({ name: 'Cd', arguments: { path: '..' } });
    expect(textOf(await a.callTool({ name: 'Pwd', arguments: {} }))).toBe(path.dirname(dir));
    expect(textOf(await b.callTool({ name: 'Pwd', arguments: {} }))).toBe(dir);
    await b.callTool({ name: 'MarkRead', arguments: { file: 'x.txt' } });
    expect(textOf(await b.callTool({ name: 'WasRead', arguments: { file: 'x.txt' } }))).toBe('read');
    expect(textOf(await a.callTool({ name: 'WasRead', arguments: { file: path.join(dir, 'x.txt') } }))).toBe(
      'never read',
    );
    expect(made).toHaveLength(2);
    expect(made[0]!.id).not.toBe(made[1]!.id);
    await (a.transport as StreamableHTTPClientTransport).terminateSession();
    for (let i = 0; i < 100 && closedCount() < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closedCount()).toBe(1);
    await served.close();
    expect(closedCount()).toBe(2);
  });
});

describe('mcp serve over HTTP: who may approve', () => {
  test('by default a client cannot approve its own call: it is not asked, and the denial names the rule and --approve', async () => {
    const { served } = await serve();
    const asked: string[] = [];
    const client = await connect(served, { elicit: (m) => asked.push(m) });
    const result = await client.callTool({ name: 'Touch', arguments: { name: 'pwned.txt', content: 'x' } });
    expect(result.isError).toBe(true);
    expect(asked).toEqual([]);
    expect(textOf(result)).toContain('add "Touch" to permissions.allow');
    expect(textOf(result)).toContain('--approve elicit');
    await expect(readFile(path.join(dir, 'pwned.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  test("with approve: elicit the client's user decides", async () => {
    const { served } = await serve({}, 'elicit');
    const asked: string[] = [];
    const client = await connect(served, { elicit: (m) => asked.push(m) });
    const result = await client.callTool({ name: 'Touch', arguments: { name: 'elicited.txt', content: 'yes' } });
    expect(result.isError).toBeFalsy();
    expect(asked[0]).toContain('Allow Touch?');
    expect(await readFile(path.join(dir, 'elicited.txt'), 'utf8')).toBe('yes');
  });

  test('with an approve function the serving side decides, whatever the client would say', async () => {
    const seen: string[] = [];
    const { served } = await serve({}, async (toolName) => {
      seen.push(toolName);
      return { behavior: 'deny', message: 'the serving user said no' };
    });
    const client = await connect(served, { elicit: () => {} });
    const result = await client.callTool({ name: 'Touch', arguments: { name: 'no.txt', content: 'x' } });
    expect(seen).toEqual(['Touch']);
    expect(textOf(result)).toContain('the serving user said no');
  });
});
