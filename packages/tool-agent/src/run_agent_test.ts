import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSession, type Session } from '@toolshed/core';
import { startFakeModelServer, type FakeModelServer, type FakeScript } from './testing/mod.ts';
import { anthropicModel } from './anthropic_model.ts';
import { openaiChatModel } from './openai_chat_model.ts';
import { runAgent, type AgentEvent } from './run_agent.ts';
import { echoTool, noteTool, notes, waitTool } from './_test_tools.ts';

let server: FakeModelServer | undefined;
let session: Session | undefined;
beforeEach(() => void notes.splice(0));
afterEach(async () => {
  await session?.close();
  await server?.close();
  server = undefined;
  session = undefined;
});

async function setup(script: FakeScript, tools = [echoTool, noteTool, waitTool], permissions = {}) {
  server = await startFakeModelServer(script);
  session = await createSession({ cwd: mkdtempSync(path.join(tmpdir(), 'run-agent-')), tools, permissions });
  return anthropicModel({
    client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
}

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });

test('runAgent runs request → calls → results → request until the model stops calling tools', async () => {
  const model = await setup([
    {
      content: [
        { type: 'text', text: 'Two echoes.' },
        use('a', 'Echo', { text: 'one' }),
        use('b', 'Echo', { text: 'two' }),
      ],
      usage: { inputTokens: 10, outputTokens: 4 },
    },
    { content: [{ type: 'text', text: 'Both echoed.' }], usage: { inputTokens: 20, outputTokens: 3 } },
  ]);
  const result = await runAgent({ session: session!, model, system: 'You test.', prompt: 'Echo twice' });
  expect(result.stopReason).toBe('end_turn');
  expect(result.text).toBe('Both echoed.');
  expect(result.toolCalls).toEqual({ Echo: 2 });
  expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
  expect(result.turns.map((t) => t.toolCalls)).toEqual([2, 0]);
  // Results go back in the order of the calls, in the next request.
  const second = server!.requests[1]!.body as {
    messages: { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[];
  };
  const results = second.messages[2]!.content;
  expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([
    ['a', 'echo: one'],
    ['b', 'echo: two'],
  ]);
  expect(result.messages).toHaveLength(4);
  // The tool list is the session's, byte-identical from turn to turn.
  expect(JSON.stringify(server!.requests[0]!.body.tools)).toBe(JSON.stringify(server!.requests[1]!.body.tools));
  expect((server!.requests[0]!.body.tools as { name: string }[]).map((t) => t.name)).toEqual(['Echo', 'Note', 'Wait']);
});

test("a tool's newMessages are appended after the results", async () => {
  const model = await setup(
    [{ content: [use('n', 'Note', { text: 'hi' })] }, { content: [{ type: 'text', text: 'done' }] }],
    [noteTool],
    { allow: ['Note'] },
  );
  const result = await runAgent({ session: session!, model, prompt: 'note' });
  expect(notes).toEqual(['hi']);
  expect(result.messages[3]).toEqual({ role: 'user', content: 'A note was written: hi' });
});

test('a model error ends the run with the reason and keeps every message so far', async () => {
  const model = await setup([
    { content: [use('a', 'Echo', { text: 'x' })] },
    { error: { status: 500, message: 'overloaded' } },
  ]);
  const result = await runAgent({ session: session!, model, prompt: 'go' });
  expect(result.stopReason).toBe('model_error');
  expect(result.error).toMatch(/HTTP 500.*overloaded/);
  expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
});

test('maxTurns ends a run that keeps calling tools', async () => {
  const model = await setup(() => ({ content: [use(`e${Math.random()}`, 'Echo', { text: 'again' })] }));
  const result = await runAgent({ session: session!, model, prompt: 'loop', maxTurns: 3 });
  expect(result.stopReason).toBe('max_turns');
  expect(result.turns).toHaveLength(3);
  expect(server!.requests).toHaveLength(3);
});

test('a malformed tool call gets an input error the model can act on, and the run goes on', async () => {
  const model = await setup([
    { content: [{ type: 'tool_use', id: 'm', name: 'Echo', rawInput: '{"text": ' }] },
    { content: [{ type: 'text', text: 'sorry' }] },
  ]);
  const result = await runAgent({ session: session!, model, prompt: 'x' });
  const toolResult = (result.messages[2]!.content as { is_error?: boolean; content: string }[])[0]!;
  expect(toolResult.is_error).toBe(true);
  expect(result.stopReason).toBe('end_turn');
});

test("a streamed tool_use starts before the model's stream has ended", async () => {
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  const model = await setup([
    {
      content: [use('a', 'Echo', { text: 'early' }), { type: 'text', text: 'still writing' }],
      pause: { afterBlock: 0, until },
    },
    { content: [{ type: 'text', text: 'ok' }] },
  ]);
  const order: string[] = [];
  const onEvent = (e: AgentEvent) => {
    if (e.type === 'session' && e.event.type === 'tool_start') {
      order.push('tool_start');
      release();
    } else if (e.type === 'session' && e.event.type === 'result') order.push('result');
    else if (e.type === 'text' && e.turn === 1) order.push('text');
    else if (e.type === 'turn_end' && e.turn === 1) order.push('turn_end');
  };
  // Should the call wait for the stream's end, the stream would wait for the call: the fallback
  // releases it after a while, and the order below fails.
  const fallback = setTimeout(() => release(), 5000);
  await runAgent({ session: session!, model, prompt: 'x', onEvent });
  clearTimeout(fallback);
  expect(order.indexOf('tool_start')).toBeGreaterThanOrEqual(0);
  expect(order.indexOf('tool_start')).toBeLessThan(order.indexOf('text'));
  expect(order.indexOf('tool_start')).toBeLessThan(order.indexOf('turn_end'));
});

test('without streaming, the calls start after the whole turn arrived', async () => {
  const model = await setup([
    { content: [use('a', 'Echo', { text: 'x' })] },
    { content: [{ type: 'text', text: 'ok' }] },
  ]);
  const result = await runAgent({ session: session!, model, prompt: 'x', stream: false });
  expect(server!.requests.every((r) => !r.stream)).toBe(true);
  expect(result.toolCalls).toEqual({ Echo: 1 });
});

test('aborting the signal ends the run and the running call', async () => {
  const controller = new AbortController();
  const model = await setup([{ content: [use('w', 'Wait', {})] }, { content: [{ type: 'text', text: 'never' }] }]);
  const result = await runAgent({
    session: session!,
    model,
    prompt: 'wait',
    signal: controller.signal,
    onEvent: (e) => e.type === 'session' && e.event.type === 'tool_start' && controller.abort(),
  });
  expect(result.stopReason).toBe('aborted');
  expect(server!.requests).toHaveLength(1);
  const last = result.messages.at(-1)!;
  expect(last.role).toBe('user');
});

test('messages from the inbox join the conversation at the next turn', async () => {
  const inbox = ['first note'];
  const model = await setup([
    { content: [use('a', 'Echo', { text: 'x' })] },
    { content: [{ type: 'text', text: 'read it' }] },
  ]);
  let turn = 0;
  const result = await runAgent({
    session: session!,
    model,
    prompt: 'x',
    inbox: () => (turn++ === 1 ? inbox.splice(0) : []),
  });
  expect(result.stopReason).toBe('end_turn');
  expect(JSON.stringify(server!.requests[1]!.body.messages)).toContain('first note');
});

test('runAgent drives an OpenAI-compatible server through Chat Completions', async () => {
  server = await startFakeModelServer([
    { content: [use('c1', 'Echo', { text: 'hi' })] },
    { content: [{ type: 'text', text: 'done' }] },
  ]);
  session = await createSession({ cwd: mkdtempSync(path.join(tmpdir(), 'run-agent-')), tools: [echoTool] });
  const model = openaiChatModel({
    client: new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 }),
    model: 'local',
  });
  const result = await runAgent({ session, model, prompt: 'x' });
  expect(result.text).toBe('done');
  const second = server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content: unknown }[] };
  expect(second.messages.find((m) => m.role === 'tool')).toEqual({
    role: 'tool',
    tool_call_id: 'c1',
    content: 'echo: hi',
  });
});

