import os from 'node:os';
import { describe, expect, test } from 'vitest';
import { McpConnection } from './_server_connection.ts';
import {
  MAX_KEPT_DESCRIPTION_CHARS,
  MAX_KEPT_LIST_CHARS,
  MAX_LISTED_TOOLS,
  MAX_TOOL_SCHEMA_CHARS,
  toolInfo,
} from './_tool_list.ts';
import { FAULT_SERVER } from './testdata/_helpers.ts';

describe('toolInfo', () => {
  test('keeps a well-formed tool with the fields the bridge reads', () => {
    const raw = {
      name: 'echo',
      title: 'Echo',
      description: 'Echoes.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      extra: 1,
    };
    expect(toolInfo(raw)).toEqual({
      tool: {
        name: 'echo',
        title: 'Echo',
        description: 'Echoes.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
      // What it keeps: the schema as JSON and the description.
      chars: JSON.stringify({ type: 'object', properties: {} }).length + 'Echoes.'.length,
    });
  });

  test('repairs what can be repaired and says so', () => {
    expect(toolInfo({ name: 'a', inputSchema: { properties: { x: { type: 'string' } } } })).toMatchObject({
      tool: { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
      problem: 'tool "a" has an inputSchema without "type": "object"; it was added',
    });
    expect(toolInfo({ name: 'b', description: 7, annotations: 'yes' })).toEqual({
      tool: { name: 'b', inputSchema: { type: 'object' } },
      chars: '{"type":"object"}'.length,
    });
  });

  test('leaves out a tool without a name or whose input is not an object, naming why', () => {
    expect(toolInfo({ inputSchema: { type: 'object' } })).toEqual({
      problem: 'a tool without a name was left out: {"inputSchema":{"type":"object"}}',
    });
    expect(toolInfo('echo')).toEqual({ problem: 'a tool without a name was left out: "echo"' });
    expect(toolInfo({ name: 's', inputSchema: { type: 'string' } })).toEqual({
      problem: 'tool "s" was left out: its inputSchema has "type": "string", and tool inputs are objects',
    });
    expect(toolInfo({ name: 'l', inputSchema: [] })).toEqual({
      problem: 'tool "l" was left out: its inputSchema is not a JSON Schema object',
    });
  });
});

describe('schemas past what a model could be sent', () => {
  test('a tool whose schemas pass 256 KB is left out, naming their size; one just under is kept', () => {
    const schema = (chars: number) => ({ type: 'object', description: 'x'.repeat(chars) });
    const over = toolInfo({ name: 'huge', inputSchema: schema(MAX_TOOL_SCHEMA_CHARS) });
    expect(over).toEqual({
      problem: expect.stringMatching(
        /^tool "huge" was left out: its schemas are 2621\d\d characters of JSON, over the 262144/,
      ),
    });
    const output = toolInfo({
      name: 'out',
      inputSchema: { type: 'object' },
      outputSchema: schema(MAX_TOOL_SCHEMA_CHARS),
    });
    expect('tool' in output).toBe(false);
    expect('tool' in toolInfo({ name: 'fits', inputSchema: schema(MAX_TOOL_SCHEMA_CHARS - 100) })).toBe(true);
  });
});

/** A connection to the fault server started with `env` (its endless or large lists). */
function faultServer(env: Record<string, string>): McpConnection {
  return new McpConnection(
    'fault',
    { command: process.execPath, args: [FAULT_SERVER], env },
    {
      cwd: os.tmpdir(),
      startTimeoutMs: 20_000,
      toolTimeoutMs: 10_000,
      reconnectDelayMs: 10,
      maxReconnectDelayMs: 10,
      clientInfo: { name: 'test', version: '0' },
      onToolsChanged: () => {},
    },
  );
}

describe('a tool list that does not end', () => {
  test('is read up to a bound, with the cut named, and no description is kept past what a tool shows', async () => {
    const connection = faultServer({ FAULT_ENDLESS_LIST: '1' });
    try {
      await connection.connect();
      expect(connection.state).toBe('connected');
      expect(connection.tools).toHaveLength(MAX_LISTED_TOOLS);
      expect(connection.toolProblems).toContain(
        `the server listed more than ${MAX_LISTED_TOOLS} tools; the first ${MAX_LISTED_TOOLS} were kept and the rest left out`,
      );
      expect(connection.tools.find((t) => t.name === 't_0_0')!.description!.length).toBe(MAX_KEPT_DESCRIPTION_CHARS);
    } finally {
      await connection.close();
    }
  }, 30_000);
});

describe('a tool list whose schemas add up', () => {
  test('stops being read once what it keeps passes 32 MB, with the cut named', async () => {
    const connection = faultServer({ FAULT_ENDLESS_LIST: '1', FAULT_BIG_SCHEMAS: '1' });
    try {
      await connection.connect();
      expect(connection.state).toBe('connected');
      // 200 000-character schemas: about 167 fit in 32 MB (with the server's own few small tools), where the list would go on forever.
      const kept = connection.tools.length;
      expect(kept).toBeGreaterThan(160);
      expect(kept).toBeLessThan(190);
      expect(connection.toolProblems).toContain(
        `the server's tools came to more than ${MAX_KEPT_LIST_CHARS} characters of descriptions and schemas; the first ${kept} were kept and the rest left out`,
      );
    } finally {
      await connection.close();
    }
  }, 30_000);
});
