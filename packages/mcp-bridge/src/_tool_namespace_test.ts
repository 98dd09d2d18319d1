import { expect, test } from 'vitest';
import { foreignNamespace, keepOwnNames } from './_tool_namespace.ts';
import { mcpToolName } from './tool_name.ts';

const server = (name: string, tools: string[], offers = true) => ({
  server: name,
  offers,
  tools: tools.map((t) => ({ name: mcpToolName(name, t), original: t })),
  original: (t: { original: string }) => t.original,
});

test("a name in the namespace of a server with a longer name is that server's, even when that server is closed", () => {
  const { kept, problems } = keepOwnNames([server('a', ['b__c', 'd']), server('a__b', ['x'], false)]);
  expect(kept.map((t) => t.name)).toEqual(['mcp__a__d']);
  expect(problems).toEqual([
    'Tool "b__c" of MCP server "a" is left out: its name "mcp__a__b__c" lies in the names of MCP server "a__b" (mcp__a__b__…), whose permission rules and hooks would then apply to it. Rename one of the two servers in the MCP configuration, or ask the author of "a" not to use "__" in tool names.',
  ]);
});

test('a server "a_" owns the names mcp__a___…, so server "a" cannot list "_x" into them', () => {
  expect(foreignNamespace(mcpToolName('a', '_x'), { servers: ['a', 'a_'], own: 'a' })).toEqual({
    server: 'a_',
    prefix: 'mcp__a___',
  });
  expect(foreignNamespace(mcpToolName('a', 'x'), { servers: ['a', 'a_'], own: 'a' })).toBeUndefined();
  expect(foreignNamespace(mcpToolName('a_', 'x'), { servers: ['a', 'a_'], own: 'a_' })).toBeUndefined();
});

test('a long name cut with a hash still belongs to its own server', () => {
  const long = 'x'.repeat(10_000);
  const { kept, problems } = keepOwnNames([server('a', [long]), server('b', [long])]);
  expect(kept.map((t) => t.name)).toEqual([mcpToolName('a', long), mcpToolName('b', long)]);
  expect(problems).toEqual([]);
});

test('a name two servers claim is kept by neither, whatever their order', () => {
  for (const order of [
    [server('a.b', ['x', 'y']), server('a_b', ['x'])],
    [server('a_b', ['x']), server('a.b', ['x', 'y'])],
  ]) {
    const { kept, problems } = keepOwnNames(order);
    expect(kept.map((t) => t.name)).toEqual(['mcp__a_b__y']);
    expect(problems).toHaveLength(1);
  }
});
