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
