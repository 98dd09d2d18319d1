import { expect, test } from 'vitest';
import { addTerms } from './_bm25.ts';
import { GroupIndex } from './_groups.ts';
import { analyzeTool } from './tool_index.ts';

function docsOf(names: string[]): Map<string, number>[] {
  return names.map((name) => {
    const m = new Map<string, number>();
    addTerms(m, name.split('__').pop()!.split('_'));
    return m;
  });
}

test('a group lift adds the group match to every tool of the group that already matches, and to no other', () => {
  const names = ['Betting__odds', 'Betting__upcoming_events', 'Betting__teams', 'Concerts__upcoming_events', 'solo'];
  const tools = names.map((name) => analyzeTool({ name, description: '' }));
  const groups = new GroupIndex(tools, docsOf(names), { k1: 2, b: 0.75 });
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
  const tools = names.map((name) => analyzeTool({ name, description: '' }));
  const groups = new GroupIndex(tools, docsOf(names), { k1: 2, b: 0.75 });
  const scores = new Float64Array(tools.length).fill(1);
  groups.lift(['unicorn'], scores, { weight: 1 });
  expect(groups.visited).toBe(1);
  groups.lift(['call'], scores, { weight: 1 });
  expect(groups.visited).toBe(1 + tools.length);
  groups.lift(['nothing'], scores, { weight: 1 });
  expect(groups.visited).toBe(1 + tools.length);
});