test('runAgent without a prompt or messages is a TypeError', async () => {
  const model = await setup([]);
  await expect(runAgent({ session: session!, model })).rejects.toThrow(TypeError);
});

test('the tool list is taken again every turn: a tool loaded mid-run is in the next request, and the deferred notice is in the system prompt', async () => {
  const { buildTool, defineFamily } = await import('@toolshed/core');
  const { z } = await import('zod');
  const hidden = buildTool({
    name: 'Hidden',
    description: 'A deferred tool',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    shouldDefer: true,
    async call() {
      return { data: 'found' };
    },
  });
  const loader = buildTool({
    name: 'Loader',
    description: 'Loads Hidden',
    inputSchema: z.object({}),
    isReadOnly: () => true,
    async call(_input, ctx) {
      await ctx.tools.load(['Hidden']);
      return { data: 'loaded' };
    },
  });
  const family = defineFamily({
    name: 'deferring',
    version: '1.0.0',
    tools: [hidden, loader],
    setup: (api) =>
      api.setDeferralPolicy((candidates) => new Set(candidates.filter((c) => c.name === 'Hidden').map((c) => c.name))),
  });
  server = await startFakeModelServer([
    { content: [use('l', 'Loader', {})] },
    { content: [use('h', 'Hidden', {})] },
    { content: [{ type: 'text', text: 'ok' }] },
  ]);
  session = await createSession({ cwd: mkdtempSync(path.join(tmpdir(), 'run-agent-')), families: [family] });
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  const result = await runAgent({ session, model, system: 'S', prompt: 'x' });
  const names = (i: number) => (server!.requests[i]!.body.tools as { name: string }[]).map((t) => t.name);
  expect(names(0)).toEqual(['Loader']);
  expect(String(server.requests[0]!.body.system)).toContain('Hidden');
  expect(names(1)).toEqual(['Hidden', 'Loader']);
  expect(result.toolCalls).toEqual({ Loader: 1, Hidden: 1 });
});

