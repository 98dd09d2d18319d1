import { expect, test } from 'vitest';
import { bestCandidates, diversify } from './_diversify.ts';
import { TermContributions } from './_term_cache.ts';

function term(entries: [number, number][], held = true): TermContributions {
  return new TermContributions(
    Int32Array.from(entries, ([d]) => d),
    Float64Array.from(entries, ([, v]) => v),
    Float64Array.from(entries, ([, v]) => (held ? v : 0)),
  );
}

test('bestCandidates gives the highest positive scores, best first, ties in tool order', () => {
  expect(bestCandidates(Float64Array.of(0, 2, 5, 1, 5, -1), 3)).toEqual([2, 4, 1]);
  expect(bestCandidates(Float64Array.of(0, 0), 3)).toEqual([]);
});

test('diversify moves up the candidate that covers a need the better ones leave uncovered, within the same band of scores', () => {
  // Tools 0–3 cover the weather; tool 4 alone covers the flights.
  const weather = term([0, 1, 2, 3].map((d) => [d, 4 - d * 0.1]));
  const flights = term([[4, 3]]);
  const scores = Float64Array.of(4, 3.9, 3.8, 3.7, 3);
  diversify(scores, { terms: [weather, flights], discount: 0.5 });
  expect(bestCandidates(scores, 5)).toEqual([0, 4, 1, 2, 3]);
  expect([...scores].sort()).toEqual([3, 3.7, 3.8, 3.9, 4]);
  // A term a tool matches only in part of a name word is not held: nothing is discounted.
  const partial = Float64Array.of(4, 3.9, 3.8, 3.7, 3);
  const unheld = term(
    [0, 1, 2, 3].map((d) => [d, 4 - d * 0.1]),
    false,
  );
  diversify(partial, { terms: [unheld, flights], discount: 0.5 });
  expect(bestCandidates(partial, 5)).toEqual([0, 1, 2, 3, 4]);
});
