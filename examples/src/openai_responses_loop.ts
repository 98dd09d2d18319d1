import OpenAI from 'openai';
import { createSession, functionCallOutputsForOpenAIResponses, toolUsesFromOpenAIResponses } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';

const session = await createSession({
  cwd: process.cwd(),
  families: [fileTools()],
  permissions: { allow: ['Edit(./src/**)'] },
});
const client = new OpenAI();
let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Fix the typo in src/greeting.ts' }];
let previous: string | null = null; // the API keeps the conversation; each request sends only what is new
for (let turn = 0; turn < 20; turn++) {
  const response: OpenAI.Responses.Response = await client.responses.create({
    model: 'gpt-4.1',
    input,
    previous_response_id: previous,
    tools: session.toolsFor('openai-responses'),
  });
  previous = response.id;
  const toolUses = toolUsesFromOpenAIResponses(response.output);
  if (toolUses.length === 0) break;
  input = functionCallOutputsForOpenAIResponses(await session.run(toolUses));
}
await session.close();
