import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { toolSearch } from './mod.ts';

test('the search family passes the conformance check', async () => {
  const family = toolSearch();
  expect(family.name).toBe('search');
  expect(await checkFamily(family)).toEqual([]);
});
