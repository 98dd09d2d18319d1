import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, PACKAGE_DIR, startProcess, stopProcess } from './testdata/_helpers.ts';

// What a call costs in memory follows what it returns, not what the server produced. Each call
// runs in a process of its own (testdata/output_memory_child.ts), which reports how much its peak
// RSS rose during the call; the bounds are generous so that they never flake.

let dir: string;
let http: ChildProcess;
let url: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-mcp-memory-'));
  const port = await freePort();
  http = await startProcess(process.execPath, [path.join(PACKAGE_DIR, 'src', 'testdata', 'flood_http_server.mjs')], {
    env: { PORT: String(port) },
    ready: /listening/,
  });
  url = `http://127.0.0.1:${port}/mcp`;
});
afterAll(async () => {
  await stopProcess(http);
  await rm(dir, { recursive: true, force: true });
});

interface Measured {
  growthMb: number;
  isError: boolean;
  text: string;
  /** How the next call of the same server went ('ok' or its error). */
  next: string;
}

async function measure(tool: string, input: unknown, url?: string): Promise<Measured> {
  const child = path.join(PACKAGE_DIR, 'src', 'testdata', 'output_memory_child.ts');
  const args = ['--conditions=@toolshed/source', '--import', 'tsx', child, dir, tool, JSON.stringify(input)];
  const { stdout } = await promisify(execFile)(process.execPath, url ? [...args, url] : args, {
    cwd: PACKAGE_DIR,
    maxBuffer: 1 << 20,
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Measured;
}

describe('memory of an MCP call', () => {
  test('a server that writes 400 MB to stderr on one line costs the bridge little, and the call answers', async () => {
    const run = await measure('flood_stderr', { mb: 400 });
    expect(run.isError).toBe(false);
    expect(run.text).toBe('wrote 400 MB to stderr');
    expect(run.growthMb).toBeLessThan(150);
  }, 60_000);

  const tooLarge =
    /MCP server "fault" sent a message of more than 10 MB \(the most the bridge reads as one message\) while mcp__fault__\w+ was running/;

  test('a stdio result over the message limit says so and what to do, and the server is restarted', async () => {
    const run = await measure('big', { chars: 30_000_000 });
    expect(run.isError).toBe(true);
    expect(run.text).toMatch(tooLarge);
    expect(run.text).toMatch(/ask the tool for less/);
    expect(run.next).toBe('ok');
    // The SDK's stdio ReadBuffer concatenates every chunk into one buffer until its 10 MB limit: the
    // garbage that leaves grows with the square of the limit, and how much RSS it takes depends on
    // when the collector runs (under 150 MB alone, 669 MB once in a full parallel test run). This
    // bound catches only a gross regression; the message and the restart above are what this test holds.
    expect(run.growthMb).toBeLessThan(1000);
  }, 60_000);

  test.each([
    ['one JSON body', 'big'],
    ['one SSE event', 'big_sse'],
  ])(
    'an HTTP server answering with 300 MB in %s costs the bridge little and the call says why it failed',
    async (_, tool) => {
      const run = await measure(tool, { mb: 300 }, url);
      expect(run.isError).toBe(true);
      expect(run.text).toMatch(tooLarge);
      expect(run.next).toBe('ok');
      expect(run.growthMb).toBeLessThan(150);
    },
    60_000,
  );
});
