import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSession, type Session } from '@toolshed/core';
import { fileResourceUri, serveSession, workingFiles, type ServedSession } from './mod.ts';
import { featureFamily } from './testdata/feature_family.ts';

// Attack: an MCP client of a served session lists what the session's Read rules hide. A deny rule
// `Read(./private/**)` kept the files' contents, but a folder read (`resources/read` of
// file:///…/private) and the completion of the file:// template named every file in it, and a
// folder listing named a denied file (`Read(./.env)`) beside the others. Glob and Grep leave such
// files out; the served listings must too.

let dir: string;
let session: Session;
let served: ServedSession;
let client: Client;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcp-serve-resources-attack-')));
  await writeFile(path.join(dir, '.env'), 'TOKEN=hunter2');
  await writeFile(path.join(dir, 'README.md'), 'hello');
  await mkdir(path.join(dir, 'private', 'keys'), { recursive: true });
  await writeFile(path.join(dir, 'private', 'customer-list-acme.csv'), 'a,b');
  await writeFile(path.join(dir, 'private', 'keys', 'id_ed25519'), 'key');
  session = await createSession({
    cwd: dir,
    families: [featureFamily()],
    permissions: { allow: ['Read'], deny: ['Read(./private/**)', 'Read(./.env)'] },
  });
  served = await serveSession(session, { http: { port: 0, noAuth: true }, resources: (s) => [workingFiles(s)] });
  client = new Client({ name: 'attacker', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
});

afterAll(async () => {
  await client?.close();
  await served?.close();
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

const complete = async (value: string) =>
  (
    await client.complete({
      ref: { type: 'ref/resource', uri: 'file://{+path}' },
      argument: { name: 'path', value },
    })
  ).completion.values;

test('a folder that a deny rule covers is not listed by resources/read, and its files are not named', async () => {
  const error = await client.readResource({ uri: fileResourceUri(path.join(dir, 'private')) }).catch((e) => e);
  expect(error).toBeInstanceOf(Error);
  expect(String(error)).toMatch(/deny rule "Read\(\.\/private\/\*\*\)"/);
  expect(String(error)).not.toContain('customer-list');
  await expect(client.readResource({ uri: fileResourceUri(path.join(dir, 'private', 'keys')) })).rejects.toThrow(
    /deny rule/,
  );
});

test('a folder listing leaves out the entries a deny rule covers', async () => {
  const listing = await client.readResource({ uri: fileResourceUri(dir) });
  expect((listing.contents[0] as { text: string }).text.split('\n')).toEqual(['README.md']);
});

test('completion of file:// paths names no file or folder a deny rule covers', async () => {
  expect(await complete(`${dir}/`)).toEqual([path.join(dir, 'README.md')]);
  expect(await complete(`${dir}/private/`)).toEqual([]);
  expect(await complete(`${dir}/private/c`)).toEqual([]);
  expect(await complete(`${dir}/private/keys/`)).toEqual([]);
  expect(await complete(`${dir}/.e`)).toEqual([]);
});
