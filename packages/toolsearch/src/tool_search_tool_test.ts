import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { hybridRanker } from './hybrid_ranker.ts';
import { lexicalRanker } from './lexical_ranker.ts';
import { toolSearch } from './family.ts';
import { createToolSearchTool, toolSearchTool } from './tool_search_tool.ts';
import type { ToolRanker } from './ranker_types.ts';
import { makeTool } from './testdata/tools.ts';

let dir: string;
const sessions: Session[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolsearch-tool-'));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

const deferred = defineFamily({
  name: 'extra',
  version: '1.0.0',
  tools: [
    makeTool('SendMessage', { description: 'Sends a chat message to a teammate.', shouldDefer: true }),
    makeTool('CronCreate', { description: 'Schedules a recurring job.', shouldDefer: true }),
  ],
});

test('ToolSearch is read-only, concurrency-safe, always loaded and never persisted', () => {
  expect(toolSearchTool.name).toBe('ToolSearch');
  expect(toolSearchTool.isReadOnly({ query: 'x' })).toBe(true);
  expect(toolSearchTool.isConcurrencySafe({ query: 'x' })).toBe(true);
  expect(toolSearchTool.alwaysLoad).toBe(true);
  expect(toolSearchTool.maxResultSizeChars).toBe(Infinity);
  expect(toolSearchTool.getToolUseSummary({ query: 'slack send' })).toBe('slack send');
});

test('ToolSearch works with an asynchronous ranker, such as a hybrid of lexical and embedding ranks', async () => {
  // Stands in for an embedding model that knows "post" means sending a message.
  const meaning: ToolRanker = {
    name: 'meaning',
    prepare: (tools) => (query) => tools.map((t) => (/post/.test(query.text) && t.tool.name === 'SendMessage' ? 1 : 0)),
  };
  const session = await createSession({
    cwd: dir,
    stateDir: dir,
    families: [deferred, toolSearch({ ranker: hybridRanker([lexicalRanker(), meaning]) })],
  });
  sessions.push(session);
  const [result] = await session.run([
    { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'post a note to a colleague' } },
  ]);
  expect(contentToText(result!.content)).toContain('Loaded SendMessage.');
  expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['SendMessage', 'ToolSearch']);
});

test('ToolSearch says which tools could not be loaded when their family fails to import', async () => {
  const broken = defineFamily({
    name: 'broken',
    version: '1.0.0',
    load: async () => {
      throw new Error('Cannot find package "heavy-dependency"');
    },
    manifest: [{ name: 'HeavyTool', description: 'Needs a dependency that is not installed.' }],
  });
  const session = await createSession({ cwd: dir, stateDir: dir, families: [broken, toolSearch()] });
  sessions.push(session);
  const [result] = await session.run([
    { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:HeavyTool' } },
  ]);
  const text = contentToText(result!.content);
  expect(result!.is_error).toBeUndefined();
  expect(text).toContain('Could not load HeavyTool: the code of its family failed to import');
  expect(
    session
      .notices()
      .some((n) => n.message.includes('Family "broken" failed to load: Cannot find package "heavy-dependency"')),
  ).toBe(true);
});

test('a ToolSearch built with createToolSearchTool can be given to a session as a plain tool', async () => {
  const session = await createSession({
    cwd: dir,
    stateDir: dir,
    families: [
      deferred,
      defineFamily({
        name: 'mine',
        version: '1.0.0',
        tools: [createToolSearchTool()],
        setup: (api) => api.setDeferralPolicy(() => new Set(['CronCreate'])),
      }),
    ],
  });
  sessions.push(session);
  const [result] = await session.run([
    { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'schedule a recurring job' } },
  ]);
  expect(contentToText(result!.content)).toMatch(
    /^Found 1 tool matching "schedule a recurring job"\. Loaded CronCreate\./,
  );
});

test('ToolSearch rejects a max_results that is not a whole number from 1 to 25, and unknown keys, naming the field', async () => {
  const session = await createSession({
    cwd: dir,
    stateDir: dir,
    families: [deferred, toolSearch({ mode: 'always' })],
  });
  sessions.push(session);
  const results = await session.run([
    { type: 'tool_use', id: 'a', name: 'ToolSearch', input: { query: 'job', max_results: 2.5 } },
    { type: 'tool_use', id: 'b', name: 'ToolSearch', input: { query: 'job', max_results: 100 } },
    { type: 'tool_use', id: 'c', name: 'ToolSearch', input: { query: 'job', limit: 3 } },
    { type: 'tool_use', id: 'd', name: 'ToolSearch', input: 'job' },
  ]);
  const texts = results.map((r) => contentToText(r.content));
  expect(results.every((r) => r.is_error === true)).toBe(true);
  expect(texts[0]).toContain('parameter `max_results` should be an int, got number 2.5');
  expect(texts[1]).toContain('parameter `max_results`: too big: expected number to be <=25, got number 100');
  expect(texts[2]).toContain('unexpected parameter `limit`; remove it');
  expect(texts[3]).toContain('expected a JSON object of parameters, got string "job"');
  expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['ToolSearch']);
});

