// `toolshed mcp serve` offers the session's skills as MCP prompts: the project's skill files
// (the agent family) and the prompts of its own MCP servers, met by the SDK's Client over stdio
// and over Streamable HTTP.
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tempDir } from './_test_io.ts';
import { startToolshed, type ToolshedProcess } from './_test_process.ts';
import { cliNodeArgs } from './_test_cli.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const EVERYTHING = path.resolve(here, '../../../packages/mcp-bridge/node_modules/.bin/mcp-server-everything');

let root: string;
let cwd: string;
let home: string;
let mcpConfig: string;
const running: ToolshedProcess[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  root = await realpath(await tempDir());
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.claude', 'skills', 'release'), { recursive: true });
  await mkdir(home);
  await writeFile(
    path.join(cwd, '.claude', 'skills', 'release', 'SKILL.md'),
    '---\nname: release\ndescription: Cut a release of the packages\n---\nRelease version $ARGUMENTS: run pnpm changeset version.',
  );
  mcpConfig = path.join(root, 'mcp.json');
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  for (const p of running) {
    p.child.kill('SIGTERM');
    await p.exited;
  }
  await rm(root, { recursive: true, force: true });
});

const serveArgs = (only: string) => [
  'mcp',
  'serve',
  '--only',
  only,
  '--cwd',
  cwd,
  '--setting-sources',
  '',
  '--mcp-config',
  mcpConfig,
];

async function overStdio(only: string): Promise<Client> {
  const client = new Client({ name: 'prompt-user', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...cliNodeArgs(), ...serveArgs(only)],
      env: { ...(process.env as Record<string, string>), HOME: home, TOOLSHED_DEBUG: '' },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

async function overHttp(only: string): Promise<Client> {
  const p = startToolshed([...serveArgs(only), '--http', '0'], { home });
  running.push(p);
  const [, url] = await p.waitForStderr(/serving \d+ tools at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  const [, token] = await p.waitForStderr(/token: (\S+) \(written to/);
  const client = new Client({ name: 'prompt-user', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url!), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

describe.each([
  ['stdio', overStdio],
  ['Streamable HTTP', overHttp],
])('toolshed mcp serve over %s', (_transport, connect) => {
  test("offers the project's skills as prompts, and prompts/get returns the skill's instructions with its args", async () => {
    const client = await connect('agent');
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'release',
        description: 'Cut a release of the packages',
        arguments: [{ name: 'args', description: 'Arguments for the skill, if it takes any' }],
      },
    ]);
    const got = await client.getPrompt({ name: 'release', arguments: { args: 'v2.0.0' } });
    expect(got.description).toBe('Cut a release of the packages');
    expect(got.messages).toHaveLength(1);
    expect(got.messages[0]!.role).toBe('user');
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Skill "release" loaded.');
    expect(text).toContain(`Base folder of this skill: ${path.join(cwd, '.claude', 'skills', 'release')}`);
    expect(text).toContain('Release version v2.0.0: run pnpm changeset version.');
    await expect(client.getPrompt({ name: 'relase' })).rejects.toThrow(
      /Unknown prompt "relase": this server has release/,
    );
  }, 60_000);

  test("offers its MCP servers' prompts too, with their arguments, and completes them through the server", async () => {
    const client = await connect('agent,mcp');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['release', 'mcp__everything__args-prompt', 'mcp__everything__completable-prompt']),
    );
    expect(prompts.find((p) => p.name === 'mcp__everything__args-prompt')!.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state' },
    ]);
    const got = await client.getPrompt({ name: 'mcp__everything__args-prompt', arguments: { city: 'Lyon' } });
    expect((got.messages[0]!.content as { text: string }).text).toContain("[user] What's weather in Lyon?");
    await expect(client.getPrompt({ name: 'mcp__everything__args-prompt' })).rejects.toThrow(/needs "city"/);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'mcp__everything__completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(completion.completion.values).toEqual(['David', 'Eve', 'Frank']);
  }, 60_000);
});
