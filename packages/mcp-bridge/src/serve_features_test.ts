import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { askUserKey, createSession, modelClientKey } from '@toolshed/core';
import { fileResourceUri, serveSession, sessionResults, workingFiles, type ServedSession } from './mod.ts';
import { PACKAGE_DIR } from './testdata/_helpers.ts';
import { featureFamily, greetPrompts } from './testdata/feature_family.ts';

const FIXTURE = path.join(PACKAGE_DIR, 'src', 'testdata', 'serve_features_fixture.ts');

interface Served {
  client: Client;
  dir: string;
  logs: LoggingMessageNotification['params'][];
  updates: string[];
}

let outside: string;
let served: ServedSession | undefined;
const transports: Record<'stdio' | 'http', Served> = {} as Record<'stdio' | 'http', Served>;

async function workDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-serve-features-')));
  await writeFile(path.join(dir, 'notes.md'), '# Notes\nhello');
  await writeFile(path.join(dir, 'secret.txt'), 'the password');
  await writeFile(path.join(dir, 'pixel.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src', 'alpha.ts'), 'export {}');
  await writeFile(path.join(dir, 'src', 'beta.ts'), 'export {}');
  await symlink(path.join(outside, 'passwd'), path.join(dir, 'escape.txt'));
  return dir;
}

const asked: { elicit: unknown[]; sample: unknown[] } = { elicit: [], sample: [] };

/** A client whose user answers elicitations with a name and whose model answers sampling. */
function askingClient(name: string): Client {
  const client = new Client({ name, version: '1' }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.elicit.push(request.params);
    return { action: 'accept', content: { name: `Ada via ${name}` } };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.sample.push(request.params);
    return { role: 'assistant', content: { type: 'text', text: `short (${name})` }, model: 'test-model' };
  });
  return client;
}

function watchClient(client: Client): Pick<Served, 'logs' | 'updates'> {
  const logs: Served['logs'] = [];
  const updates: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  return { logs, updates };
}

