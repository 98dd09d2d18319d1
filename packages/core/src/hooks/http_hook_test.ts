import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runHooks } from './run_hooks.ts';
import type { HookInput, HttpHook } from './types.ts';

let server: Server;
let base: string;
const seen: { url: string; headers: IncomingMessage['headers']; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(text) });
      const input = JSON.parse(text) as HookInput;
      const command = (input.tool_input as { command?: string }).command ?? '';
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 5000);
      if (req.url === '/broken') return void res.writeHead(500).end('database down');
      if (req.url === '/text') return void res.end('all good');
      res.setHeader('content-type', 'application/json');
      if (command.startsWith('rm')) return void res.end(JSON.stringify({ decision: 'block', reason: 'no rm here' }));
      res.end(
        JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'checked by http' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function input(command: string): HookInput {
  return {
    session_id: 's',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 't1',
  };
}
function run(hook: HttpHook, command: string) {
  return runHooks({ PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] }, input(command), {
    event: 'PreToolUse',
    signal: new AbortController().signal,
    cwd: '/tmp',
  });
}

describe('http hooks', () => {
  test("POST the hook input as JSON, and a JSON answer blocks like a command hook's stdout", async () => {
    process.env['TOOLSHED_TEST_HOOK_TOKEN'] = 'sekret';
    const outcome = await run(
      {
        type: 'http',
        url: `${base}/hook`,
        headers: { Authorization: 'Bearer $TOOLSHED_TEST_HOOK_TOKEN', 'X-Other': '${HOME}' },
        allowedEnvVars: ['TOOLSHED_TEST_HOOK_TOKEN'],
      },
      'rm -rf src',
    );
    expect(outcome.blocked).toEqual({ reason: 'no rm here', hook: `POST ${base}/hook` });
    const last = seen.at(-1)!;
    expect(last.body).toEqual(input('rm -rf src'));
    expect(last.headers['content-type']).toBe('application/json');
    expect(last.headers['authorization']).toBe('Bearer sekret');
    // A variable the hook did not list is not sent.
    expect(last.headers['x-other']).toBe('');
  });

  test('an allowing answer adds its context; plain text is fine', async () => {
    expect((await run({ type: 'http', url: `${base}/hook` }, 'ls')).additionalContext).toEqual(['checked by http']);
    const text = await run({ type: 'http', url: `${base}/text` }, 'ls');
    expect(text.blocked).toBeUndefined();
    expect(text.errors).toEqual([]);
  });

  test('a status other than 2xx, an unreachable server and a timeout are non-blocking errors, blocking when failClosed', async () => {
    const broken = await run({ type: 'http', url: `${base}/broken` }, 'ls');
    expect(broken.blocked).toBeUndefined();
    expect(broken.errors[0]!.message).toContain('answered HTTP 500: database down');
    const closed = await run({ type: 'http', url: `${base}/broken`, failClosed: true }, 'ls');
    expect(closed.blocked?.reason).toContain('fail-closed');
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const freePort = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const down = await run({ type: 'http', url: `http://127.0.0.1:${freePort}/hook` }, 'ls');
    expect(down.errors[0]!.message).toContain('could not be reached (ECONNREFUSED)');
    const slow = await run({ type: 'http', url: `${base}/slow`, timeout: 0.2 }, 'ls');
    expect(slow.errors[0]!.message).toBe('timed out after 0.2 s');
  });

  test('a URL that is not http or https is refused without a request', async () => {
    const before = seen.length;
    const outcome = await run({ type: 'http', url: 'file:///etc/passwd' }, 'ls');
    expect(outcome.errors[0]!.message).toContain('which is not http: or https:');
    expect(seen.length).toBe(before);
  });
});
