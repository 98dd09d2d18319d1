import { expect, test } from 'vitest';
import { contentToText, createSession } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { LOG_FLOOD_SERVER } from './testdata/_helpers.ts';

// Attack: a server that ignores logging/setLevel and sends log messages without end. Each became
// a session notice, kept for the whole session (and copied by every notices() call), so a server
// could fill the agent's memory; and a "debug" line the client never asked for was shown.
test('a server that floods log messages gets a bounded number of notices, then one saying the rest were dropped', async () => {
  const session = await createSession({
    cwd: process.cwd(),
    permissions: { allow: ['mcp__flood'] },
    families: [mcpServers({ mcpServers: { flood: { command: process.execPath, args: [LOG_FLOOD_SERVER, '1200'] } } })],
  });
  try {
    const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'mcp__flood__flood', input: {} }]);
    expect(contentToText(result!.content)).toBe('sent 1200 log messages');
    const fromServer = session.notices().filter((n) => n.message.startsWith('MCP server "flood"'));
    expect(fromServer.length).toBeLessThanOrEqual(1001);
    expect(fromServer.at(-1)!.message).toMatch(/more than 1000 .*not shown/);
    expect(fromServer.some((n) => n.message.includes('debug line'))).toBe(false);
  } finally {
    await session.close();
  }
}, 60_000);
