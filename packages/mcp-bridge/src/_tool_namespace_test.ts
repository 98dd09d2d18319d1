import { expect, test } from 'vitest';
import { keepOwnNames } from './_tool_namespace.ts';
import { mcpToolName } from './tool_name.ts';

const server = (name: string, tools: string[]) => ({
  server: name,
  tools: tools.map((t) => ({ name: mcpToolName(name, t) })),
});

test('a name two servers claim is kept by neither, whatever their order, with one sentence naming both', () => {
  for (const order of [
    [server('a.b', ['x', 'y']), server('a_b', ['x'])],
    [server('a_b', ['x']), server('a.b', ['x', 'y'])],
  ]) {
    const { kept, problems } = keepOwnNames(order);
    expect(kept.map((t) => t.name)).toEqual(['mcp__a_b__y']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"a.b"');
    expect(problems[0]).toContain('"a_b"');
  }
});

test('servers "a", "a_" and "a__" share one namespace, so their shared names are kept by none', () => {
  const { kept, problems } = keepOwnNames([server('a', ['x', 'p']), server('a_', ['x', 'q']), server('a__', ['x'])]);
  expect(kept.map((t) => t.name)).toEqual(['mcp__a__p', 'mcp__a__q']);
  expect(problems).toEqual([
    'Tool "mcp__a__x" is offered by none of the MCP servers "a" and "a_" and "a__": each lists a tool of that name, and a rule or hook about the name could not tell them apart. Rename one server in the MCP configuration.',
  ]);
});

test('a long name cut with a hash still belongs to its own server', () => {
  const long = 'x'.repeat(10_000);
  const { kept, problems } = keepOwnNames([server('a', [long]), server('b', [long])]);
  expect(kept.map((t) => t.name)).toEqual([mcpToolName('a', long), mcpToolName('b', long)]);
  expect(problems).toEqual([]);
});
