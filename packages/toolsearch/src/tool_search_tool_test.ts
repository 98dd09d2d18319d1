import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { hybridRanker } from './hybrid_ranker.ts';
import { lexicalRanker } from './lexical_ranker.ts';
import { toolSearch } from './family.ts';
import { createToolSearchTool, toolSearchTool } from './tool_search_tool.ts';
import type { ToolRanker } from './tool_index.ts';
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
  const session = await createSession({ cwd: dir, stateDir: dir, families: [deferred, toolSearch({ ranker: hybridRanker([lexicalRanker(), meaning]) })] });
  sessions.push(session);
  const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'post a note to a colleague' } }]);
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
  const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:HeavyTool' } }]);
  const text = contentToText(result!.content);
  expect(result!.is_error).toBeUndefined();
  expect(text).toContain('Could not load HeavyTool: the code of its family failed to import');
  expect(session.notices().some((n) => n.message.includes('Family "broken" failed to load: Cannot find package "heavy-dependency"'))).toBe(true);
});

test('a ToolSearch built with createToolSearchTool can be given to a session as a plain tool', async () => {
  const session = await createSession({ cwd: dir, stateDir: dir, families: [deferred, defineFamily({ name: 'mine', version: '1.0.0', tools: [createToolSearchTool()], setup: (api) => api.setDeferralPolicy(() => new Set(['CronCreate'])) })] });
  sessions.push(session);
  const [result] = await session.run([{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'schedule a recurring job' } }]);
  expect(contentToText(result!.content)).toMatch(/^Found 1 tool matching "schedule a recurring job"\. Loaded CronCreate\./);
});

test('ToolSearch rejects a max_results that is not a whole number from 1 to 25, and unknown keys, naming the field', async () => {
  const session = await createSession({ cwd: dir, stateDir: dir, families: [deferred, toolSearch({ mode: 'always' })] });
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
