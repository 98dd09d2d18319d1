import { describe, expect, test } from 'vitest';
import { toolInfo } from './_tool_list.ts';

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
    });
  });

  test('repairs what can be repaired and says so', () => {
    expect(toolInfo({ name: 'a', inputSchema: { properties: { x: { type: 'string' } } } })).toEqual({
      tool: { name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
      problem: 'tool "a" has an inputSchema without "type": "object"; it was added',
    });
    expect(toolInfo({ name: 'b', description: 7, annotations: 'yes' })).toEqual({
      tool: { name: 'b', inputSchema: { type: 'object' } },
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
