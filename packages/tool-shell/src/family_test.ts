import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { shellTools } from './mod.ts';

test('the shell family passes the conformance check', async () => {
  const family = shellTools();
  expect(family.name).toBe('shell');
  expect(await checkFamily(family)).toEqual([]);
});
