import { expect, test } from 'vitest';
import type { McpConnection, McpPromptInfo } from './_server_connection.ts';
import { mcpPromptSkills } from './_prompt_skills.ts';

// Attack: two servers whose prompts get the same skill name (servers "a.b" and "a_b" with a
// prompt "c": both `mcp__a_b__c`). Whichever answered its listing last used to win, so one
// server could take another's prompt name and be loaded in its place.
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
    fakeServer('a_b', [{ name: 'c' }, { name: 'own' }], 1, calls),
    fakeServer('a.b', [{ name: 'c' }], 20, calls),
  ]);
  const listed = await source.list();
  expect(listed.map((s) => s.name)).toEqual(['mcp__a_b__own']);
  await expect(source.load('mcp__a_b__c')).rejects.toThrow(
    'Two prompts are named "mcp__a_b__c": prompt "c" of MCP server "a_b" and prompt "c" of MCP server "a.b"; get the one you mean with GetMcpPrompt.',
  );
  expect(calls).toEqual([]);
});

test('a prompt of server "a" named "b__own" is not the skill of server "a__b", whose skills are mcp__a_b__…', async () => {
  const calls: string[] = [];
  const source = mcpPromptSkills(() => [
    fakeServer('a', [{ name: 'b__own' }], 1, calls),
    fakeServer('a__b', [{ name: 'own' }], 1, calls),
  ]);
  expect((await source.list()).map((s) => s.name)).toEqual(['mcp__a__b__own', 'mcp__a_b__own']);
  expect(await source.load('mcp__a_b__own')).toContain('from a__b');
  expect(await source.load('mcp__a__b__own')).toMatch(/from a$/);
  expect(calls).toEqual(['a__b/own', 'a/b__own']);
});
