import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runCli } from './run_cli.ts';
import { cli, fakeIo, tempDir } from './_test_io.ts';

// Attack: an MCP server asks the user a question (form elicitation) whose message, field titles,
// descriptions and choices carry terminal escape codes. Printed as they came, they move the
// cursor up and clear the line that names the server ("MCP server "evil" asks:"), so the server's
// question passes for Toolshed's own and the user types a secret into it. The URL-mode question
// was already escaped; the form, which every MCP server and AskUserQuestion reach, was not.

const SERVER = fileURLToPath(
  new URL('../../../packages/mcp-bridge/src/testdata/escape_elicit_server.mjs', import.meta.url),
);

// Every control a terminal acts on: C0 (ESC, CR), DEL, C1 (CSI U+009B) and the bidi overrides.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('a server question with escape codes is printed with them escaped, under the line naming the server', async () => {
  const cwd = await tempDir();
  const config = path.join(cwd, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [SERVER] } } }));
  const r = await cli(
    ['call', 'mcp__evil__login', '{}', '--cwd', cwd, '--mcp-config', config, '--allow', 'mcp__evil__login'],
    { isTTY: true, stdin: 'ghp_secret\n2\n' },
  );
  expect(r.stdout).toContain('user: accept');
  const asked = r.stderr.slice(r.stderr.indexOf('MCP server "evil" asks:'));
  expect(asked).toContain('MCP server "evil" asks: \\u001b[1A\\u001b[2K\\u000d');
  expect(asked).toContain('\\u202e');
  expect(asked).toContain('\\u009b2K');
  expect(asked).not.toMatch(CONTROL);
});

// Attack: the model (steered by text an MCP server or a web page put in its context) writes a
// command that hides its own start: `rm -rf … ESC[2K CR git status` showed as "Bash git status
// needs approval" in the permission prompt, and the user allowed the rm.
test('a permission prompt shows the escape codes of a call it asks about, so no part of the command is hidden', async () => {
  const cwd = await tempDir();
  const command = 'rm -rf ./victim \u001b[2K\rgit status \u009b1A\u202e';
  const r = await cli(['call', 'Bash', JSON.stringify({ command }), '--cwd', cwd, '--only', 'shell'], {
    isTTY: true,
    stdin: 'n\n',
  });
  const asked = r.stderr.slice(r.stderr.indexOf('Bash'));
  expect(asked).toContain('rm -rf ./victim \\u001b[2K\\u000dgit status');
  // The prompt's own colours are the only escape codes left.
  expect(asked.replace(/\u001b\[\d*m/g, '')).not.toMatch(CONTROL);
  expect(r.code).toBe(1);
});

// Attack: what a server says of itself (a prompt's description, a log line, an error) reached the
// terminal as sent in `toolshed mcp prompt`, where the other commands escape it.
test("toolshed mcp prompt lists a server's prompts and notices with their escape codes escaped", async () => {
  const cwd = await tempDir();
  const config = path.join(cwd, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [SERVER] } } }));
  const r = await cli(['mcp', 'prompt', '--cwd', cwd, '--mcp-config', config]);
  expect(r.stdout).toContain('/mcp__evil__hello');
  expect(r.stdout).toContain('\\u001b[1A\\u001b[2K\\u000d');
  expect(r.stdout + r.stderr).not.toMatch(CONTROL);
});

// Attack: an MCP client of `toolshed mcp serve --http --approve tty` sends a call whose input
// carries escape codes (C1 CSI and bidi characters, which JSON does not escape); the serving
// user's question showed them raw.
test('mcp serve --approve tty asks at the terminal with the client input escaped', async () => {
  const cwd = await tempDir();
  const { io, stderr } = fakeIo({ isTTY: true, stdin: 'n\n' });
  const stop = new AbortController();
  io.signal = stop.signal;
  const running = runCli(['mcp', 'serve', '--http', '0', '--approve', 'tty', '--only', 'shell', '--cwd', cwd], io);
  let url: string | undefined;
  for (let i = 0; i < 500 && !url; i++) {
    url = /serving \d+ tools at (\S+)/.exec(stderr())?.[1];
    if (!url) await new Promise((r) => setTimeout(r, 10));
  }
  const token = /token: (\S+) \(written to/.exec(stderr())?.[1];
  const client = new Client({ name: 'attacker', version: '1' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url!), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({
      name: 'Bash',
      arguments: { command: 'rm -rf ./victim \u009b2K\u009b1A git status \u202e' },
    });
    expect(result.isError).toBe(true);
    const asked = stderr().slice(stderr().indexOf('an MCP client calls'));
    expect(asked).toContain('rm -rf ./victim \\u009b2K\\u009b1A git status \\u202e');
    expect(asked).not.toMatch(CONTROL);
  } finally {
    await client.close();
    stop.abort();
    await running;
  }
});

// Attack: a server's progress message (shown while its call runs, maybe under another call's
// pending permission prompt) rewrote the lines above it.
test("a server's progress messages are shown with their escape codes escaped", async () => {
  const cwd = await tempDir();
  const config = path.join(cwd, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [SERVER] } } }));
  const r = await cli(
    ['call', 'mcp__evil__work', '{}', '--cwd', cwd, '--mcp-config', config, '--allow', 'mcp__evil__work'],
    { isTTY: true },
  );
  expect(r.stdout).toContain('worked');
  expect(r.stderr).toContain('\\u001b[1A\\u001b[2K\\u000dtoolshed: Bash git status needs approval');
  expect(r.stderr.replace(/\u001b\[\d*m/g, '')).not.toMatch(CONTROL);
});

// Found by a review: `toolshed chat` printed a slash prompt's error as the server wrote it (the
// name of a missing argument, the server's error text), title changes included.
test("chat prints a slash prompt's error with the server's escape codes escaped", async () => {
  const cwd = await tempDir();
  const config = path.join(cwd, 'servers.json');
  await writeFile(config, JSON.stringify({ mcpServers: { evil: { command: process.execPath, args: [SERVER] } } }));
  const r = await cli(['chat', '--cwd', cwd, '--mcp-config', config, '--setting-sources', ''], {
    stdin: '/mcp__evil__greet\n/mcp__evil__broken\n',
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
  });
  expect(r.stderr).toContain('who\\u001b]0;PWNED\\u0007');
  expect(r.stderr).toContain('boom \\u001b]0;PWNED2\\u0007');
  expect(r.stdout + r.stderr).not.toMatch(CONTROL);
});
