import { expect, test } from 'vitest';
import { closestNames } from './closest_names.ts';

test.each([
  ['Reed', ['Read', 'Edit', 'Write'], ['Read']],
  ['bash', ['Bash', 'Glob'], ['Bash']],
  ['WebFech', ['WebFetch', 'WebSearch', 'Read'], ['WebFetch', 'WebSearch']],
  ['Zzzzzz', ['Read', 'Edit'], []],
  ['mcp__github__create', ['mcp__github__create_issue', 'Read'], ['mcp__github__create_issue']],
])('closestNames(%j, …) suggests the near names, closest first', (name, candidates, expected) => {
  expect(closestNames(name, candidates)).toEqual(expected);
});

test('closestNames bounds its work: a 1 000-character name or a 10 000-name pool still gets the right answer', () => {
  const pool = Array.from({ length: 10_000 }, (_, i) => `mcp__server${i % 50}__tool_${i}_action`);
  expect(closestNames('x'.repeat(1000), pool)).toEqual([]);
  expect(closestNames('mcp__server7__tool_4507_actoin', pool, { max: 1 })).toEqual(['mcp__server7__tool_4507_action']);
  // Both sides longer than 32 characters take the banded table rather than the bit vectors.
  const long = `${'a'.repeat(40)}_suffix`;
  expect(closestNames(`${'a'.repeat(40)}_sufix`, [long, 'b'.repeat(47)])).toEqual([long]);
});
