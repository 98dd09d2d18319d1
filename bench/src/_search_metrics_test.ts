import { expect, test } from 'vitest';
import { meanScores, pairedBootstrap, retrievalScores } from './_search_metrics.ts';

test('retrievalScores gives Recall@5, NDCG@10 and MRR@10 of one ranking', () => {
  const s = retrievalScores(['a', 'x', 'b'], ['a', 'b']);
  expect(s.recallAt5).toBe(1);
  expect(s.mrrAt10).toBe(1);
  // DCG 1 + 1/log2(4) = 1.5 over the ideal 1 + 1/log2(3).
  expect(s.ndcgAt10).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 10);
  expect(retrievalScores(['x', 'y', 'z', 'w', 'v', 'a'], ['a'])).toEqual({
    recallAt5: 0,
    ndcgAt10: 1 / Math.log2(7),
    mrrAt10: 1 / 6,
  });
  expect(retrievalScores([], ['a'])).toEqual({ recallAt5: 0, ndcgAt10: 0, mrrAt10: 0 });
});

test('retrievalScores refuses a query without relevant tools, and meanScores averages', () => {
  expect(() => retrievalScores(['a'], [])).toThrow(RangeError);
  expect(
    meanScores([
      { recallAt5: 1, ndcgAt10: 1, mrrAt10: 1 },
      { recallAt5: 0, ndcgAt10: 0.5, mrrAt10: 0 },
    ]),
  ).toEqual({ recallAt5: 0.5, ndcgAt10: 0.75, mrrAt10: 0.5 });
  expect(meanScores([])).toEqual({ recallAt5: 0, ndcgAt10: 0, mrrAt10: 0 });
});

test('pairedBootstrap brackets the mean difference, repeats with its seed, and refuses unpaired lists', () => {
  const a = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0 : 1));
  const b = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 0 : 1));
  const got = pairedBootstrap(a, b);
  expect(got.difference).toBeCloseTo(0.25, 10);
  expect(got.low).toBeGreaterThan(0.15);
  expect(got.low).toBeLessThan(0.25);
  expect(got.high).toBeGreaterThan(0.25);
  expect(pairedBootstrap(a, b)).toEqual(got);
  // Equal rankers: a zero-width interval at 0.
  expect(pairedBootstrap(a, a)).toEqual({ difference: 0, low: 0, high: 0 });
  expect(() => pairedBootstrap([1], [1, 0])).toThrow(RangeError);
  expect(() => pairedBootstrap([], [])).toThrow(/non-empty/);
});
