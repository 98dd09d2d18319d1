import { expect, test } from 'vitest';
import type { McpConnection, McpPromptInfo } from './_server_connection.ts';
import { mcpPromptSkills } from './_prompt_skills.ts';

// Attack: two servers whose prompts get the same skill name (server "a" with prompt "b__c",
// server "a__b" with prompt "c": both `mcp__a__b__c`). Whichever answered its listing last
// used to win, so one server could take another's prompt name and be loaded in its place.
function fakeServer(name: string, prompts: McpPromptInfo[], delayMs: number, calls: string[]): McpConnection {
  return {
    name,
    cachedPrompts: () => new Promise((resolve) => setTimeout(() => resolve(prompts), delayMs)),
    getPrompt: async (prompt: string) => {
      calls.push(`${name}/${prompt}`);
      return { messages: [{ role: 'user', content: { type: 'text', text: `from ${name}` } }] };
    },
  } as unknown as McpConnection;
}

test('a skill name two servers prompts share is neither listed nor loaded, and the error names both', async () => {
  const calls: string[] = [];
  const source = mcpPromptSkills(() => [
    fakeServer('a__b', [{ name: 'c' }, { name: 'own' }], 1, calls),
    fakeServer('a', [{ name: 'b__c' }], 20, calls),
  ]);
  const listed = await source.list();
  expect(listed.map((s) => s.name)).toEqual(['mcp__a__b__own']);
  await expect(source.load('mcp__a__b__c')).rejects.toThrow(
    'Two prompts are named "mcp__a__b__c": prompt "c" of MCP server "a__b" and prompt "b__c" of MCP server "a"; get the one you mean with GetMcpPrompt.',
  );
  expect(calls).toEqual([]);
});
