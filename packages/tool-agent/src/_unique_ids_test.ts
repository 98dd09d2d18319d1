import { afterEach, expect, test, vi } from 'vitest';
import { UniqueIds } from './_unique_ids.ts';

const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'Echo', input: {} });

afterEach(() => void vi.restoreAllMocks());

test('an id already in the conversation or claimed before gets the next free suffix', () => {
  const ids = new UniqueIds([{ role: 'assistant', content: [use('a'), use('a_2')] }]);
  expect([use('a'), use('b'), use('a'), use('b'), use('')].map((b) => ids.claim(b).id)).toEqual([
    'a_3',
    'b',
    'a_4',
    'b_2',
    'toolu',
  ]);
});

test('an id repeated 100 000 times costs a few set lookups per call, not one per earlier repeat', () => {
  const ids = new UniqueIds([]);
  const has = vi.spyOn(Set.prototype, 'has');
  for (let i = 0; i < 100_000; i++) ids.claim(use('same'));
  expect(has.mock.calls.length).toBeLessThan(300_000);
});