beforeAll(async () => {
  outside = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-serve-outside-')));
  await writeFile(path.join(outside, 'passwd'), 'root:x:0:0');

  const stdioDir = await workDir();
  const stdioClient = askingClient('features-stdio');
  const stdioSeen = watchClient(stdioClient);
  await stdioClient.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@toolshed/source', '--import', 'tsx', FIXTURE, stdioDir],
      cwd: PACKAGE_DIR,
      stderr: 'ignore',
    }),
  );
  transports.stdio = { client: stdioClient, dir: stdioDir, ...stdioSeen };

  const httpDir = await workDir();
  served = await serveSession(
    (client) =>
      createSession({
        cwd: httpDir,
        families: [featureFamily()],
        permissions: { deny: ['Read(./secret.txt)'] },
        services: [
          [askUserKey, client.askUser],
          [modelClientKey, client.modelClient],
        ],
      }),
    {
      http: { port: 0, noAuth: true },
      resources: (s) => [sessionResults(s), workingFiles(s)],
      prompts: () => greetPrompts,
    },
  );
  const httpClient = askingClient('features-http');
  const httpSeen = watchClient(httpClient);
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
  transports.http = { client: httpClient, dir: httpDir, ...httpSeen };
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(transports).map((t) => t.client.close()));
  await served?.close();
  await Promise.all(
    [outside, ...Object.values(transports).map((t) => t.dir)].map((d) => rm(d, { recursive: true, force: true })),
  );
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['stdio', 'http'] as const)('serveSession features over %s, with the SDK client', (kind) => {
  test('declares logging, resources (with subscribe), prompts and completions', () => {
    const caps = transports[kind].client.getServerCapabilities();
    expect(caps?.logging).toEqual({});
    expect(caps?.completions).toEqual({});
    expect(caps?.resources).toEqual({ subscribe: true });
    expect(caps?.prompts).toEqual({});
  });

  test("session notices become log notifications, filtered by the client's logging/setLevel", async () => {
    const { client, logs } = transports[kind];
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'Note', arguments: { level: 'warn', message: `careful ${kind}` } });
    await until(() => logs.some((l) => l.data === `careful ${kind}`));
    // The family's notice from before the client came is sent too, once.
    expect(logs.filter((l) => l.data === 'features family ready')).toHaveLength(1);
    expect(logs.find((l) => l.data === `careful ${kind}`)).toMatchObject({ level: 'warning', logger: 'toolshed' });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'Note', arguments: { level: 'info', message: `quiet ${kind}` } });
    await client.callTool({ name: 'Note', arguments: { level: 'error', message: `loud ${kind}` } });
    await until(() => logs.some((l) => l.data === `loud ${kind}`));
    expect(logs.some((l) => l.data === `quiet ${kind}`)).toBe(false);
  });

  test('a saved (too large) result is listed and read as a toolshed://results resource', async () => {
    const { client } = transports[kind];
    const call = await client.callTool({ name: 'Big', arguments: {} });
    expect(JSON.stringify(call.content)).toContain('saved');
    const { resources } = await client.listResources();
    const saved = resources.find((r) => r.uri.startsWith('toolshed://results/'));
    expect(saved).toMatchObject({ mimeType: 'text/plain' });
    const read = await client.readResource({ uri: saved!.uri });
    // As saved for Read: its one long line folded every 2 000 characters.
    expect(read.contents[0]).toMatchObject({
      uri: saved!.uri,
      text: ['x'.repeat(2000), 'x'.repeat(2000), 'x'.repeat(1000)].join('\n'),
    });
    await expect(client.readResource({ uri: 'toolshed://results/..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(
      /names no saved result/,
    );
  });

  test('files of the working directory are read through the file:// template: text, binary and folders', async () => {
    const { client, dir } = transports[kind];
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['file://{+path}']);
    const text = await client.readResource({ uri: fileResourceUri(path.join(dir, 'notes.md')) });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: '# Notes\nhello' });
    const png = await client.readResource({ uri: fileResourceUri(path.join(dir, 'pixel.png')) });
    expect(png.contents[0]).toMatchObject({
      mimeType: 'image/png',
      blob: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString('base64'),
    });
    const folder = await client.readResource({ uri: fileResourceUri(path.join(dir, 'src')) });
    expect(folder.contents[0]).toMatchObject({ text: 'alpha.ts\nbeta.ts' });
  });

  test('a file outside the working directory, through a symlink, or denied by a Read rule is refused with the reason', async () => {
    const { client, dir } = transports[kind];
    await expect(client.readResource({ uri: fileResourceUri(path.join(outside, 'passwd')) })).rejects.toThrow(
      /outside the served working directories/,
    );
    await expect(client.readResource({ uri: fileResourceUri(path.join(dir, 'escape.txt')) })).rejects.toThrow(
      /outside the served working directories.*resolves to/,
    );
    await expect(
      client.readResource({ uri: `file://${dir}/src/../../${path.basename(outside)}/passwd` }),
    ).rejects.toThrow(/outside the served working directories/);
    await expect(client.readResource({ uri: fileResourceUri(path.join(dir, 'secret.txt')) })).rejects.toThrow(
      /deny rule "Read\(\.\/secret\.txt\)"/,
    );
    await expect(client.readResource({ uri: 'mystery://x' })).rejects.toThrow(/not found.*resources\/list/);
  });

  test('a subscribed file sends resources/updated when it changes, and not after unsubscribe', async () => {
    const { client, dir, updates } = transports[kind];
    const uri = fileResourceUri(path.join(dir, 'notes.md'));
    await client.subscribeResource({ uri });
    await writeFile(path.join(dir, 'notes.md'), 'changed');
    await until(() => updates.includes(uri));
    await client.unsubscribeResource({ uri });
    updates.length = 0;
    await writeFile(path.join(dir, 'notes.md'), 'changed again');
    await new Promise((r) => setTimeout(r, 300));
    expect(updates).toEqual([]);
    await expect(client.subscribeResource({ uri: 'mystery://x' })).rejects.toThrow(/cannot be subscribed/);
  });

  test("a tool's askUser and modelClient services reach the client's user (elicitation) and model (sampling)", async () => {
    const { client } = transports[kind];
    const name = await client.callTool({ name: 'AskName', arguments: {} });
    expect(JSON.stringify(name.content)).toContain(
      `answer: {\\"action\\":\\"accept\\",\\"content\\":{\\"name\\":\\"Ada via features-${kind}\\"}}`,
    );
    expect(asked.elicit.at(-1)).toMatchObject({
      message: 'Your name?',
      requestedSchema: { properties: { name: { default: 'nobody' } } },
    });
    const summary = await client.callTool({ name: 'Summarize', arguments: { text: 'a long story' } });
    expect(summary.isError).toBeFalsy();
    expect(JSON.stringify(summary.content)).toContain(`summary: short (features-${kind})`);
    expect(asked.sample.at(-1)).toMatchObject({
      systemPrompt: 'Be brief.',
      maxTokens: 50,
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long story' } }],
    });
  });

  test('prompts are listed and filled in; a missing argument or unknown prompt is named', async () => {
    const { client } = transports[kind];
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
    const got = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada', language: 'French' } });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Greet Ada in French' });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow(/needs the argument "who"/);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/Unknown prompt "nope": this server has greet/);
  });

  test('completion: prompt arguments from the source, template paths from the folder', async () => {
    const { client, dir } = transports[kind];
    const languages = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'language', value: 'es' },
    });
    expect(languages.completion).toEqual({ values: ['Esperanto', 'Estonian'], total: 2, hasMore: false });
    const files = await client.complete({
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value: path.join(dir, 'src', 'a') },
    });
    expect(files.completion.values).toEqual([path.join(dir, 'src', 'alpha.ts')]);
    const outsideFiles = await client.complete({
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value: `${outside}/` },
    });
    expect(outsideFiles.completion.values).toEqual([]);
    const unknown = await client.complete({
      ref: { type: 'ref/prompt', name: 'nope' },
      argument: { name: 'x', value: '' },
    });
    expect(unknown.completion.values).toEqual([]);
  });
});

