// `toolshed mcp prompt` and chat's `/mcp__server__prompt`, against a real server (server-everything).
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@toolshed/tool-agent/testing';
import { cli, EMPTY_HOME, tempDir } from './_test_io.ts';

const EVERYTHING = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/mcp-bridge/node_modules/.bin/mcp-server-everything',
);

let cwd: string;
let config: string;
beforeAll(async () => {
  cwd = await tempDir();
  config = path.join(cwd, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const prompt = (...words: string[]) =>
  cli(['mcp', 'prompt', ...words, '--cwd', cwd, '--setting-sources', '', '--mcp-config', config], {
    env: { HOME: EMPTY_HOME },
  });

describe('toolshed mcp prompt', () => {
  test('lists the prompts as /mcp__server__prompt commands with their arguments', async () => {
    const r = await prompt();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\/mcp__everything__args-prompt <city> \[state\] +A prompt with two arguments/m);
    expect(r.stdout).toMatch(/^\/mcp__everything__simple-prompt +A prompt with no arguments$/m);
    const json = await prompt('everything', '--json');
    const listed = JSON.parse(json.stdout) as { name: string; origin: string }[];
    expect(listed.find((p) => p.name === 'mcp__everything__args-prompt')?.origin).toBe('MCP server "everything"');
  }, 60_000);

  test('gets one with its arguments, positional or name=value, and prints its messages', async () => {
    const r = await prompt('everything', 'args-prompt', 'Paris', 'state=Texas');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Prompt "args-prompt" of MCP server "everything" (city="Paris", state="Texas"):\n\n[user] What\'s weather in Paris, Texas?\n',
    );
    // The whole name works too, and a quoted word stays one argument.
    const whole = await prompt('mcp__everything__args-prompt', 'New York', 'New York');
    expect(whole.stdout).toContain("[user] What's weather in New York, New York?");
  }, 60_000);

  test('a missing argument, an unknown server or prompt is a usage error with the usage or a did-you-mean', async () => {
    const missing = await prompt('everything', 'args-prompt');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'The prompt mcp__everything__args-prompt needs "city": toolshed mcp prompt mcp__everything__args-prompt <city> [state] (or name=value).',
    );
    const server = await prompt('everythin', 'args-prompt');
    expect(server.code).toBe(2);
    expect(server.stderr).toContain('No MCP server named "everythin". Did you mean "everything"? Servers: everything.');
    const name = await prompt('everything', 'args-promt');
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('MCP server "everything" has no prompt "args-promt". Did you mean "args-prompt"');
    const extra = await prompt('everything', 'simple-prompt', 'stray');
    expect(extra.stderr).toContain('takes no arguments; unexpected "stray"');
  }, 60_000);

  test('without MCP servers it says how to give some', async () => {
    const r = await cli(['mcp', 'prompt', '--cwd', cwd, '--setting-sources', ''], { env: { HOME: EMPTY_HOME } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No MCP servers to get prompts from: give --mcp-config FILE');
  });
});

describe("chat's /mcp__server__prompt", () => {
  let server: FakeModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test("sends the prompt's text as the user's message; a typo or a missing argument is said and nothing is sent", async () => {
    server = await startFakeModelServer([{ content: [{ type: 'text', text: 'Sunny.' }] }]);
    const r = await cli(['chat', '--cwd', cwd, '--only', 'mcp', '--setting-sources', '', '--mcp-config', config], {
      stdin: '/mcp__everything__args-promt Paris\n/mcp__everything__args-prompt\n/mcp__everything__args-prompt Paris\n',
      env: { HOME: EMPTY_HOME, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'toolshed: /mcp__everything__args-promt is not an MCP prompt. Did you mean /mcp__everything__args-prompt',
    );
    expect(r.stderr).toContain(
      'toolshed: /mcp__everything__args-prompt needs "city": /mcp__everything__args-prompt <city> [state]',
    );
    expect(r.stdout).toContain('Sunny.');
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("What's weather in Paris?");
  }, 60_000);
});
