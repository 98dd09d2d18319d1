import { expect, test } from 'vitest';
import { leadEnd, surfaceTerms } from './_analyze.ts';
import { addTerms, Bm25 } from './_bm25.ts';
import { SurfaceIndex } from './_surface_index.ts';
import { analyzeTool } from './tool_index.ts';
import type { AnalyzedTool, SearchableTool } from './ranker_types.ts';

const weights = { name: 3, hint: 2, description: 1, descriptionRest: 0.5, parameters: 0.5 };

const catalogue: SearchableTool[] = [
  { name: 'stock_quote', description: 'Quotes of stocks and the stock market.' },
  { name: 'footage', description: 'Short videos made from stock footage.' },
  { name: 'list_pull_requests', description: 'Lists pull requests.', searchHint: 'requests listing' },
  { name: 'getInventory', description: 'The inventory; get it.', inputSchema: { properties: { getInventory: {} } } },
  {
    name: 'search',
    description: 'Searches, searching and searched.',
    inputSchema: { properties: { query: { description: 'What to search for, the searches' } } },
  },
  { name: 'Unicode', description: 'Café menus and cafés.' },
  {
    name: 'quotes_by_symbol',
    description: 'Quotes of one stock.\nStocks are listed by symbol; getQuotes searches the stocks. Searching is free.',
  },
];

function stemmedIndex(tools: readonly AnalyzedTool[]): Bm25 {
  return new Bm25(
    tools.map((t) => {
      const m = new Map<string, number>();
      addTerms(m, t.name.stems, { weight: weights.name });
      addTerms(m, t.name.compounds, { weight: weights.name });
      addTerms(m, t.hint, { weight: weights.hint });
      addTerms(m, t.description, { weight: weights.description, to: t.descriptionLead.terms });
      addTerms(m, t.description, { weight: weights.descriptionRest, from: t.descriptionLead.terms });
      addTerms(m, t.parameters, { weight: weights.parameters });
      return m;
    }),
    { k1: 2, b: 0.75 },
  );
}

/** What the surface index stands for: every tool's words as written, indexed whole from its text. */
function eagerWords(tools: readonly AnalyzedTool[]): Bm25 {
  return new Bm25(
    tools.map((t) => {
      const m = new Map<string, number>();
      addTerms(m, t.name.words, { weight: weights.name });
      addTerms(m, surfaceTerms(t.tool.searchHint ?? ''), { weight: weights.hint });
      const description = t.tool.description;
      const cut = leadEnd(description);
      addTerms(m, surfaceTerms(description.slice(0, cut)), { weight: weights.description });
      addTerms(m, surfaceTerms(description.slice(cut)), { weight: weights.descriptionRest });
      const params = t.words.parameters.join(' ');
      addTerms(m, surfaceTerms(params), { weight: weights.parameters });
      return m;
    }),
    { k1: 2, b: 0.75 },
  );
}

test('the words as written score every tool as an index of their unstemmed words would, from the stemmed postings', () => {
  const tools = catalogue.map(analyzeTool);
  const stemmed = stemmedIndex(tools);
  const index = new SurfaceIndex(tools, { weights, k1: 2, b: 0.75, stemmed: (t) => stemmed.entries(t) });
  const eager = eagerWords(tools);
  const words = [
    'stocks',
    'stock',
    'requests',
    'request',
    'getinventory',
    'inventory',
    'get',
    'search',
    'searching',
    'getquotes',
    'quotes',
    'symbol',
  ];
  for (const word of [...words, 'searches', 'searched', 'café', 'cafés', 'footage', 'nothing']) {
    const lazy = new Float64Array(tools.length);
    const whole = new Float64Array(tools.length);
    index.accumulate([word], lazy, 0.25);
    eager.accumulate([word], whole, 0.25);
    for (let i = 0; i < tools.length; i++)
      expect(lazy[i], `${word} in ${tools[i]!.tool.name}`).toBeCloseTo(whole[i]!, 12);
  }
});

test('a word reads only the postings of its stem, once', () => {
  const tools = [
    ...Array.from({ length: 300 }, (_, i) =>
      analyzeTool({ name: `tool_${i}`, description: `Item ${i} of the shelf.` }),
    ),
    ...catalogue.map(analyzeTool),
  ];
  const stemmed = stemmedIndex(tools);
  const index = new SurfaceIndex(tools, { weights, k1: 2, b: 0.75, stemmed: (t) => stemmed.entries(t) });
  const scores = new Float64Array(tools.length);
  index.accumulate(['stock'], scores, 1);
  // Three tools hold the stem "stock", two of them also as "stocks" (one of them twice): their
  // postings and the three variants. "stock" is kept; "stocks" reads the variants only.
  expect(index.examined).toBe(3 + 3);
  index.accumulate(['stock', 'stocks'], scores, 1);
  expect(index.examined).toBe(3 + 3 + 3);
  index.accumulate(['unknown'], scores, 1);
  expect(index.examined).toBe(3 + 3 + 3);
});

test("a word as written added into a term's contributions adds what it scores on its own, where the tools hold it", () => {
  const tools = catalogue.map(analyzeTool);
  const stemmed = stemmedIndex(tools);
  const index = new SurfaceIndex(tools, { weights, k1: 2, b: 0.75, stemmed: (t) => stemmed.entries(t) });
  for (const word of ['stock', 'stocks', 'search', 'nothing']) {
    // Every tool, so the word's tools are among them.
    const docs = Int32Array.from(tools.keys());
    const values = new Float64Array(tools.length).fill(1);
    index.addTo(word, { docs, values, weight: 0.25 });
    const alone = new Float64Array(tools.length);
    index.accumulate([word], alone, 0.25);
    for (let i = 0; i < tools.length; i++)
      expect(values[i]! - 1, `${word} in ${tools[i]!.tool.name}`).toBeCloseTo(alone[i]!, 12);
  }
});
