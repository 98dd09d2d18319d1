import { expect, test } from 'vitest';
import { keepOwnNames } from './_tool_namespace.ts';
import { mcpToolName } from './tool_name.ts';

const server = (name: string, tools: string[]) => ({
  server: name,
  tools: tools.map((t) => ({ name: mcpToolName(name, t) })),
});

test('servers that share a prefix offer none of their tools, whatever their order, with one sentence naming both', () => {
  for (const order of [
    [server('a.b', ['x', 'y']), server('a_b', ['x']), server('c', ['z'])],
    [server('a_b', ['x']), server('c', ['z']), server('a.b', ['x', 'y'])],
  ]) {
    const { kept, problems } = keepOwnNames(order);
    expect(kept.map((t) => t.name)).toEqual(['mcp__c__z']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"a.b"');
    expect(problems[0]).toContain('"a_b"');
  }
});

test('servers "a", "a_" and "a__" share one prefix, so none of their tools is offered', () => {
  const { kept, problems } = keepOwnNames([server('a', ['x', 'p']), server('a_', ['x', 'q']), server('a__', ['x'])]);
  expect(kept).toEqual([]);
  expect(problems).toEqual([
    'The MCP servers "a" and "a_" and "a__" share the tool-name prefix "mcp__a__", so a rule or hook about one would cover another\'s tools: none of their tools is offered. Rename all but one of them in the MCP configuration.',
  ]);
});

test('a long name cut with a hash still belongs to its own server', () => {
  const long = 'x'.repeat(10_000);
  const { kept, problems } = keepOwnNames([server('a', [long]), server('b', [long])]);
  expect(kept.map((t) => t.name)).toEqual([mcpToolName('a', long), mcpToolName('b', long)]);
  expect(problems).toEqual([]);
});
