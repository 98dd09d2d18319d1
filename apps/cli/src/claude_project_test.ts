// A project set up for Claude Code — .claude/settings.json with deny, ask and allow rules, a
// command hook that blocks `rm` with exit 2, a prompt hook, an http hook (a loopback server that
// blocks `git clean`), an `env` key, and a .mcp.json with a
// real stdio MCP server — driven through the real `toolshed` process, first untrusted (only
// what tightens applies) and then trusted with `toolshed trust`, with a fake HOME.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from './_test_io.ts';

/** The built CLI, as a user's shell starts it (`pnpm build` first, as `pnpm test` does). */
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/toolshed.js');

const FAULT_SERVER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/mcp-bridge/src/testdata/fault_server.mjs',
);

let cwd: string;
let home: string;
let marker: string;
let hookServer: Server;
/** The bodies the http hook was POSTed. */
const posted: { tool_name?: string; tool_input?: { command?: string }; hook_event_name?: string }[] = [];

beforeAll(async () => {
  hookServer = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as (typeof posted)[number];
      posted.push(body);
      res.setHeader('content-type', 'application/json');
      res.end(
        body.tool_input?.command?.startsWith('git clean')
          ? JSON.stringify({ decision: 'block', reason: 'git clean is blocked by the http hook' })
          : '{}',
      );
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/pre-tool-use`;
  const root = await realpath(await tempDir());
  cwd = path.join(root, 'proj');
  home = path.join(root, 'home');
  marker = path.join(root, 'other-server-started');
  await mkdir(path.join(cwd, 'src'), { recursive: true });
  await mkdir(path.join(cwd, '.claude', 'hooks'), { recursive: true });
  await mkdir(path.join(home, '.claude'), { recursive: true });
  await writeFile(path.join(cwd, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(path.join(cwd, '.env'), 'SECRET=1\n');
  const hook = path.join(cwd, '.claude', 'hooks', 'no-rm.sh');
  await writeFile(
    hook,
    '#!/bin/sh\ninput=$(cat)\ncase "$input" in\n  *\'"command":"rm \'*) echo "rm is blocked by the project hook" >&2; exit 2;;\nesac\nexit 0\n',
  );
  await chmod(hook, 0o755);
  await writeFile(
    path.join(cwd, '.claude', 'settings.json'),
    JSON.stringify({
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      model: 'claude-opus-4-1',
      env: { GREETING: 'hello-from-claude-settings' },
      enabledMcpjsonServers: ['fault'],
      permissions: {
        allow: ['Bash(touch:*)', 'mcp__fault__pid', 'MultiEdit'],
        deny: ['Read(./.env)'],
        ask: ['Bash(git push:*)'],
      },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: './.claude/hooks/no-rm.sh' },
              { type: 'prompt', prompt: 'Is this command safe? $ARGUMENTS' },
            ],
          },
          { matcher: 'Bash', hooks: [{ type: 'http', url: hookUrl }] },
        ],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
      },
    }),
  );
  // The user's own Claude Code settings apply whether or not the project is trusted.
  await writeFile(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] }, statusLine: { type: 'command', command: 'echo' } }),
  );
  await writeFile(
    path.join(cwd, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        fault: { command: process.execPath, args: [FAULT_SERVER] },
        // Not in enabledMcpjsonServers: never started, even once the project is trusted.
        other: {
          command: process.execPath,
          args: ['-e', 'require("fs").writeFileSync(process.argv[1], "started")', marker],
        },
      },
    }),
  );
});

afterAll(async () => {
  hookServer.closeAllConnections();
  await new Promise((resolve) => hookServer.close(resolve));
});

/** Runs `toolshed ARGS` in the project folder with the fake HOME, to the end. */
function toolshed(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, HOME: home, TOOLSHED_DEBUG: '', NO_COLOR: '1', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a Claude Code project, untrusted: only what tightens applies', () => {
  test('check: the deny rules of .claude/settings.json and ~/.claude/settings.json apply, and one line names the files read', async () => {
    const r = await toolshed(['check', 'Read', '{"file_path":".env"}', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({
      behavior: 'deny',
      rule: 'Read(./.env)',
      source: path.join(cwd, '.claude', 'settings.json'),
    });
    expect(r.stderr).toContain('toolshed: read ~/.claude/settings.json, .claude/settings.json, .mcp.json\n');
    // Said once, never a stop: the Claude-only key, the prompt hook, the Claude-only event.
    expect(r.stderr).toContain('"model" is a Claude Code setting that Toolshed does not use; ignored.');
    expect(r.stderr).toContain('"statusLine" is a Claude Code setting');
    expect(r.stderr).toContain('is a Claude Code "prompt" hook');
    expect(r.stderr).toContain('hooks.UserPromptSubmit is a Claude Code event that Toolshed does not run');
    expect(r.stderr).toContain(`The project folder "${cwd}" is not trusted`);
    const curl = await toolshed(['check', 'Bash', '{"command":"curl https://example.com"}', '--json']);
    expect(JSON.parse(curl.stdout)).toMatchObject({
      behavior: 'deny',
      rule: 'Bash(curl:*)',
      source: path.join(home, '.claude', 'settings.json'),
    });
  });

  test('call: the allow rule is ignored until trusted, so a write asks (and no prompt: denied)', async () => {
    const r = await toolshed(['call', 'Bash', '{"command":"touch made-untrusted"}']);
    expect(existsSync(path.join(cwd, 'made-untrusted'))).toBe(false);
    expect(posted, 'the hooks of an untrusted project do not run').toEqual([]);
    expect(r.stdout + r.stderr).toMatch(/touch/);
    expect(r.stderr).toContain(
      'ignored from .claude/settings.json: 3 allow rules "Bash(touch:*)", "mcp__fault__pid", "MultiEdit"; hooks (PreToolUse); env; enabledMcpjsonServers.',
    );
  });

  test('tools: the servers of .mcp.json are not started, with a notice saying how to start them', async () => {
    const r = await toolshed(['tools', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('mcp__fault__');
    expect(r.stderr).toContain(
      `The servers of ${path.join(cwd, '.mcp.json')} ("fault", "other") were not started: the project folder is not trusted`,
    );
    expect(existsSync(marker)).toBe(false);
  });

  test('rules lint: the project lints clean; Claude Code tools are warnings, MCP rules of .mcp.json are fine', async () => {
    const r = await toolshed(['rules', 'lint']);
    expect(r.stdout).toContain('warning [unknown_tool]');
    expect(r.stdout).toContain('Rule "MultiEdit" is for Claude Code\'s tool "MultiEdit"');
    expect(r.stdout).not.toContain('mcp__fault__pid"');
    expect(r.stdout).toMatch(/0 errors, \d+ warnings?/);
    expect(r.code).toBe(0);
  });
});

test('rules lint agrees with check: the rules check suggests lint clean, and then check allows', async () => {
  const outsideFile = path.join(home, 'notes.txt');
  await writeFile(outsideFile, 'a note\n');
  const calls = [
    ['Read', { file_path: outsideFile }],
    ['Bash', { command: 'touch src/c.ts && ls src' }],
    ['Write', { file_path: path.join(cwd, 'src', 'b.ts'), content: 'export {};\n' }],
  ] as const;
  for (const [tool, input] of calls) {
    const asked = JSON.parse((await toolshed(['check', tool, JSON.stringify(input), '--json'])).stdout) as {
      behavior: string;
      suggestions: string[];
    };
    expect(asked.behavior, tool).toBe('ask');
    expect(asked.suggestions.length, tool).toBeGreaterThan(0);
    const flags = asked.suggestions.flatMap((rule) => ['--allow', rule]);
    const lint = await toolshed(['rules', 'lint', '--json', ...flags]);
    const findings = (JSON.parse(lint.stdout) as { findings: { rule?: string; source?: string }[] }).findings;
    expect(
      findings.filter((f) => f.source === 'cli'),
      `${tool}: ${asked.suggestions.join(' ')}`,
    ).toEqual([]);
    const allowed = JSON.parse((await toolshed(['check', tool, JSON.stringify(input), '--json', ...flags])).stdout);
    expect(allowed.behavior, `${tool} with ${asked.suggestions.join(' ')}`).toBe('allow');
  }
}, 120_000);

describe('the same project after toolshed trust', () => {
  beforeAll(async () => {
    const r = await toolshed(['trust', cwd]);
    expect(r.code).toBe(0);
  });

  test('call: the command hook that exits 2 blocks rm, and src survives', async () => {
    const r = await toolshed(['call', 'Bash', '{"command":"rm -rf src"}', '--yes']);
    expect(r.stdout + r.stderr).toContain('rm is blocked by the project hook');
    expect(existsSync(path.join(cwd, 'src', 'a.ts'))).toBe(true);
    expect(r.stderr).not.toContain('is not trusted');
    expect(r.stderr).toContain('is a Claude Code "prompt" hook');
  });

  test('call: the http hook is POSTed the call as JSON, and its block stops git clean', async () => {
    const r = await toolshed(['call', 'Bash', '{"command":"git clean -fdx"}', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('git clean is blocked by the http hook');
    expect(posted.at(-1)).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git clean -fdx' },
    });
    expect(existsSync(path.join(cwd, 'src', 'a.ts'))).toBe(true);
  });

  test("call: the allow rule applies, and the env key sets the Bash tool's environment", async () => {
    const made = await toolshed(['call', 'Bash', '{"command":"touch made-trusted"}']);
    expect(made.code).toBe(0);
    expect(existsSync(path.join(cwd, 'made-trusted'))).toBe(true);
    const env = await toolshed(['call', 'Bash', '{"command":"echo \\"greeting=$GREETING\\""}', '--yes']);
    expect(env.stdout).toContain('greeting=hello-from-claude-settings');
  });

  test('check: deny and ask rules still apply', async () => {
    expect(JSON.parse((await toolshed(['check', 'Read', '{"file_path":".env"}', '--json'])).stdout)).toMatchObject({
      behavior: 'deny',
    });
    expect(
      JSON.parse((await toolshed(['check', 'Bash', '{"command":"git push origin main"}', '--json'])).stdout),
    ).toMatchObject({ behavior: 'ask', rule: 'Bash(git push:*)' });
  });

  test('tools, search and call: the enabled server of .mcp.json starts and its tools run; the one not enabled does not start', async () => {
    const tools = await toolshed(['tools']);
    expect(tools.stdout).toContain('mcp__fault__pid');
    expect(tools.stderr).toContain('Servers of');
    expect(tools.stderr).toContain('"other" (not in enabledMcpjsonServers)');
    const search = await toolshed(['search', 'process id']);
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/^ +1 +[\d.]+ +mcp__fault__pid /m);
    const pid = await toolshed(['call', 'mcp__fault__pid', '{}']);
    expect(pid.code).toBe(0);
    expect(pid.stdout).toMatch(/\d+/);
    expect(existsSync(marker)).toBe(false);
  });

  test("a .mcp.json server starts with the user's environment, as Claude Code starts it (tools and mcp list)", async () => {
    // The fault server lists its extra tools only when FAULT_EXTRA_TOOLS=1 reaches it; .mcp.json does not set it.
    const tools = await toolshed(['tools'], { FAULT_EXTRA_TOOLS: '1' });
    expect(tools.stdout).toContain('mcp__fault__structured');
    const list = await toolshed(['mcp', 'list', '--json'], { FAULT_EXTRA_TOOLS: '1' });
    const without = await toolshed(['mcp', 'list', '--json']);
    const count = (out: string) =>
      (JSON.parse(out) as { name: string; tools: number }[]).find((s) => s.name === 'fault')!.tools;
    expect(count(list.stdout)).toBeGreaterThan(count(without.stdout));
  });

  test('mcp list: the server not enabled is listed as not started, and is not started', async () => {
    const list = await toolshed(['mcp', 'list']);
    expect(list.stdout).toMatch(/^fault +stdio +connected /m);
    expect(list.stdout).toMatch(/^other +stdio +not started .*not in enabledMcpjsonServers/m);
    expect(list.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const json = JSON.parse((await toolshed(['mcp', 'list', '--json'])).stdout) as { name: string; state: string }[];
    expect(json.map((s) => [s.name, s.state])).toEqual([
      ['fault', 'connected'],
      ['other', 'not-started'],
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  test('run: a transcript runs under the same rules and hook', async () => {
    const transcript = path.join(cwd, 'transcript.json');
    await writeFile(
      transcript,
      JSON.stringify([
        [
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf src' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '.env' } },
          { type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'echo $GREETING' } },
        ],
      ]),
    );
    const r = await toolshed(['run', transcript, '--json', '--yes']);
    const results = (
      JSON.parse(r.stdout) as { turns: { tool_use_id: string; is_error?: boolean; content: unknown }[][] }
    ).turns[0]!;
    const text = (id: string) => JSON.stringify(results.find((x) => x.tool_use_id === id)!.content);
    expect(text('t1')).toContain('rm is blocked by the project hook');
    expect(text('t2')).toContain('Read(./.env)');
    expect(text('t3')).toContain('hello-from-claude-settings');
    expect(existsSync(path.join(cwd, 'src', 'a.ts'))).toBe(true);
    expect(await readFile(path.join(cwd, '.env'), 'utf8')).toBe('SECRET=1\n');
  });
});
