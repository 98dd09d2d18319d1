import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PACKAGE_DIR } from './testdata/_helpers.ts';

// What a call costs in memory follows what it returns, not what the server produced. Each call
// runs in a process of its own (testdata/output_memory_child.ts), which reports how much its peak
// RSS rose during the call; the bounds are generous so that they never flake.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-mcp-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Measured {
  growthMb: number;
  isError: boolean;
  text: string;
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
});
