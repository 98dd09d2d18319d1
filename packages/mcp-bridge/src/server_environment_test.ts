import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSession } from '@toolshed/core';
import { mcpServers, type McpServersOptions } from './mod.ts';
import { FAULT_SERVER } from './testdata/_helpers.ts';

// The fault server lists its extra tools only when FAULT_EXTRA_TOOLS is 1 in its environment:
// which tools it lists tells what environment it was started with.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-server-env-'));
  process.env.FAULT_EXTRA_TOOLS = '1';
});
afterAll(async () => {
  delete process.env.FAULT_EXTRA_TOOLS;
  await rm(dir, { recursive: true, force: true });
});

async function toolNames(options: McpServersOptions, env?: Record<string, string>): Promise<string[]> {
  const session = await createSession({
    cwd: dir,
    homeDir: dir,
    families: [
      mcpServers(
        { mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER], ...(env ? { env } : {}) } } },
        { homeDir: dir, ...options },
      ),
    ],
  });
  try {
    return session.catalog().map((e) => e.name);
  } finally {
    await session.close();
  }
}

describe("a stdio server's environment", () => {
  test("by default the SDK's safe environment only: a variable of this process does not reach the server", async () => {
    expect(await toolNames({})).not.toContain('mcp__fault__structured');
  });

  test('with inheritEnv, the whole environment, as Claude Code starts servers', async () => {
    expect(await toolNames({ inheritEnv: true })).toContain('mcp__fault__structured');
  });

  test("the server's own env wins over the inherited one", async () => {
    expect(await toolNames({ inheritEnv: true }, { FAULT_EXTRA_TOOLS: '0' })).not.toContain('mcp__fault__structured');
  });
});