test('ToolSearch lists the pool and builds its index once while the pool is unchanged, and again after it changes', async () => {
  const tools = Array.from({ length: 50 }, (_, i) =>
    makeTool(`tool_${i}`, { description: `Does thing number ${i}.`, shouldDefer: true }),
  );
  const entries = tools.map((tool) => ({
    name: tool.name,
    family: 'f',
    description: `Does thing number ${tool.name.slice(5)}.`,
    searchHint: undefined,
    isMcp: false,
    deferred: true,
    loaded: false,
    tool,
  }));
  let lists = 0;
  let prepares = 0;
  let version = 1;
  const catalog = {
    list: () => {
      lists++;
      return entries;
    },
    get: (name: string) => entries.find((e) => e.name === name),
    load: async (names: readonly string[]) =>
      names.map((name) => ({ name, description: 'x', inputSchema: { type: 'object' as const, properties: {} } })),
    get version() {
      return version;
    },
  };
  const counting: ToolRanker = {
    name: 'counting',
    prepare(analyzed) {
      prepares++;
      return lexicalRanker().prepare(analyzed);
    },
  };
  const tool = createToolSearchTool({ ranker: counting });
  const ctx = { tools: catalog } as unknown as Parameters<typeof tool.call>[1];
  const search = async (query: string) =>
    (await tool.call({ query }, ctx, { onProgress: () => {}, signal: new AbortController().signal })).data as {
      loaded: string[];
      searched: number;
    };
  for (let i = 0; i < 20; i++) expect((await search(`thing number ${i}`)).searched).toBe(50);
  expect([lists, prepares]).toEqual([1, 1]);
  // A new version with the same deferred tools: listed again, not re-indexed.
  version++;
  await search('thing number 3');
  expect([lists, prepares]).toEqual([2, 1]);
  // A tool more: listed and re-indexed.
  entries.push({
    ...entries[0]!,
    name: 'tool_new',
    description: 'Does the new thing.',
    tool: makeTool('tool_new', { shouldDefer: true }),
  });
  version++;
  expect((await search('new thing')).searched).toBe(51);
  expect([lists, prepares]).toEqual([3, 2]);
  // A catalogue without a version is listed on every search, as before.
  const unversioned = { list: catalog.list, get: catalog.get, load: catalog.load };
  const plain = createToolSearchTool({ ranker: counting });
  const before = lists;
  for (let i = 0; i < 3; i++)
    await plain.call({ query: 'thing' }, { tools: unversioned } as unknown as Parameters<typeof tool.call>[1], {
      onProgress: () => {},
      signal: new AbortController().signal,
    });
  expect(lists - before).toBe(3);
});

test('a no-match, a select and a repeated result cost look-ups of the names they show, not passes over the pool', async () => {
  const size = 2000;
  const entries = Array.from({ length: size }, (_, i) => {
    const tool = makeTool(`tool_${String(i).padStart(4, '0')}`, { description: `Does thing ${i}.`, shouldDefer: true });
    return {
      name: tool.name,
      family: 'f',
      description: `Does thing ${i}.`,
      searchHint: undefined,
      isMcp: false,
      deferred: true,
      loaded: i < 5, // five loaded before: the hint skips them
      tool,
    };
  });
  const byName = new Map(entries.map((e) => [e.name, e]));
  const steps = { lists: 0, gets: 0 };
  const definitions = new Map<string, { name: string; description: string; inputSchema: { type: 'object' } }>();
  const catalog = {
    version: 1,
    list: () => {
      steps.lists++;
      return entries;
    },
    get: (name: string) => {
      steps.gets++;
      return byName.get(name);
    },
    // One definition object per tool, as the pool keeps them.
    load: async (names: readonly string[]) =>
      names.map((name) => {
        let d = definitions.get(name);
        if (!d) definitions.set(name, (d = { name, description: `Does ${name}.`, inputSchema: { type: 'object' } }));
        return d;
      }),
  };
  const tool = createToolSearchTool();
  const ctx = { tools: catalog } as unknown as Parameters<typeof tool.call>[1];
  const run = async (query: string) => {
    const { data } = await tool.call({ query }, ctx, { onProgress: () => {}, signal: new AbortController().signal });
    return { data: data as { hint?: string; searched: number; loaded: string[] }, text: tool.mapResult(data, 'x') };
  };
  await run('thing 7'); // lists the pool and builds the index once
  expect(steps.lists).toBe(1);

  steps.gets = 0;
  const miss = await run('qqqzzx');
  expect(miss.data.hint).toContain('Deferred tools not yet loaded: tool_0005, tool_0006');
  expect(miss.data.hint).toContain(`and more (${size} deferred in all)`);
  expect(miss.data.hint).not.toContain('tool_0004');
  // 30 names shown, 5 loaded skipped, one more to know there are more.
  expect(steps.gets).toBeLessThanOrEqual(36);

  steps.gets = 0;
  const select = await run('select:tool_0100,tool_0200');
  expect(select.data.searched).toBe(size);
  expect(select.data.loaded).toEqual(['tool_0100', 'tool_0200']);
  expect(steps.gets).toBe(2);
  expect(steps.lists).toBe(1);

  // A name no tool has as written is the one case that reads the whole pool (for "did you mean").
  const unknown = await run('select:tool_01000');
  expect(String(unknown.text)).toContain('Did you mean');
  expect(steps.lists).toBe(2);

  // The same tools found again: the same text, rendered from the same definitions.
  const first = await run('thing 7');
  steps.gets = 0;
  const again = await run('thing 7');
  expect(again.text).toEqual(first.text);
  // Tools it saw loaded need no look-up again (a pool never unloads one).
  expect(steps.gets).toBe(0);
  expect(again.text).toContain('loaded already');
});

