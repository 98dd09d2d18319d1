import { expect, test } from 'vitest';
import { addTerms, Bm25 } from './_bm25.ts';
import { KeywordIndex } from './_keyword_index.ts';
import { MAX_DESCRIPTION_PAIRS, PhraseIndex } from './_phrase_index.ts';
import { analyzeTool } from './tool_index.ts';
import type { AnalyzedTool } from './ranker_types.ts';

const weights = { name: 3, hint: 2, description: 1 };

const catalogue = [
  { name: 'create_pull_request', description: 'Open a pull request from a branch; the pull request gets a number.' },
  {
    name: 'list_pull_requests',
    description: 'List the pull requests of a repository.',
    searchHint: 'pull request list',
  },
  { name: 'pull_data', description: 'Pull the data of a request.' },
  { name: 'request_pull', description: 'Request a pull of the latest changes.' },
  { name: 'long_notes', description: `${'word '.repeat(MAX_DESCRIPTION_PAIRS)} pull request at the end` },
  { name: 'unrelated', description: 'Weather forecast.' },
].map(analyzeTool);

/** Which tools hold a term in which field, as the ranker gives the phrase index. */
function holdersOf(tools: readonly AnalyzedTool[]) {
  const keywords = new KeywordIndex(tools);
  return (field: 'name' | 'hint' | 'description', term: string) => keywords.holders(field, term);
}

/** What the phrase index stands for: every tool's pairs, indexed whole. */
function eagerPairs(tools: readonly AnalyzedTool[]): Bm25 {
  return new Bm25(
    tools.map((t) => {
      const m = new Map<string, number>();
      const add = (terms: readonly string[], weight: number, end = terms.length) => {
        for (let i = 1; i < Math.min(end, terms.length); i++) addTerms(m, [`${terms[i - 1]} ${terms[i]}`], { weight });
      };
      add(t.name.stems, weights.name);
      add(t.hint, weights.hint);
      add(t.description, weights.description, MAX_DESCRIPTION_PAIRS + 1);
      return m;
    }),
    { k1: 2, b: 0.75 },
  );
}

test('the phrase index scores every tool as an index of all their word pairs would, without building one', () => {
  const index = new PhraseIndex(catalogue, { weights, k1: 2, b: 0.75, holders: holdersOf(catalogue) });
  const eager = eagerPairs(catalogue);
  for (const pair of ['pull request', 'request pull', 'pull data', 'word word', 'forecast weather', 'no such']) {
    const lazy = new Float64Array(catalogue.length);
    const whole = new Float64Array(catalogue.length);
    index.accumulate([pair], lazy, 0.25);
    eager.accumulate([pair], whole, 0.25);
    for (let i = 0; i < catalogue.length; i++)
      expect(lazy[i], `${pair} in ${catalogue[i]!.tool.name}`).toBeCloseTo(whole[i]!, 12);
  }
  // A pair past the description's first pairs is not indexed.
  const end = new Float64Array(catalogue.length);
  index.accumulate(['pull request'], end, 1);
  expect(end[4]).toBe(0);
});

test('a pair reads only the tools that hold both its words, once', () => {
  const many = [
    ...Array.from({ length: 500 }, (_, i) => analyzeTool({ name: `puller_${i}`, description: `Pull item ${i}.` })),
    ...Array.from({ length: 500 }, (_, i) => analyzeTool({ name: `asker_${i}`, description: `Request item ${i}.` })),
    ...catalogue,
  ];
  const index = new PhraseIndex(many, { weights, k1: 2, b: 0.75, holders: holdersOf(many) });
  const scores = new Float64Array(many.length);
  index.accumulate(['pull request'], scores, 1);
  // 500 tools say "pull", 500 others "request", 5 say both in one field: only those fields are
  // read (3 names, 1 hint, 5 descriptions).
  expect(index.examined).toBe(9);
  index.accumulate(['pull request'], scores, 1);
  expect(index.examined).toBe(9);
  index.accumulate(['bad'], scores, 1);
  expect(index.examined).toBe(9);
});
