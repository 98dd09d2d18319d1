// `toolshed mcp serve --http` as a real process, met by the clients an attacker would use: a
// local process without the token, a web page with its own Origin, a second client, and a client
// that answers the permission prompt for its own call.
import { mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from './_test_io.ts';
import { startToolshed, type ToolshedProcess } from './_test_process.ts';

let root: string;
let cwd: string;
let home: string;
const running: ToolshedProcess[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  root = await realpath(await tempDir());
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  await mkdir(path.join(cwd, 'sub'), { recursive: true });
  await mkdir(home);
  await writeFile(path.join(cwd, 'notes.txt'), 'first line\n');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  for (const p of running) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  await rm(root, { recursive: true, force: true });
});

async function serve(extra: string[] = []): Promise<{ url: string; token: string | undefined; p: ToolshedProcess }> {
  const p = startToolshed(['mcp', 'serve', '--http', '0', '--only', 'fs,shell', '--cwd', cwd, ...extra], { home });
  running.push(p);
  const [, url] = await p.waitForStderr(/serving \d+ tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  const token = /token: (\S+) \(written to/.exec(p.stderr())?.[1];
  return { url: url!, token, p };
}

async function connect(url: string, token: string | undefined, onElicit?: (message: string) => void): Promise<Client> {
  const client = new Client({ name: 'attacker', version: '1' }, onElicit ? { capabilities: { elicitation: {} } } : {});
  if (onElicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      onElicit(request.params.message);
      return { action: 'accept', content: { allow: true } };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL(url),
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  return (result as { content: { type: string; text?: string }[] }).content
    .map((b) => b.text ?? `[${b.type}]`)
    .join('\n');
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

describe('toolshed mcp serve --http (a real process)', () => {
  test('no token: 401; wrong Origin: 403; the token is printed once and kept in a 0600 file', async () => {
    const { url, token, p } = await serve();
    expect(token).toBeDefined();
    expect((await post(url, {})).status).toBe(401);
    expect((await post(url, { authorization: 'Bearer guessed-guessed-guessed' })).status).toBe(401);
    expect((await post(url, { authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, { authorization: `Bearer ${token}` })).status).toBe(200);
    const file = path.join(home, '.toolshed', `mcp-serve-${new URL(url).port}.token`);
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(p.stderr().split(token!).length - 1).toBe(1);
  }, 60_000);

  test('two clients share neither read state nor cwd', async () => {
    const { url, token } = await serve(['--allow', 'Edit(./**)', '--allow', 'Bash']);
    const a = await connect(url, token);
    const b = await connect(url, token);
    const read = await a.callTool({ name: 'Read', arguments: { file_path: path.join(cwd, 'notes.txt') } });
    expect(textOf(read)).toContain('first line');
    // B never read the file: its Edit must fail as a fresh session's would.
    const edit = await b.callTool({
      name: 'Edit',
      arguments: { file_path: path.join(cwd, 'notes.txt'), old_string: 'first line', new_string: 'edited by B' },
    });
    expect(edit.isError).toBe(true);
    expect(textOf(edit)).toMatch(/read/i);
    expect(await readFile(path.join(cwd, 'notes.txt'), 'utf8')).toBe('first line\n');
    const ownEdit = await a.callTool({
      name: 'Edit',
      arguments: { file_path: path.join(cwd, 'notes.txt'), old_string: 'first line', new_string: 'edited by A' },
    });
    expect(ownEdit.isError).toBeFalsy();
    await writeFile(path.join(cwd, 'notes.txt'), 'first line\n');
    await a.callTool({ name: 'Bash', arguments: { command: 'cd sub' } });
    expect(textOf(await a.callTool({ name: 'Bash', arguments: { command: 'pwd' } }))).toContain(path.join(cwd, 'sub'));
    const pwdB = textOf(await b.callTool({ name: 'Bash', arguments: { command: 'pwd' } }));
    expect(pwdB).toContain(cwd);
    expect(pwdB).not.toContain(path.join(cwd, 'sub'));
  }, 60_000);

  test('a client cannot approve its own call unless the server was started with --approve elicit', async () => {
    const target = path.join(cwd, 'pwned.txt');
    const byDefault = await serve();
    const asked: string[] = [];
    const client = await connect(byDefault.url, byDefault.token, (m) => asked.push(m));
    const denied = await client.callTool({ name: 'Write', arguments: { file_path: target, content: 'x' } });
    expect(denied.isError).toBe(true);
    expect(asked).toEqual([]);
    expect(textOf(denied)).toContain('--approve elicit');
    expect(textOf(denied)).toMatch(/add "Edit\([^"]*pwned\.txt\)" to permissions\.allow/);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);

    const eliciting = await serve(['--approve', 'elicit']);
    const client2 = await connect(eliciting.url, eliciting.token, (m) => asked.push(m));
    const allowed = await client2.callTool({
      name: 'Write',
      arguments: { file_path: target, content: 'the client user said yes' },
    });
    expect(allowed.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(await readFile(target, 'utf8')).toBe('the client user said yes');
  }, 60_000);

  test('--no-auth serves without a token, with a warning on stderr; Origin is still checked', async () => {
    const { url, token, p } = await serve(['--no-auth']);
    expect(token).toBeUndefined();
    expect(p.stderr()).toContain('WITHOUT authentication');
    expect((await post(url, {})).status).toBe(200);
    expect((await post(url, { origin: 'https://evil.example' })).status).toBe(403);
  }, 60_000);

  test('--token-file: the token comes from the file, which must be private', async () => {
    const file = path.join(root, 'token');
    await writeFile(file, 'a-long-token-from-a-file-0123456789\n', { mode: 0o644 });
    const open = startToolshed(['mcp', 'serve', '--http', '0', '--only', 'fs', '--cwd', cwd, '--token-file', file], {
      home,
    });
    running.push(open);
    expect(await open.exited).toBe(2);
    expect(open.stderr()).toContain('chmod 600');
    await writeFile(file, 'a-long-token-from-a-file-0123456789\n', { mode: 0o600 });
    const { chmod } = await import('node:fs/promises');
    await chmod(file, 0o600);
    const { url, p } = await serve(['--token-file', file]);
    expect(p.stderr()).not.toContain('a-long-token-from-a-file');
    expect((await post(url, { authorization: 'Bearer a-long-token-from-a-file-0123456789' })).status).toBe(200);
    expect((await post(url, {})).status).toBe(401);
  }, 60_000);
});
