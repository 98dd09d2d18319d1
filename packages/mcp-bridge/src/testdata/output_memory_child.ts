// Runs one MCP call in a process of its own and prints how much its peak RSS (VmHWM) rose during
// the call, for the tests that check that what a call costs follows what it returns.
import { readFileSync } from 'node:fs';
import { contentToText, createSession } from '@toolshed/core';
import { mcpServers } from '../family.ts';
import { FAULT_SERVER } from './_helpers.ts';

const [dir, tool, input, url] = process.argv.slice(2) as [string, string, string, string | undefined];
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const server = url
  ? { type: 'http' as const, url }
  : { command: process.execPath, args: [FAULT_SERVER], env: { FAULT_EXTRA_TOOLS: '1' } };
const session = await createSession({
  cwd: dir,
  homeDir: dir,
  permissions: { allow: ['mcp__fault'] },
  families: [mcpServers({ mcpServers: { fault: server } }, { homeDir: dir })],
});
const use = (name: string, args: unknown, id: string) => ({ type: 'tool_use' as const, id, name, input: args });
await session.run([use('mcp__fault__pid', {}, 'warm')]);
const before = peakMb();
const [result] = await session.run([use(`mcp__fault__${tool}`, JSON.parse(input), 'measured')]);
const growthMb = peakMb() - before;
const text = contentToText(result!.content);
// The server is still usable afterwards.
const [next] = await session.run([use('mcp__fault__pid', {}, 'next')]);
process.stdout.write(
  JSON.stringify({
    growthMb,
    isError: result!.is_error === true,
    text: text.slice(0, 2000),
    next: next!.is_error ? contentToText(next!.content) : 'ok',
  }),
);
await session.close();