test("one ToolSearch family in two sessions searches each session's own deferred tools", async () => {
  // The same family object (and so the same tool) in two sessions whose pools differ but whose
  // catalogue versions are alike: each search must rank its own session's tools.
  const search = toolSearch({ mode: 'always' });
  const open = async (tool: string, description: string) => {
    const session = await createSession({
      cwd: dir,
      stateDir: dir,
      families: [defineFamily({ name: 'x', version: '1.0.0', tools: [makeTool(tool, { description })] }), search],
    });
    sessions.push(session);
    return session;
  };
  const a = await open('send_invoice', 'Sends an invoice to a customer.');
  const b = await open('send_postcard', 'Sends a postcard to a friend.');
  const find = async (session: Session, id: string) => {
    const [result] = await session.run([{ type: 'tool_use', id, name: 'ToolSearch', input: { query: 'send' } }]);
    return contentToText(result!.content);
  };
  expect(await find(a, 'a1')).toContain('Loaded send_invoice.');
  const fromB = await find(b, 'b1');
  expect(fromB).toContain('Loaded send_postcard.');
  expect(fromB).not.toContain('send_invoice');
  expect(await find(a, 'a2')).toContain('send_invoice was loaded already');
});

test("ToolSearch gives the ranker each tool's searchGroup, and a session's catalogue keeps its version while tools are loaded", async () => {
  const groups: string[] = [];
  const spy: ToolRanker = {
    name: 'spy',
    prepare(analyzed) {
      groups.push(...analyzed.map((t) => `${t.tool.name}=${t.group}`));
      return lexicalRanker().prepare(analyzed);
    },
  };
  const family = defineFamily({
    name: 'remote',
    version: '1.0.0',
    tools: [
      makeTool('create_issue', { description: 'Opens an issue.', shouldDefer: true, searchGroup: 'mcp:github' }),
      makeTool('list_issues', { description: 'Lists issues.', shouldDefer: true, searchGroup: 'mcp:github' }),
      makeTool('post', { description: 'Posts a note.', shouldDefer: true }),
    ],
  });
  const session = await createSession({ cwd: dir, stateDir: dir, families: [family, toolSearch({ ranker: spy })] });
  sessions.push(session);
  await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'open an issue' } }]);
  const [second] = await session.run([
    { type: 'tool_use', id: 't2', name: 'ToolSearch', input: { query: 'list issues' } },
  ]);
  // The first search loaded both issue tools; the second, from the cached index, still knows that.
  expect(contentToText(second!.content)).toContain('list_issues, create_issue were loaded already');
  // Loading a tool did not rebuild the index: the ranker prepared once.
  expect(groups.sort()).toEqual(['create_issue=mcp:github', 'list_issues=mcp:github', 'post=family:remote']);
});

test("ToolSearch names the best result's sibling tools for a task statement, and not for a few keywords", async () => {
  const gh = ['create_branch', 'create_pull_request', 'merge_pull_request', 'list_issues', 'add_issue_comment'].map(
    (n) =>
      makeTool(`mcp__github__${n}`, {
        description: `GitHub: ${n.replace(/_/g, ' ')}.`,
        shouldDefer: true,
        isMcp: true,
      }),
  );
  const other = makeTool('mcp__slack__post_message', {
    description: 'Posts a message to a Slack channel.',
    shouldDefer: true,
    isMcp: true,
  });
  const session = await createSession({
    cwd: dir,
    stateDir: dir,
    families: [defineFamily({ name: 'mcp', version: '1.0.0', tools: [...gh, other] }), toolSearch({ mode: 'always' })],
  });
  sessions.push(session);
  const task =
    'make a new branch off main for the login fix, change the readme there, and open a pull request for review';
  const [result] = await session.run([
    { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: task, max_results: 2 } },
  ]);
  const text = contentToText(result!.content);
  expect(text).toMatch(/Other tools of github, not loaded, for the task's other steps: .*mcp__github__/);
  expect(text).not.toMatch(/Other tools.*mcp__slack__post_message/);
  // Named, not loaded: the request stays small until the model selects them.
  const loaded = session.toolsFor('anthropic').map((t) => t.name);
  expect(loaded.filter((n) => n.startsWith('mcp__github__'))).toHaveLength(2);
  const [short] = await session.run([
    { type: 'tool_use', id: 't2', name: 'ToolSearch', input: { query: 'pull request', max_results: 2 } },
  ]);
  expect(contentToText(short!.content)).not.toContain('Other tools of');
});
