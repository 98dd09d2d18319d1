import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { trustProject } from '@toolshed/core';
import type { CommonArgs } from './args.ts';
import { mcpCommand } from './mcp_command.ts';
import { runCli } from './run_cli.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';
import { testTools } from './_test_tools.ts';

const FAULT_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/mcp-bridge/src/testdata/fault_server.mjs',
);

function argsFor(cwd: string, extra: Partial<CommonArgs> = {}): CommonArgs {
  return {
    cwd,
    families: ['mcp'],
    mode: undefined,
    allow: [],
    deny: [],
    ask: [],
    settingSources: [],
    settings: [],
    mcpConfig: undefined,
    yes: false,
    json: false,
    ...extra,
  };
}

/** Collects stdout lines as JSON-RPC messages. */
function jsonLines(out: () => string): unknown[] {
  return out()
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);
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
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            fault: { command: process.execPath, args: [FAULT_SERVER] },
            gone: { command: path.join(cwd, 'missing') },
          },
        }),
      );
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
      await writeFile(
        path.join(cwd, '.mcp.json'),
        JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } }),
      );
      const home = path.join(cwd, 'home');
      await mkdir(home);
      // The project's own .mcp.json starts commands the repository chose: only in a trusted folder.
      const untrusted = fakeIo({ env: { HOME: home } });
      await expect(
        mcpCommand({ positionals: ['list'], args: argsFor(cwd, { json: true }) }, untrusted.io),
      ).rejects.toThrow(/not trusted.*toolshed trust/);
      await trustProject(cwd, { homeDir: home });
      const { io, stdout } = fakeIo({ env: { HOME: home } });
      expect(await mcpCommand({ positionals: ['list'], args: argsFor(cwd, { json: true }) }, io)).toBe(0);
      expect(JSON.parse(stdout())).toEqual([
        { name: 'fault', transport: 'stdio', state: 'connected', tools: 8, resources: false },
      ]);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('without a config it says how to give one, and a bad subcommand or config is a usage error', async () => {
    const cwd = await tempDir();
    try {
      const { io } = fakeIo();
      await expect(mcpCommand({ positionals: ['list'], args: argsFor(cwd) }, io)).rejects.toThrow(
        /give --mcp-config FILE, or put a \.mcp\.json in/,
      );
      await expect(mcpCommand({ positionals: ['lsit'], args: argsFor(cwd) }, io)).rejects.toThrow(
        'Unknown subcommand "mcp lsit": use "mcp serve", "mcp list", "mcp login <server>" or "mcp prompt [server] [prompt]".',
      );
      await expect(mcpCommand({ positionals: [], args: argsFor(cwd) }, io)).rejects.toThrow(
        'needs a subcommand: serve, list, login or prompt',
      );
      await writeFile(
        path.join(cwd, '.mcp.json'),
        JSON.stringify({ mcpServers: { x: { url: 'not a url', type: 'http' } } }),
      );
      await expect(
        mcpCommand({ positionals: ['list'], args: argsFor(cwd, { mcpConfig: path.join(cwd, '.mcp.json') }) }, io),
      ).rejects.toThrow('"url" of server "x" in the MCP configuration is not a valid URL: "not a url"');
      await expect(mcpCommand({ positionals: ['serve'], args: argsFor(cwd, { http: 'eighty' }) }, io)).rejects.toThrow(
        '--http needs a port number from 0 to 65535, got "eighty"',
      );
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

/** A "server" that only writes a marker file when its process starts: proof it was started. */
function markerServer(marker: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', 'require("fs").writeFileSync(process.argv[1], "spawned")', marker] };
}

describe('toolshed mcp list and the permission rules', () => {
  test('a server that a settings file or --deny removes whole is listed as denied with the rule and its source, and is not started', async () => {
    const cwd = await tempDir();
    try {
      await mkdir(path.join(cwd, '.toolshed'));
      const settingsFile = path.join(cwd, '.toolshed', 'settings.json');
      await writeFile(settingsFile, JSON.stringify({ permissions: { deny: ['mcp__blocked'] } }));
      const config = path.join(cwd, 'servers.json');
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            fault: { command: process.execPath, args: [FAULT_SERVER] },
            blocked: markerServer(path.join(cwd, 'blocked-started')),
            flagged: markerServer(path.join(cwd, 'flagged-started')),
          },
        }),
      );
      const { io, stdout } = fakeIo();
      const code = await mcpCommand(
        {
          positionals: ['list'],
          args: argsFor(cwd, {
            mcpConfig: config,
            settingSources: ['project'],
            deny: ['mcp__flagged__*', 'mcp__fault__crash'],
          }),
        },
        io,
      );
      expect(code).toBe(0); // a denied server is the user's choice, not a failure
      const lines = stdout().trimEnd().split('\n');
      // A rule naming one tool leaves its server running.
      expect(lines[1]).toMatch(/^fault +stdio +connected +8 +no$/);
      expect(lines[2]).toMatch(/^blocked +stdio +denied +0 +no +deny rule "mcp__blocked" from (.*)$/);
      expect(lines[2]).toContain(settingsFile);
      expect(lines[3]).toMatch(/^flagged +stdio +denied +0 +no +deny rule "mcp__flagged__\*" from cli$/);
      await expect(readFile(path.join(cwd, 'blocked-started'), 'utf8')).rejects.toThrow(/ENOENT/);
      await expect(readFile(path.join(cwd, 'flagged-started'), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('mcp list --json --deny reports the denial as deniedBy, and a bad rule is a usage error before any server starts', async () => {
    const cwd = await tempDir();
    try {
      await writeFile(
        path.join(cwd, '.mcp.json'),
        JSON.stringify({ mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }),
      );
      const r = await cli([
        'mcp',
        'list',
        '--json',
        '--deny',
        'mcp__remote',
        '--mcp-config',
        path.join(cwd, '.mcp.json'),
        '--cwd',
        cwd,
      ]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        {
          name: 'remote',
          transport: 'http',
          state: 'denied',
          tools: 0,
          resources: false,
          deniedBy: { rule: 'mcp__remote', source: 'cli' },
        },
      ]);
      const bad = await cli([
        'mcp',
        'list',
        '--deny',
        'mcp__remote(',
        '--mcp-config',
        path.join(cwd, '.mcp.json'),
        '--cwd',
        cwd,
      ]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('The permission settings are not valid');
      expect(bad.stdout).toBe('');
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
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      });
      await until(() => (jsonLines(stdout).length >= 1 ? true : undefined), 'the initialize answer');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const list = await until(
        () =>
          jsonLines(stdout).find((m) => (m as { id?: number }).id === 2) as
            | { result: { tools: { name: string }[] } }
            | undefined,
        'tools/list',
      );
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
      const home = path.join(cwd, 'home');
      await mkdir(home);
      const { io, stderr } = fakeIo({ tools: testTools, env: { HOME: home } });
      io.signal = controller.signal;
      const running = mcpCommand({ positionals: ['serve'], args: argsFor(cwd, { http: '0' }) }, io);
      const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr())?.[1], 'the endpoint line');
      const token = /token: (\S+) \(written to (\S+), mode 0600/.exec(stderr())!;
      expect(await readFile(token[2]!, 'utf8')).toBe(`${token[1]}\n`);
      expect(token[2]).toBe(path.join(home, '.toolshed', `mcp-serve-${new URL(url).port}.token`));
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token[1]}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toMatch(/[0-9a-f-]{36}/);
      expect(await response.text()).toContain('"serverInfo"');
      controller.abort();
      expect(await running).toBe(0);
      // The token of this start is gone with it.
      await expect(readFile(token[2]!, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('toolshed mcp through runCli', () => {
  test('mcp list exits 2 without a config, with a config that is missing or not JSON, and for --http', async () => {
    const cwd = await tempDir();
    try {
      const none = await cli(['mcp', 'list', '--cwd', cwd]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('No MCP servers to list: give --mcp-config FILE, or put a .mcp.json in');
      const missing = await cli(['mcp', 'list', '--mcp-config', path.join(cwd, 'nope.json'), '--cwd', cwd]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('nope.json');
      const broken = path.join(cwd, 'broken.json');
      await writeFile(broken, '{"mcpServers": {');
      const bad = await cli(['mcp', 'list', '--mcp-config', broken, '--cwd', cwd]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`"${broken}" is not valid JSON`);
      const http = await cli(['mcp', 'list', '--http', '80', '--cwd', cwd]);
      expect(http.code).toBe(2);
      expect(http.stderr).toContain('--http is a flag of "toolshed mcp serve"');
      expect(http.stdout).toBe('');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('mcp list exits 1 when a configured server fails to start, and 0 when every one connects', async () => {
    const cwd = await tempDir();
    try {
      await writeFile(
        path.join(cwd, '.mcp.json'),
        JSON.stringify({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER] } } }),
      );
      const ok = await cli(['mcp', 'list', '--json', '--mcp-config', path.join(cwd, '.mcp.json'), '--cwd', cwd]);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toEqual([expect.objectContaining({ name: 'fault', state: 'connected' })]);
      const config = path.join(cwd, 'gone.json');
      await writeFile(config, JSON.stringify({ mcpServers: { gone: { command: path.join(cwd, 'missing') } } }));
      const failed = await cli(['mcp', 'list', '--mcp-config', config, '--cwd', cwd]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^gone +stdio +failed/m);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('mcp without a subcommand, or with an unknown one, exits 2 with the mcp usage', async () => {
    for (const argv of [['mcp'], ['mcp', 'serv']]) {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/needs a subcommand: serve, list, login or prompt|Unknown subcommand "mcp serv"/);
      expect(r.stderr).toContain('Usage: toolshed mcp <serve|list>');
    }
  });

  test('mcp serve refuses a settings file with a typo before serving, naming the file and the key', async () => {
    const cwd = await tempDir();
    try {
      const file = path.join(cwd, 'settings.json');
      await writeFile(file, JSON.stringify({ permissions: { denny: ['Writer'] } }));
      const r = await cli(['mcp', 'serve', '--settings', file, '--cwd', cwd], { tools: testTools });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Settings file "${file}": permissions.denny is not a permissions key`);
      expect(r.stdout).toBe('');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  test('mcp serve leaves out a tool that a project settings file denies outright', async () => {
    const cwd = await tempDir();
    try {
      await mkdir(path.join(cwd, '.toolshed'));
      await writeFile(
        path.join(cwd, '.toolshed', 'settings.json'),
        JSON.stringify({ permissions: { deny: ['Writer'] } }),
      );
      const stdin = new PassThrough();
      const { io, stdout } = fakeIo({ tools: testTools });
      io.stdin = stdin;
      const running = runCli(['mcp', 'serve', '--only', 'mcp', '--cwd', cwd], io);
      const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      });
      await until(() => (jsonLines(stdout).length >= 1 ? true : undefined), 'the initialize answer');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const list = await until(
        () =>
          jsonLines(stdout).find((m) => (m as { id?: number }).id === 2) as
            | { result: { tools: { name: string }[] } }
            | undefined,
        'tools/list',
      );
      const names = list.result.tools.map((t) => t.name);
      expect(names).toContain('Echo');
      expect(names).not.toContain('Writer');
      stdin.end();
      expect(await running).toBe(0);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
