import { expect, test } from 'vitest';
import { compareWithReference } from './_search_against_reference.ts';

test('the comparison builds and searches each ranker in turns and gives medians and ratios of both clocks', () => {
  const calls: string[] = [];
  const ranker = (name: string, cost: number) => () => {
    calls.push(`${name}:build`);
    return {
      search(query: string) {
        calls.push(`${name}:${query}`);
        // Work proportional to the cost, so the ratios have something to measure.
        let x = 0;
        for (let i = 0; i < cost * 20_000; i++) x += Math.sqrt(i);
        return [x];
      },
    };
  };
  const longQueries = ['a', 'b', 'c'];
  const keywordQueries = ['k'];
  const { rows, summary } = compareWithReference(
    { reference: ranker('ref', 1), current: ranker('cur', 3), bm25: ranker('bm25', 1) },
    { catalogue: [], longQueries, keywordQueries, builds: 2, rounds: 2, coldQueries: 2 },
  );
  // Two builds each, in turns (ABBA), each followed by its first search and first pass.
  const builds = calls.filter((c) => c.endsWith(':build'));
  expect(builds).toEqual(['ref:build', 'cur:build', 'cur:build', 'ref:build', 'ref:build', 'cur:build', 'bm25:build']);
  // Warm: every query once to warm up, then `rounds` passes, block by block, each ranker in turn.
  const warm = calls.slice(calls.lastIndexOf('bm25:build') + 1);
  expect(warm.filter((c) => c === 'cur:b')).toHaveLength(1 + 2);
  expect(warm.filter((c) => c === 'bm25:k')).toHaveLength(1 + 2);
  expect(rows.map((r) => r.task)).toContain('long request, warm index (current, in turns)');
  expect(summary.cpu.longUs.ratio).toBeGreaterThan(1.5);
  expect(summary.wall.keywordP50Us.ratio).toBeGreaterThan(1.5);
  expect(summary.wall.longP50Us.plainBm25).toBeGreaterThan(0);
  expect(summary.turns).toEqual({ builds: 2, rounds: 2, coldQueries: 2 });
});
