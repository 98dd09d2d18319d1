import { afterEach, beforeEach, expect, test } from 'vitest';
import { createSession } from './session.ts';
import {
  functionCallOutputsForOpenAIResponses,
  toolMessagesForOpenAIChat,
  toolUsesFromOpenAIChat,
  toolUsesFromOpenAIResponses,
} from './provider_messages.ts';
import { echoTool, tempDir } from './_test_tools.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

test('an OpenAI Chat Completions turn runs through the session and answers with tool messages', async () => {
  const session = await createSession({ cwd: dir, tools: [echoTool] });
  const toolCalls = [
    { id: 'call_1', type: 'function' as const, function: { name: 'Echo', arguments: '{"text":"hi","times":2}' } },
    { id: 'call_2', type: 'function' as const, function: { name: 'Echo', arguments: '{"text": ' } },
    { id: 'call_3', type: 'function' as const, function: { name: 'Nope', arguments: '' } },
  ];
  const messages = toolMessagesForOpenAIChat(await session.run(toolUsesFromOpenAIChat(toolCalls)));
  expect(messages).toEqual([
    { role: 'tool', tool_call_id: 'call_1', content: 'hihi' },
    { role: 'tool', tool_call_id: 'call_2', content: 'Error: Invalid input for tool "Echo": expected a JSON object of parameters, got string "{\\"text\\": ".' },
    { role: 'tool', tool_call_id: 'call_3', content: 'Error: No such tool available: Nope.' },
  ]);
  expect(toolUsesFromOpenAIChat(undefined)).toEqual([]);
});

test('an OpenAI Responses turn runs through the session and answers with function_call_output items', async () => {
  const session = await createSession({ cwd: dir, tools: [echoTool] });
  const output = [
    { type: 'reasoning', id: 'rs_1' },
    { type: 'function_call', call_id: 'fc_1', name: 'Echo', arguments: '{"text":"yo"}' },
    { type: 'message', id: 'msg_1' },
  ];
  const blocks = toolUsesFromOpenAIResponses(output);
  expect(blocks).toEqual([{ type: 'tool_use', id: 'fc_1', name: 'Echo', input: { text: 'yo' } }]);
  expect(functionCallOutputsForOpenAIResponses(await session.run(blocks))).toEqual([{ type: 'function_call_output', call_id: 'fc_1', output: 'yo' }]);
});
