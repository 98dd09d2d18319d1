import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { CommonArgs } from './args.ts';
import { mcpCommand } from './mcp_command.ts';
import { fakeIo, tempDir } from './_test_io.ts';
import { testTools } from './_test_tools.ts';

const FAULT_SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages/mcp-bridge/src/testdata/fault_server.mjs');

function argsFor(cwd: string, extra: Partial<CommonArgs> & { http?: string } = {}): CommonArgs & { http?: string } {
  return { cwd, families: ['mcp'], mode: undefined, allow: [], deny: [], ask: [], settings: undefined, mcpConfig: undefined, yes: false, json: false, ...extra };
}

/** Collects stdout lines as JSON-RPC messages. */
function jsonLines(out: () => string): unknown[] {
  return out().split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('toolshed mcp list', () => {
  test('prints each server of the config with transport, status and tool count, and exits 1 when one failed', async () => {
    const cwd = await tempDir();
    try {
      const config = path.join(cwd, 'servers.json');
      await writeFile(config, JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] }, gone: { command: path.join(cwd, 'missing') } } }));
      const { io, stdout } = fakeIo();
      const code = await mcpCommand({ positionals: ['list'], args: argsFor(cwd, { mcpConfig: config }) }, io);
      expect(code).toBe(1);
      const lines = stdout().trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME +TRANSPORT +STATUS +TOOLS +RESOURCES +ERROR$/);
      expect(lines[1]).toMatch(/^fault +stdio +connected +8 +no$/);
      expect(lines[2]).toMatch(/^gone +stdio +failed +0 +no +.*ENOENT/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('reads .mcp.json of the working directory by default and prints JSON with --json', async () => {
    const cwd = await tempDir();
    try {
      await writeFile(path.join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } }));
      const { io, stdout } = fakeIo();
      expect(await mcpCommand({ positionals: ['list'], args: argsFor(cwd, { json: true }) }, io)).toBe(0);
      expect(JSON.parse(stdout())).toEqual([{ name: 'fault', transport: 'stdio', state: 'connected', tools: 8, resources: false }]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('without a config it says how to give one, and a bad subcommand or config is a usage error', async () => {
    const cwd = await tempDir();
    try {
      const { io } = fakeIo();
      await expect(mcpCommand({ positionals: ['list'], args: argsFor(cwd) }, io)).rejects.toThrow(/give --mcp-config FILE, or put a \.mcp\.json in/);
      await expect(mcpCommand({ positionals: ['lsit'], args: argsFor(cwd) }, io)).rejects.toThrow('Unknown subcommand "mcp lsit": use "mcp serve" or "mcp list".');
      await expect(mcpCommand({ positionals: [], args: argsFor(cwd) }, io)).rejects.toThrow('needs a subcommand: serve or list');
      await writeFile(path.join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { x: { url: 'not a url', type: 'http' } } }));
      await expect(mcpCommand({ positionals: ['list'], args: argsFor(cwd) }, io)).rejects.toThrow('"url" of server "x" in the MCP configuration is not a valid URL: "not a url"');
      await expect(mcpCommand({ positionals: ['serve'], args: argsFor(cwd, { http: 'eighty' }) }, io)).rejects.toThrow('--http needs a port number from 0 to 65535, got "eighty"');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('toolshed mcp serve', () => {
  test('serves the session over stdio: stdout carries only the protocol, messages go to stderr', async () => {
    const cwd = await tempDir();
    try {
      const stdin = new PassThrough();
      const { io, stdout, stderr } = fakeIo({ tools: testTools });
      io.stdin = stdin;
      const running = mcpCommand({ positionals: ['serve'], args: argsFor(cwd) }, io);
      const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
      await until(() => (jsonLines(stdout).length >= 1 ? true : undefined), 'the initialize answer');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const list = await until(() => jsonLines(stdout).find((m) => (m as { id?: number }).id === 2) as { result: { tools: { name: string }[] } } | undefined, 'tools/list');
      expect(list.result.tools.map((t) => t.name)).toEqual(testTools.map((t) => t.name).sort());
      stdin.end();
      expect(await running).toBe(0);
      expect(stderr()).toContain('toolshed: serving');
      expect(stderr()).toContain('over stdio');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('serves over Streamable HTTP until interrupted, printing the endpoint', async () => {
    const cwd = await tempDir();
    try {
      const controller = new AbortController();
      const { io, stderr } = fakeIo({ tools: testTools });
      io.signal = controller.signal;
      const running = mcpCommand({ positionals: ['serve'], args: argsFor(cwd, { http: '0' }) }, io);
      const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr())?.[1], 'the endpoint line');
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toMatch(/[0-9a-f-]{36}/);
      expect(await response.text()).toContain('"serverInfo"');
      controller.abort();
      expect(await running).toBe(0);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
