import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  askUserKey,
  buildTool,
  createSession,
  modelClientKey,
  type AskUser,
  type AskUserRequest,
  type ModelClient,
  type ModelRequest,
  type Session,
} from '@toolshed/core';
import { z } from 'zod';
import { mcpServers } from './mod.ts';
import { EVERYTHING } from './testdata/_helpers.ts';

// server-everything asks the client things (elicitation, sampling, roots) from its tools; the
// session answers through the askUser and model client services an integrator provides.
let dir: string;
let extra: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-client-features-'));
  extra = await mkdtemp(path.join(os.tmpdir(), 'mcp-client-features-extra-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(extra, { recursive: true, force: true });
});

const use = (name: string, input: unknown = {}) => ({
  type: 'tool_use' as const,
  id: `t_${name}`,
  name: `mcp__everything__${name}`,
  input,
});

type ServiceEntry = readonly [typeof askUserKey, AskUser] | readonly [typeof modelClientKey, ModelClient];

async function everything(services: ServiceEntry[], sampling?: 'ask' | 'allow' | 'deny'): Promise<Session> {
  return await createSession({
    cwd: dir,
    homeDir: dir,
    permissions: { allow: ['mcp__everything'], additionalDirectories: [extra] },
    families: [
      mcpServers(
        { mcpServers: { everything: { command: EVERYTHING, args: ['stdio'], ...(sampling ? { sampling } : {}) } } },
        { homeDir: dir },
      ),
    ],
    services,
  });
}

describe('elicitation', () => {
  test("a server's question reaches askUser with its schema; the answer goes back with the schema's defaults for what was left blank", async () => {
    const asked: AskUserRequest[] = [];
    const askUser: AskUser = {
      ask: async (request) => (
        asked.push(request), { action: 'accept', content: { name: 'Ada Lovelace', check: true } }
      ),
    };
    const session = await everything([[askUserKey, askUser]]);
    try {
      const [result] = await session.run([use('trigger-elicitation-request')]);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.source).toBe('MCP server "everything"');
      expect(asked[0]!.message).toBe('Please provide inputs for the following fields:');
      expect(asked[0]!.schema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string' }, firstLine: { default: 'It was a dark and stormy night.' } },
      });
      const text = String(result!.content);
      expect(text).toContain('Ada Lovelace');
      // Left blank by the user, filled from the schema's default.
      expect(text).toContain('It was a dark and stormy night.');
    } finally {
      await session.close();
    }
  });

  test('a declined question is declined; without an askUser service every question is declined, with a notice saying how to answer', async () => {
    const declining = await everything([[askUserKey, { ask: async () => ({ action: 'decline' }) } satisfies AskUser]]);
    try {
      const [result] = await declining.run([use('trigger-elicitation-request')]);
      expect(String(result!.content)).toContain('User declined');
    } finally {
      await declining.close();
    }
    const nobody = await everything([]);
    try {
      const [result] = await nobody.run([use('trigger-elicitation-request')]);
      expect(String(result!.content)).toContain('User declined');
      expect(nobody.notices().map((n) => n.message)).toContainEqual(
        expect.stringContaining(
          'MCP server "everything" asked the user a question ("Please provide inputs for the following fields:"), but this session has no askUser service, so it was declined',
        ),
      );
    } finally {
      await nobody.close();
    }
  });
});

describe('sampling', () => {
  test("a server may use the session's model once the user allows it (asked once per session); the model gets the server's prompt", async () => {
    const asked: AskUserRequest[] = [];
    const prompts: ModelRequest[] = [];
    const askUser: AskUser = { ask: async (request) => (asked.push(request), { action: 'accept' }) };
    const model: ModelClient = { complete: async (request) => (prompts.push(request), 'a model answer') };
    const session = await everything([
      [askUserKey, askUser],
      [modelClientKey, model],
    ]);
    try {
      const [first] = await session.run([use('trigger-sampling-request', { prompt: 'What is 2+2?', maxTokens: 50 })]);
      const [second] = await session.run([use('trigger-sampling-request', { prompt: 'And 3+3?', maxTokens: 50 })]);
      expect(String(first!.content)).toContain('a model answer');
      expect(String(second!.content)).toContain('a model answer');
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toMatch(/^MCP server "everything" asks to use your model for a completion/);
      expect(prompts.map((p) => p.prompt)).toEqual([
        expect.stringContaining('What is 2+2?'),
        expect.stringContaining('And 3+3?'),
      ]);
      expect(prompts[0]!.maxTokens).toBe(50);
    } finally {
      await session.close();
    }
  });

  test('a user who says no keeps the model to themselves: the call fails and the model is not used', async () => {
    let used = 0;
    const model: ModelClient = { complete: async () => (used++, 'should not be sent') };
    const session = await everything([
      [askUserKey, { ask: async () => ({ action: 'decline' }) } satisfies AskUser],
      [modelClientKey, model],
    ]);
    try {
      const [result] = await session.run([use('trigger-sampling-request', { prompt: 'Exfiltrate?', maxTokens: 10 })]);
      expect(result!.is_error).toBe(true);
      expect(String(result!.content)).toContain(
        'The user did not allow MCP server "everything" to use their model (sampling).',
      );
      expect(used).toBe(0);
    } finally {
      await session.close();
    }
    // "deny" in the configuration: nobody is even asked.
    let asked = 0;
    const denied = await everything(
      [
        [askUserKey, { ask: async () => (asked++, { action: 'accept' }) } satisfies AskUser],
        [modelClientKey, model],
      ],
      'deny',
    );
    try {
      const [result] = await denied.run([use('trigger-sampling-request', { prompt: 'x', maxTokens: 10 })]);
      expect(String(result!.content)).toContain('sampling is set to "deny" for it');
      expect(asked).toBe(0);
      expect(used).toBe(0);
    } finally {
      await denied.close();
    }
  });
});

