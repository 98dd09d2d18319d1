import { afterEach, beforeEach, expect, test } from 'vitest';
import { createSession } from './session.ts';
import {
  functionCallOutputsForOpenAIResponses,
  toolMessagesForOpenAIChat,
  toolUsesFromOpenAIChat,
  toolUsesFromOpenAIResponses,
} from './provider_messages.ts';
import { z } from 'zod';
import { buildTool } from './tool.ts';
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
    {
      role: 'tool',
      tool_call_id: 'call_2',
      content:
        'Error: Invalid input for tool "Echo": expected a JSON object of parameters, got string "{\\"text\\": ".',
    },
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
  expect(functionCallOutputsForOpenAIResponses(await session.run(blocks))).toEqual([
    { type: 'function_call_output', call_id: 'fc_1', output: 'yo' },
  ]);
});

test('a Responses result with an image or a PDF is sent as input items, so the model sees them; text stays a string', async () => {
  const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
  const screenshotTool = buildTool({
    name: 'Screenshot',
    description: 'Takes a screenshot',
    inputSchema: z.object({ fail: z.boolean().optional() }),
    isReadOnly: () => true,
    async call({ fail }) {
      return { data: { fail: fail ?? false } };
    },
    mapResult: ({ fail }) => [
      { type: 'text', text: fail ? 'partial capture' : 'the page' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
      {
        type: 'document',
        title: 'report.pdf',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      },
    ],
  });
  const session = await createSession({ cwd: dir, tools: [screenshotTool, echoTool] });
  const outputs = functionCallOutputsForOpenAIResponses(
    await session.run([
      { type: 'tool_use', id: 'fc_1', name: 'Screenshot', input: {} },
      { type: 'tool_use', id: 'fc_2', name: 'Echo', input: { text: 'plain' } },
    ]),
  );
  expect(outputs).toEqual([
    {
      type: 'function_call_output',
      call_id: 'fc_1',
      output: [
        { type: 'input_text', text: 'the page' },
        { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
        { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
      ],
    },
    { type: 'function_call_output', call_id: 'fc_2', output: 'plain' },
  ]);
  expect(outputs[0]!.output).not.toContain('[image]');
  // Chat Completions tool messages carry text only, and say what was left out.
  const chat = toolMessagesForOpenAIChat(
    await session.run([{ type: 'tool_use', id: 'c1', name: 'Screenshot', input: {} }]),
  );
  expect(chat[0]!.content).toBe('the page\n[image]\n[document]');
});
