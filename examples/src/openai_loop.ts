import OpenAI from 'openai';
import { createSession, toolMessagesForOpenAIChat, toolUsesFromOpenAIChat } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';

const session = await createSession({
  cwd: process.cwd(),
  families: [fileTools()],
  permissions: { allow: ['Edit(./src/**)'] },
});
const client = new OpenAI();
const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Fix the typo in src/greeting.ts' }];
for (let turn = 0; turn < 20; turn++) {
  const completion = await client.chat.completions.create({
    model: 'gpt-4.1',
    messages,
    tools: session.toolsFor('openai'),
  });
  const message = completion.choices[0]!.message;
  messages.push(message);
  const toolCalls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
  if (toolCalls.length === 0) break;
  messages.push(...toolMessagesForOpenAIChat(await session.run(toolUsesFromOpenAIChat(toolCalls))));
}
await session.close();
