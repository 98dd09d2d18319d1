import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createSession } from './session.ts';
import { buildTool } from './tool.ts';
import { defineFamily } from './family.ts';
import { bigTool, echoTool, tempDir, use } from './_test_tools.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const named = (name: string, extra: Partial<Parameters<typeof buildTool>[0]> = {}) =>
  buildTool({
    name,
    description: `The ${name} tool, for tests.`,
    inputSchema: z.strictObject({}),
    async call() {
      return { data: name };
    },
    ...extra,
  });

describe('the pool', () => {
  test('is sorted by name, and a disabled tool is left out', async () => {
    const session = await createSession({
      cwd: dir,
      families: [
        defineFamily({
          name: 'a',
          version: '1',
          tools: [named('Zeta'), named('Alpha'), named('Off', { isEnabled: () => false })],
        }),
      ],
    });
    expect(session.catalog().map((e) => e.name)).toEqual(['Alpha', 'Zeta']);
  });

  test('a blanket deny rule removes the tool; a deny rule with a specifier does not', async () => {
    const session = await createSession({
      cwd: dir,
      tools: [named('Alpha'), named('Beta')],
      permissions: { deny: ['Alpha', 'Beta(something)'] },
    });
    expect(session.catalog().map((e) => e.name)).toEqual(['Beta']);
  });

  test('a built-in tool wins a name clash with an external (MCP) tool, with a warning', async () => {
    const external = defineFamily({
      name: 'mcp',
      version: '1',
      external: true,
      load: async () => [named('Alpha', { isMcp: true }), named('mcp__s__t', { isMcp: true })],
    });
    const session = await createSession({
      cwd: dir,
      families: [external, defineFamily({ name: 'b', version: '1', tools: [named('Alpha')] })],
    });
    expect(session.catalog().map((e) => [e.name, e.family])).toEqual([
      ['Alpha', 'b'],
      ['mcp__s__t', 'mcp'],
    ]);
    expect(session.notices()).toEqual([
      { level: 'warn', message: 'Tool "Alpha" from "mcp" is ignored: the built-in tool of that name wins' },
    ]);
  });

  test('an external family that fails to list its tools is reported and the rest still works', async () => {
    const broken = defineFamily({
      name: 'mcp',
      version: '1',
      external: true,
      load: async () => {
        throw new Error('server exited with code 1');
      },
    });
    const session = await createSession({ cwd: dir, families: [broken], tools: [echoTool] });
    expect(session.catalog().map((e) => e.name)).toEqual(['Echo']);
    expect(session.notices()[0]!.message).toBe('Tools of "mcp" could not be listed: server exited with code 1');
  });

  test('a tool whose definition cannot be built is left out with a notice, and the session starts', async () => {
    const badDescription = named('Gamma', {
      aliases: ['G'],
      description: async () => {
        throw new Error('template missing');
      },
    });
    const badSchema = buildTool({
      name: 'Delta',
      description: 'Takes a date.',
      inputSchema: z.strictObject({ when: z.date() }),
      async call() {
        return { data: '' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [badDescription, badSchema, echoTool] });
    expect(session.catalog().map((e) => e.name)).toEqual(['Echo']);
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo']);
    expect(session.notices().map((n) => n.message)).toEqual([
      'Tool "Delta" of family "custom" is left out: its definition could not be built (TypeError: The input schema of tool "Delta" cannot be converted to JSON Schema: Date cannot be represented in JSON Schema)',
      'Tool "Gamma" of family "custom" is left out: its definition could not be built (template missing)',
    ]);
    const [byAlias] = await session.run([use('g', 'G', {})]);
    expect(byAlias).toMatchObject({ is_error: true, content: expect.stringContaining('No such tool available: G') });
  });

  test('a deferral policy that throws defers nothing, with a notice', async () => {
    const family = defineFamily({
      name: 'deferring',
      version: '1',
      tools: [named('Alpha'), named('Beta')],
      setup: (api) =>
        api.setDeferralPolicy(() => {
          throw new Error('context window unknown');
        }),
    });
    const session = await createSession({ cwd: dir, families: [family] });
    expect(session.catalog().map((e) => [e.name, e.deferred])).toEqual([
      ['Alpha', false],
      ['Beta', false],
    ]);
    expect(session.notices()).toEqual([
      { level: 'error', message: 'The deferral policy failed, so no tool is deferred: context window unknown' },
    ]);
  });

  test('a lazy family is not loaded until one of its tools is called', async () => {
    let loads = 0;
    const lazy = defineFamily({
      name: 'lazy',
      version: '1',
      manifest: [{ name: 'Echo', description: 'Echoes.' }],
      load: async () => {
        loads++;
        return [echoTool];
      },
      setup: (api) =>
        api.setDeferralPolicy((candidates) => new Set(candidates.filter((c) => c.shouldDefer).map((c) => c.name))),
    });
    const session = await createSession({ cwd: dir, families: [lazy] });
    expect(loads).toBe(0);
    expect(session.toolsFor('anthropic')).toEqual([]);
    expect(session.deferredNotice()).toContain('- lazy: Echo');
    const [result] = await session.run([use('a', 'Echo', { text: 'hi' })]);
    expect(result!.content).toBe('hi');
    expect(loads).toBe(1);
    // Called once, it is loaded for the rest of the session.
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo']);
    expect(session.deferredNotice()).toBe('');
  });

  test('a lazy family whose tool is not deferred is loaded at session start', async () => {
    let loads = 0;
    const lazy = defineFamily({
      name: 'lazy',
      version: '1',
      manifest: [{ name: 'Echo', description: 'Echoes.', shouldDefer: false }],
      load: async () => {
        loads++;
        return [echoTool];
      },
    });
    const session = await createSession({ cwd: dir, families: [lazy] });
    expect(loads).toBe(1);
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo']);
  });
});

describe('toolsFor', () => {
  test('gives each provider its shape with the JSON Schema from zod', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string' },
        times: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['text'],
      additionalProperties: false,
    };
    expect(session.toolsFor('anthropic')).toEqual([
      { name: 'Echo', description: 'Returns the text it is given.', input_schema: schema },
    ]);
    expect(session.toolsFor('openai')).toEqual([
      {
        type: 'function',
        function: { name: 'Echo', description: 'Returns the text it is given.', parameters: schema },
      },
    ]);
    expect(session.toolsFor('openai-responses')).toEqual([
      {
        type: 'function',
        name: 'Echo',
        description: 'Returns the text it is given.',
        parameters: schema,
        strict: false,
      },
    ]);
    expect(() => session.toolsFor('gemini' as never)).toThrow('Unknown provider format "gemini"');
  });

  test('is byte-identical between calls while the pool is unchanged, and sorted by name', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool, bigTool, named('Alpha')] });
    const first = JSON.stringify(session.toolsFor('anthropic'));
    await session.run([use('a', 'Echo', { text: 'x' })]);
    expect(JSON.stringify(session.toolsFor('anthropic'))).toBe(first);
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Alpha', 'Big', 'Echo']);
  });

  test('computes a description function once and appends input examples', async () => {
    let computed = 0;
    const tool = buildTool({
      name: 'Dyn',
      description: ({ cwd }) => {
        computed++;
        return `Works in ${cwd}.`;
      },
      inputSchema: z.strictObject({ n: z.number() }),
      inputExamples: [{ n: 1 }],
      async call() {
        return { data: 1 };
      },
    });
    const session = await createSession({ cwd: dir, tools: [tool] });
    session.toolsFor('anthropic');
    session.toolsFor('openai');
    expect(computed).toBe(1);
    expect(session.toolsFor('anthropic')[0]!.description).toBe(`Works in ${dir}.\n\nExamples:\n{"n":1}`);
  });
});

