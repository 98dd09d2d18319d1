import { expect, test } from 'vitest';
import { bm25Ranker } from './bm25_ranker.ts';
import { createToolIndex } from './tool_index.ts';

test('bm25Ranker matches whole words only: no stemming, no camelCase splitting', () => {
  const index = createToolIndex(
    [
      { name: 'sendMessage', description: 'Sends messages.' },
      {
        name: 'send_message',
        description: 'Posts a message.',
        inputSchema: { type: 'object', properties: { channel: {} } },
      },
    ],
    { ranker: bm25Ranker() },
  );
  expect(index.search('message').map((h) => h.name)).toEqual(['send_message']);
  expect(index.search('messages').map((h) => h.name)).toEqual(['sendMessage']);
  expect(index.search('channel').map((h) => h.name)).toEqual(['send_message']);
  expect(index.search('the')).toEqual([]);
});
