import Anthropic from '@anthropic-ai/sdk';
import { createSession } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';

const session = await createSession({
  cwd: process.cwd(),
  families: [fileTools()],
  permissions: { allow: ['Edit(./src/**)'] },
});
const client = new Anthropic();
const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix the typo in src/greeting.ts' }];
for (let turn = 0; turn < 20; turn++) {
  const reply = await client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 4096,
    messages,
    tools: session.toolsFor('anthropic'),
  });
  messages.push({ role: 'assistant', content: reply.content });
  const toolUses = reply.content.filter((block) => block.type === 'tool_use');
  if (toolUses.length === 0) break;
  messages.push({ role: 'user', content: await session.run(toolUses) });
}
await session.close();
