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

/** Levenshtein by the whole table: what the bounded forms must agree with. */
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** closestNames without any bound: every distance in full, then sorted. */
function closestByFullTables(name: string, pool: string[], max = 3): string[] {
  const lower = name.slice(0, 128).toLowerCase();
  const limit = Math.max(2, Math.ceil(lower.length * 0.5));
  return pool
    .map((candidate) => {
      const c = candidate.slice(0, 128).toLowerCase();
      const gap = Math.abs(c.length - lower.length);
      const distance = c.includes(lower) || lower.includes(c) ? gap / 2 : levenshtein(lower, c);
      return { candidate, distance };
    })
    .filter((s) => s.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((s) => s.candidate);
}

test('closestNames gives what full edit-distance tables give, for short and long names', () => {
  let seed = 11;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const word = (length: number) => Array.from({ length }, () => 'abcdeAB_'[next(8)]).join('');
  for (let round = 0; round < 300; round++) {
    const pool = Array.from({ length: 30 }, () => word(1 + next(45)));
    const name = next(3) === 0 ? pool[next(pool.length)]!.slice(1) : word(1 + next(45));
    expect(closestNames(name, pool), JSON.stringify({ name, pool })).toEqual(closestByFullTables(name, pool));
  }
});

test('closestNames does a bounded number of table steps: capped at 128 characters, cut short past the best so far', () => {
  const pool = Array.from({ length: 10_000 }, (_, i) => `mcp__server${i % 50}__tool_${i}_action`);
  const stepsFor = (name: string) => {
    const steps = { count: 0 };
    closestNames(name, pool, { steps });
    return steps.count;
  };
  const longest = Math.max(...pool.map((n) => n.length));
  // At most one column per character of each candidate: never a table of name × candidate.
  expect(stepsFor('mcp__server7__tool_4507_actoin')).toBeLessThanOrEqual(pool.length * longest);
  // A name like none of them is given up on early in each comparison (each full one takes a column per character).
  const everyColumn = pool.reduce((sum, n) => sum + n.length, 0);
  expect(stepsFor('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBeLessThan(everyColumn * 0.6);
  // Past 128 characters, a longer name costs nothing more.
  expect(stepsFor('y'.repeat(100_000))).toBe(stepsFor('y'.repeat(128)));
});

test('closestNames called from inside its own candidate list still answers both', () => {
  function* names() {
    expect(closestNames('Reed', ['Read', 'Edit'])).toEqual(['Read']);
    yield 'Write';
    yield 'Wrote';
  }
  expect(closestNames('Writ', names())).toEqual(['Write', 'Wrote']);
});
