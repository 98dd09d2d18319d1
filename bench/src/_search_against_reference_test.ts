import { expect, test } from 'vitest';
import { compareWithReference } from './_search_against_reference.ts';

test('the comparison builds and searches each ranker in turns and gives medians, fastest runs and ratios of both clocks', () => {
  const calls: string[] = [];
  const ranker = (name: string) => () => {
    calls.push(`${name}:build`);
    return {
      search(query: string) {
        calls.push(`${name}:${query}`);
        return [];
      },
    };
  };
  const longQueries = ['a', 'b', 'c'];
  const keywordQueries = ['k'];
  const { rows, summary } = compareWithReference(
    { reference: ranker('ref'), current: ranker('cur'), bm25: ranker('bm25') },
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
  // Every figure is given for both rankers with its ratio, on both clocks (no figure is checked: timing).
  for (const figure of [summary.wall.buildMs, summary.cpu.longUs, summary.fastest.firstSearchMs]) {
    expect(Object.keys(figure)).toEqual(expect.arrayContaining(['current', 'ratio', 'reference']));
  }
  expect(Object.keys(summary.wall.longP50Us)).toContain('plainBm25');
  expect(summary.turns).toEqual({ builds: 2, rounds: 2, coldQueries: 2 });
});