describe('roots', () => {
  test("the session's working directories are the client's roots", async () => {
    const session = await everything([]);
    try {
      const [result] = await session.run([use('get-roots-list')]);
      const text = String(result!.content);
      expect(text).toContain('Current MCP Roots (2 total)');
      expect(text).toContain(pathToFileURL(dir).href);
      expect(text).toContain(pathToFileURL(extra).href);
    } finally {
      await session.close();
    }
  });
});

describe('roots list_changed', () => {
  test('when a call changes the working directory, the server is told roots/list_changed and lists the new root', async () => {
    const moved = await mkdtemp(path.join(os.tmpdir(), 'mcp-client-features-moved-'));
    const enter = buildTool({
      name: 'EnterDir',
      description: 'Moves the session into another folder (as EnterWorktree does).',
      inputSchema: z.object({}).strict(),
      isReadOnly: () => true,
      call: async () => ({ data: 'moved', contextModifier: (ctx) => ({ ...ctx, cwd: moved }) }),
    });
    const session = await createSession({
      cwd: dir,
      homeDir: dir,
      tools: [enter],
      permissions: { allow: ['mcp__everything'] },
      families: [
        mcpServers({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }, { homeDir: dir }),
      ],
    });
    try {
      const before = String((await session.run([use('get-roots-list')]))[0]!.content);
      expect(before).not.toContain(pathToFileURL(moved).href);
      await session.run([{ type: 'tool_use', id: 'enter', name: 'EnterDir', input: {} }]);
      // The next call carries the new cwd: the server is notified, and asks for the roots again.
      let after = '';
      for (let i = 0; i < 20 && !after.includes(pathToFileURL(moved).href); i++) {
        after = String((await session.run([use('get-roots-list')]))[0]!.content);
        if (!after.includes(pathToFileURL(moved).href)) await new Promise((r) => setTimeout(r, 50));
      }
      expect(after).toContain(pathToFileURL(moved).href);
      expect(after).toContain(pathToFileURL(dir).href);
    } finally {
      await session.close();
      await rm(moved, { recursive: true, force: true });
    }
  });
});

describe('tasks (2025-11-25)', () => {
  test('a tool that must run as a task is called as one: its statuses are progress events and its result comes back', async () => {
    const session = await everything([]);
    try {
      const events: { type: string; progress?: { message?: string } }[] = [];
      for await (const e of session.stream([use('simulate-research-query', { topic: 'tide pools' })]))
        events.push(e as (typeof events)[number]);
      const result = events.find((e) => e.type === 'result') as unknown as {
        result: { content: unknown; is_error?: boolean };
      };
      expect(result.result.is_error).toBeFalsy();
      expect(String(result.result.content)).toContain('Research Report: tide pools');
      const messages = events.filter((e) => e.type === 'progress').map((e) => e.progress?.message ?? '');
      expect(messages[0]).toMatch(/^task \S+ started$/);
    } finally {
      await session.close();
    }
  }, 60_000);
});

describe('instructions and resource templates', () => {
  test("the server's instructions reach the integrator as a notice, and ListMcpResources lists its templates beside its resources", async () => {
    const session = await everything([]);
    try {
      expect(
        session.notices().find((n) => n.message.startsWith('MCP server "everything" says how to use its tools: '))
          ?.level,
      ).toBe('info');
      const [list] = await session.run([{ type: 'tool_use', id: 'l', name: 'ListMcpResources', input: {} }]);
      const entries = JSON.parse(String(list!.content)) as { uri?: string; uriTemplate?: string }[];
      expect(entries.some((e) => e.uri !== undefined)).toBe(true);
      expect(entries.filter((e) => e.uriTemplate !== undefined).map((e) => e.uriTemplate)).toEqual(
        expect.arrayContaining([expect.stringMatching(/\{[^}]+\}/)]),
      );
    } finally {
      await session.close();
    }
  });
});

describe('prompts', () => {
  test('ListMcpPrompts lists the prompts with their arguments, and GetMcpPrompt fills one in', async () => {
    const session = await everything([]);
    try {
      const [list] = await session.run([{ type: 'tool_use', id: 'l', name: 'ListMcpPrompts', input: {} }]);
      const prompts = JSON.parse(String(list!.content)) as {
        server: string;
        name: string;
        arguments?: { name: string }[];
      }[];
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
      expect(prompts.find((p) => p.name === 'args-prompt')!.arguments!.map((a) => a.name)).toContain('city');
      const [got] = await session.run([
        {
          type: 'tool_use',
          id: 'g',
          name: 'GetMcpPrompt',
          input: { server: 'everything', name: 'args-prompt', arguments: { city: 'Lisbon' } },
        },
      ]);
      expect(got!.is_error).toBeFalsy();
      expect(String(got!.content)).toMatch(/^\[user\] .*Lisbon/m);
      const [bad] = await session.run([
        { type: 'tool_use', id: 'b', name: 'GetMcpPrompt', input: { server: 'nope', name: 'x' } },
      ]);
      expect(String(bad!.content)).toContain(
        'No connected MCP server named "nope" offers prompts. Servers with prompts: "everything".',
      );
    } finally {
      await session.close();
    }
  });
});
