import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { fileTools } from './mod.ts';

test('the fs family passes the conformance check', async () => {
  const family = fileTools();
  expect(family.name).toBe('fs');
  expect(await checkFamily(family)).toEqual([]);
});