test('nativeToolSearch marks deferred tools defer_loading and adds the server-side search tool', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const family = defineFamily({
      name: 'f',
      version: '1',
      tools: [echoTool, named('Later', { shouldDefer: true })],
      setup: (api) => api.setDeferralPolicy((cs) => new Set(cs.filter((x) => x.shouldDefer).map((x) => x.name))),
    });
    const session = await createSession({ cwd: d, families: [family] });
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo']);
    const native = session.toolsFor('anthropic', { nativeToolSearch: 'bm25' }) as unknown as Record<string, unknown>[];
    expect(native.map((t) => [t['name'], t['defer_loading'] ?? false])).toEqual([
      ['Echo', false],
      ['Later', true],
      ['tool_search_tool_bm25', false],
    ]);
    expect(native.find((t) => t['name'] === 'Later')).toMatchObject({
      description: 'The Later tool, for tests.',
      input_schema: { type: 'object' },
    });
    expect(() => session.toolsFor('openai', { nativeToolSearch: 'regex' })).toThrow(
      'nativeToolSearch is an Anthropic API feature',
    );
  } finally {
    await c();
  }
});

test('stage 1: a tool behind a feature flag joins the pool only when the flag is on', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const tools = [named('Stable'), named('Experimental', { feature: 'experimental-tools' })];
    const off = await createSession({ cwd: d, tools });
    expect(off.catalog().map((e) => e.name)).toEqual(['Stable']);
    const stillOff = await createSession({ cwd: d, tools, features: { 'experimental-tools': false } });
    expect(stillOff.catalog().map((e) => e.name)).toEqual(['Stable']);
    const on = await createSession({ cwd: d, tools, features: { 'experimental-tools': true } });
    expect(on.catalog().map((e) => e.name)).toEqual(['Experimental', 'Stable']);
    const [result] = await off.run([use('x', 'Experimental', {})]);
    expect(result!.content).toContain('No such tool available: Experimental');
  } finally {
    await c();
  }
});

test('a tool marked onlyWhenDeferring is in the request only while something is deferred, and stays callable', async () => {
  const { dir: d, cleanup: c } = await tempDir();
  try {
    const finder = named('Finder', { onlyWhenDeferring: true, isReadOnly: () => true });
    const deferAll = (defer: boolean) =>
      defineFamily({
        name: 'f',
        version: '1',
        tools: [finder, named('Later', { shouldDefer: true })],
        setup: (api) =>
          api.setDeferralPolicy((cs) => new Set(defer ? cs.filter((x) => x.shouldDefer).map((x) => x.name) : [])),
      });
    const deferring = await createSession({ cwd: d, families: [deferAll(true)] });
    expect(deferring.toolsFor('anthropic').map((t) => t.name)).toEqual(['Finder']);
    const idle = await createSession({ cwd: d, families: [deferAll(false)] });
    expect(idle.toolsFor('anthropic').map((t) => t.name)).toEqual(['Later']);
    const [result] = await idle.run([use('f', 'Finder', {})]);
    expect(result).toMatchObject({ content: 'Finder' });
  } finally {
    await c();
  }
});

test('two families that list the same shared tool object give one entry and no clash notice', async () => {
  const a = defineFamily({ name: 'a', version: '1.0.0', tools: [echoTool] });
  const b = defineFamily({ name: 'b', version: '1.0.0', tools: [echoTool] });
  const session = await createSession({ cwd: dir, families: [a, b] });
  expect(session.catalog().filter((e) => e.name === echoTool.name)).toHaveLength(1);
  expect(session.notices()).toEqual([]);
  await session.close();
});
