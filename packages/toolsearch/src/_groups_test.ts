import { expect, test } from 'vitest';
import { addTerms, Bm25 } from './_bm25.ts';
import { TopScores } from './_diversify.ts';
import { GroupIndex } from './_groups.ts';
import { analyzeTool } from './tool_index.ts';

/** The group index of tools whose documents are the words of their names after `__`. */
function groupsOf(names: string[]): GroupIndex {
  const tools = names.map((name) => analyzeTool({ name, description: '' }));
  const bm25 = new Bm25(
    names.map((name) => {
      const m = new Map<string, number>();
      addTerms(m, name.split('__').pop()!.split('_'));
      return m;
    }),
    { k1: 2, b: 0.75 },
  );
  return new GroupIndex(tools, {
    params: { k1: 2, b: 0.75 },
    lengthOf: (i) => bm25.length(i),
    postings: (term) => bm25.entries(term),
  });
}

test('a group lift adds the group match to every tool of the group that already matches, and to no other', () => {
  const names = ['Betting__odds', 'Betting__upcoming_events', 'Betting__teams', 'Concerts__upcoming_events', 'solo'];
  const groups = groupsOf(names);
  expect(groups.size).toBe(3);
  expect([...groups.members(groups.groupOf[1]!)]).toEqual([0, 1, 2]);
  const scores = Float64Array.of(0, 1, 0, 1, 1);
  groups.lift(['odds', 'events'], scores, { weight: 0.5 });
  // Betting holds "odds" and "events", Concerts only "events"; the Betting tool with no match of its own stays at 0.
  expect(scores[1]! - 1).toBeGreaterThan(scores[3]! - 1);
  expect(scores[3]).toBeGreaterThan(1);
  expect(scores[0]).toBe(0);
  expect(scores[2]).toBe(0);
  expect(scores[4]).toBe(1);
});

test('a lift visits only the tools of the groups it reaches, or passes once over a catalogue it mostly reaches', () => {
  const names = Array.from({ length: 1000 }, (_, i) => `Api${i % 100}__call_${i}`);
  names.push('Rare__find_unicorn');
  const groups = groupsOf(names);
  const scores = new Float64Array(names.length).fill(1);
  groups.lift(['unicorn'], scores, { weight: 1 });
  expect(groups.visited).toBe(1);
  groups.lift(['call'], scores, { weight: 1 });
  expect(groups.visited).toBe(1 + names.length);
  groups.lift(['nothing'], scores, { weight: 1 });
  expect(groups.visited).toBe(1 + names.length);
  // Asked for the best tools as well, a lift of one group passes over every tool once and finds them.
  const top = new TopScores(2);
  scores[5] = 2;
  expect(groups.lift(['unicorn'], scores, { weight: 1, top })).toBe(true);
  expect(groups.visited).toBe(1 + 2 * names.length);
  expect(top.indices()).toEqual([names.length - 1, 5]);
});

test('a group scores as a document that sums its tools would, without such documents being built', () => {
  const names = ['Api__get_odds', 'Api__get_events', 'Api__odds_history', 'Other__events', 'Third__get_get'];
  // One tool's words weigh nothing (a field weighted 0): its group still holds them, at 0.
  const docs = names.map((name, i) => {
    const m = new Map<string, number>();
    addTerms(m, name.split('__').pop()!.split('_'), { weight: i === 0 ? 0 : 1.5 });
    return m;
  });
  const bm25 = new Bm25(docs, { k1: 2, b: 0.75 });
  const tools = names.map((name) => analyzeTool({ name, description: '' }));
  const groups = new GroupIndex(tools, {
    params: { k1: 2, b: 0.75 },
    lengthOf: (i) => bm25.length(i),
    postings: (term) => bm25.entries(term),
  });
  // The reference: one document per group, the sum of its tools', in an index of its own.
  const summed = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  docs.forEach((doc, i) => {
    for (const [term, tf] of doc)
      summed[groups.groupOf[i]!]!.set(term, (summed[groups.groupOf[i]!]!.get(term) ?? 0) + tf);
  });
  const eager = new Bm25(summed, { k1: 2, b: 0.75 });
  for (const term of ['odds', 'events', 'get', 'history', 'none']) {
    const lifted = new Float64Array(names.length).fill(1);
    groups.lift([term], lifted, { weight: 0.5 });
    const perGroup = new Float64Array(3);
    eager.accumulate([term], perGroup, 0.5);
    for (let i = 0; i < names.length; i++)
      expect(lifted[i]! - 1, `${term} in ${names[i]}`).toBeCloseTo(perGroup[groups.groupOf[i]!]!, 12);
  }
});
