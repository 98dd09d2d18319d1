import { expect, test } from 'vitest';
import { embeddingRanker } from './embedding_ranker.ts';
import { createToolIndex } from './tool_index.ts';

// A real (if tiny) embedding: letter-trigram counts hashed into 64 dimensions.
function trigramEmbed(texts: readonly string[]): number[][] {
  return texts.map((text) => {
    const v = new Array<number>(64).fill(0);
    const t = ` ${text.toLowerCase()} `;
    for (let i = 0; i + 3 <= t.length; i++) {
      let h = 0;
      for (const c of t.slice(i, i + 3)) h = (h * 31 + c.charCodeAt(0)) % 64;
      v[h]! += 1;
    }
    return v;
  });
}

const tools = [
  { name: 'weather_forecast', description: 'Weather forecast for a city' },
  { name: 'stock_quote', description: 'Price of a stock ticker' },
  { name: 'translate_text', description: 'Translate text between languages' },
];

test('embeddingRanker ranks by cosine similarity, embedding the catalogue once in batches', async () => {
  const calls: number[] = [];
  const index = createToolIndex(tools, {
    ranker: embeddingRanker({
      batchSize: 2,
      embed: async (texts) => {
        calls.push(texts.length);
        return trigramEmbed(texts);
      },
    }),
  });
  expect((await index.search('weather forecast', { maxResults: 1 }))[0]?.name).toBe('weather_forecast');
  expect((await index.search('translate languages', { maxResults: 1 }))[0]?.name).toBe('translate_text');
  // 3 tools in batches of 2, then one call per query.
  expect(calls).toEqual([2, 1, 1, 1]);
});

test('embeddingRanker reports an embed function that returns the wrong number of vectors, and retries after a failure', async () => {
  let fail = true;
  const index = createToolIndex(tools, {
    ranker: embeddingRanker({
      embed: (texts) => {
        if (fail) return [];
        return trigramEmbed(texts);
      },
    }),
  });
  await expect(index.search('stock price')).rejects.toThrow(
    /returned 0 vectors for 3 texts; return one vector per text/,
  );
  fail = false;
  expect((await index.search('stock price'))[0]?.name).toBe('stock_quote');
  expect(() => embeddingRanker({ embed: 'nope' as never })).toThrow(/needs an embed function, got string/);
});