type WireBlock = { type: string; id?: string; input?: unknown; tool_use_id?: string; is_error?: boolean };
type WireMessage = { role: string; content: string | WireBlock[] };

/** What the Anthropic API checks of a conversation before it answers 400: object inputs, unique ids, paired results. */
function apiProblems(messages: WireMessage[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        if (typeof b.input !== 'object' || b.input === null || Array.isArray(b.input))
          problems.push(`messages.${i}: tool_use ${b.id} input is not an object: ${JSON.stringify(b.input)}`);
        if (ids.has(String(b.id))) problems.push(`messages.${i}: tool_use id ${b.id} is used twice`);
        ids.add(String(b.id));
      }
      if (b.type === 'tool_result') {
        const previous = messages[i - 1]?.content;
        const uses = Array.isArray(previous) ? previous.filter((p) => p.type === 'tool_use').map((p) => p.id) : [];
        if (!uses.includes(b.tool_use_id)) problems.push(`messages.${i}: tool_result ${b.tool_use_id} has no tool_use`);
      }
    }
  });
  return problems;
}

for (const stream of [true, false])
  test(`tool calls whose input is not an object are answered with an error and sent back as object inputs (stream: ${stream})`, async () => {
    const model = await setup([
      {
        content: [
          { type: 'tool_use', id: 'arr', name: 'Echo', rawInput: '[1, 2]' },
          { type: 'tool_use', id: 'str', name: 'Echo', rawInput: '"just text"' },
          { type: 'tool_use', id: 'cut', name: 'Echo', rawInput: '{"text": "cut off he' },
          { type: 'tool_use', id: 'num', name: 'Echo', rawInput: '42' },
        ],
      },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const result = await runAgent({ session: session!, model, prompt: 'go', stream });
    expect(result.stopReason).toBe('end_turn');
    const second = server!.requests[1]!.body as { messages: WireMessage[] };
    expect(apiProblems(second.messages)).toEqual([]);
    const results = second.messages[2]!.content as WireBlock[];
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ['arr', true],
      ['str', true],
      ['cut', true],
      ['num', true],
    ]);
  });

for (const stream of [true, false])
  test(`a tool_use id the model repeats (in a turn or across turns) is made unique, so the next request stays valid (stream: ${stream})`, async () => {
    const model = await setup([
      { content: [use('same', 'Echo', { text: 'one' }), use('same', 'Echo', { text: 'two' })] },
      { content: [use('same', 'Echo', { text: 'three' })] },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
    const result = await runAgent({ session: session!, model, prompt: 'go', stream });
    expect(result.stopReason).toBe('end_turn');
    expect(result.toolCalls).toEqual({ Echo: 3 });
    const third = server!.requests[2]!.body as { messages: WireMessage[] };
    expect(apiProblems(third.messages)).toEqual([]);
    const echoed = third.messages
      .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
      .filter((b) => b.type === 'tool_result')
      .map((b) => (b as { content?: unknown }).content);
    expect(echoed).toEqual(['echo: one', 'echo: two', 'echo: three']);
  });
