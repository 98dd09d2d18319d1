import { expect, test } from 'vitest';
import { hybridRanker } from './hybrid_ranker.ts';
import { lexicalRanker } from './lexical_ranker.ts';
import type { ToolRanker } from './ranker_types.ts';
import { createToolIndex } from './tool_index.ts';

// A ranker that knows one synonym the words do not share: what an embedding model adds.
const synonyms: ToolRanker = {
  name: 'synonyms',
  prepare(tools) {
    return (query) => tools.map((t) => (query.text.includes('post') && t.tool.name === 'send_message' ? 1 : 0));
  },
};

test('hybridRanker fuses ranks, so a tool found by either ranker is found', async () => {
  const tools = [
    { name: 'send_message', description: 'Sends a chat message.' },
    { name: 'post_office_finder', description: 'Finds the nearest post office.' },
    { name: 'list_channels', description: 'Lists chat channels.' },
  ];
  const index = createToolIndex(tools, { ranker: hybridRanker([lexicalRanker(), synonyms], { weights: [1, 2] }) });
  const hits = await index.search('post to the team');
  expect(hits.map((h) => h.name)).toEqual(['send_message', 'post_office_finder']);
  expect(await index.search('channels')).toEqual([{ name: 'list_channels', score: 1 / 61 }]);
});

test('hybridRanker needs two rankers and one weight per ranker', () => {
  expect(() => hybridRanker([lexicalRanker()])).toThrow(/two or more rankers, got 1/);
  expect(() => hybridRanker([lexicalRanker(), synonyms], { weights: [1] })).toThrow(/1 weights for 2 rankers/);
});
