import Anthropic from '@anthropic-ai/sdk';
import { createSession } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { agentTools, anthropicModel, runAgent } from '@toolshed/tool-agent';

const session = await createSession({
  cwd: process.cwd(),
  families: [fileTools(), agentTools()],
  permissions: { allow: ['Edit(./src/**)'] },
});
const model = anthropicModel({ client: new Anthropic(), model: 'claude-sonnet-5-5' });
const result = await runAgent({ session, model, prompt: 'Fix the typo in src/greeting.ts', maxTurns: 20 });
console.log(result.text, `(${result.stopReason}, ${result.usage.outputTokens} tokens out)`);
await session.close();