test('a client without elicitation or sampling gets an error result naming the missing capability', async () => {
  const bare = new Client({ name: 'bare', version: '1' });
  await bare.connect(new StreamableHTTPClientTransport(new URL(served!.url!)));
  try {
    const name = await bare.callTool({ name: 'AskName', arguments: {} });
    expect(name.isError).toBe(true);
    expect(JSON.stringify(name.content)).toMatch(/does not declare the elicitation capability/);
    const summary = await bare.callTool({ name: 'Summarize', arguments: { text: 'x' } });
    expect(summary.isError).toBe(true);
    expect(JSON.stringify(summary.content)).toMatch(/does not declare the sampling capability/);
  } finally {
    await bare.close();
  }
});

test('a session without a Read tool serves no files, and says why', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-serve-noread-')));
  await writeFile(path.join(dir, 'a.txt'), 'a');
  const bare = await createSession({ cwd: dir, tools: [] });
  const server = await serveSession(bare, { http: { port: 0, noAuth: true }, resources: (s) => [workingFiles(s)] });
  const client = new Client({ name: 'noread', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
    await expect(client.readResource({ uri: fileResourceUri(path.join(dir, 'a.txt')) })).rejects.toThrow(
      /has no Read tool/,
    );
    // By default only saved results are offered, and prompts/list is empty.
    expect((await client.listPrompts()).prompts).toEqual([]);
  } finally {
    await client.close();
    await server.close();
    await bare.close();
    await rm(dir, { recursive: true, force: true });
  }
});
