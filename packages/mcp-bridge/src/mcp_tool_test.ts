import os from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FileStateCache, type ToolContext, type ToolProgress } from '@toolshed/core';
import { McpConnection } from './_server_connection.ts';
import { schemaCompilations } from './_json_input.ts';
import { buildMcpTool, MAX_MCP_DESCRIPTION_CHARS } from './mcp_tool.ts';
import { FAULT_SERVER } from './testdata/_helpers.ts';

let connection: McpConnection;

beforeAll(async () => {
  connection = new McpConnection(
    'fault',
    { command: process.execPath, args: [FAULT_SERVER] },
    {
      cwd: os.tmpdir(),
      startTimeoutMs: 15_000,
      toolTimeoutMs: 10_000,
      reconnectDelayMs: 10,
      maxReconnectDelayMs: 10,
      clientInfo: { name: 'test', version: '0' },
      onToolsChanged: () => {},
    },
  );
  await connection.connect();
});

afterAll(async () => {
  await connection?.close();
});

const ctx = { cwd: os.tmpdir(), fileState: new FileStateCache() } as unknown as ToolContext;
const info = (name: string) => connection.tools.find((t) => t.name === name)!;

describe('buildMcpTool', () => {
  test('takes the flags from the annotations and marks the tool as MCP and cancellable', () => {
    const sleep = buildMcpTool(connection, info('sleep'), { name: 'mcp__fault__sleep' });
    expect([
      sleep.isMcp,
      sleep.interruptBehavior,
      sleep.isReadOnly({}),
      sleep.isConcurrencySafe({}),
      sleep.isDestructive({}),
    ]).toEqual([true, 'cancel', true, true, false]);
    const fail = buildMcpTool(connection, info('fail'), { name: 'mcp__fault__fail' });
    expect([fail.isReadOnly({}), fail.isConcurrencySafe({}), fail.isDestructive({})]).toEqual([false, false, true]);
    expect(sleep.inputJSONSchema).toBe(info('sleep').inputSchema);
    // One rule for this tool, never the server-wide mcp__fault that "always" would save beside it.
    expect(sleep.permissionSuggestions({})).toEqual(['mcp__fault__sleep']);
    // ToolSearch searches the server's tools also as one group.
    expect(sleep.searchGroup).toBe('mcp:fault');
  });

  test('caps a long description and fills in a missing one', () => {
    const long = buildMcpTool(
      connection,
      { ...info('pid'), description: 'word '.repeat(1000) },
      { name: 'mcp__fault__pid' },
    );
    expect((long.description as string).length).toBeLessThanOrEqual(MAX_MCP_DESCRIPTION_CHARS);
    expect(long.description as string).toMatch(/… \[truncated\]$/);
    const none = buildMcpTool(
      connection,
      { name: 'pid', inputSchema: { type: 'object' } },
      { name: 'mcp__fault__pid' },
    );
    expect(none.description).toBe('Tool "pid" of MCP server "fault".');
  });

  test('calls the server, passing progress on, and marks an isError result as such with its content', async () => {
    const sleep = buildMcpTool(connection, info('sleep'), { name: 'mcp__fault__sleep' });
    const progress: ToolProgress[] = [];
    // The SDK drops a progress notification that it reads in the same chunk as the result, so
    // the server sleeps long enough for the two to arrive apart even on a loaded machine.
    const out = await sleep.call({ ms: 250 }, ctx, {
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
    });
    expect(out.data).toBe('slept 250 ms');
    expect(progress).toEqual([{ message: 'sleeping', progress: 0, total: 1 }]);
    const fail = buildMcpTool(connection, info('fail'), { name: 'mcp__fault__fail' });
    const failed = await fail.call({}, ctx, { signal: new AbortController().signal, onProgress: () => {} });
    expect(failed.isError).toBe(true);
    expect((failed.data as { type: string }[]).map((b) => b.type)).toEqual(['text', 'image']);
    const silent = await fail.call({ empty: true }, ctx, {
      signal: new AbortController().signal,
      onProgress: () => {},
    });
    expect(silent).toEqual({
      data: 'MCP server "fault" reported an error from "fail" without a message.',
      isError: true,
    });
  });

  test('a schema that does not compile is reported once, at the first call, and the server checks the input', async () => {
    const problems: string[] = [];
    const tool = buildMcpTool(
      connection,
      { name: 'pid', inputSchema: { type: 'object', properties: { a: { type: 'bogus' } } } },
      { name: 'mcp__fault__pid', onSchemaProblem: (m) => problems.push(m) },
    );
    expect(problems).toHaveLength(0);
    expect(await tool.validateInput({ a: 1 }, ctx)).toEqual({ result: true });
    expect(await tool.validateInput({ a: 2 }, ctx)).toEqual({ result: true });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('does not compile');
  });

  test('building tools compiles no schema; a tool compiles its own on its first call, once (counted compilations)', async () => {
    const before = schemaCompilations();
    const tools = Array.from({ length: 200 }, (_, i) =>
      buildMcpTool(
        connection,
        { name: `t${i}`, inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
        { name: `mcp__fault__t${i}` },
      ),
    );
    expect(schemaCompilations()).toBe(before);
    expect(await tools[7]!.validateInput({}, ctx)).toMatchObject({ result: false });
    expect(await tools[7]!.validateInput({ n: 1 }, ctx)).toEqual({ result: true });
    expect(schemaCompilations()).toBe(before + 1);
  });
});
