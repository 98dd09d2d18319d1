import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { webTools } from './mod.ts';

test('the web family passes the conformance check', async () => {
  const family = webTools();
  expect(family.name).toBe('web');
  expect(await checkFamily(family)).toEqual([]);
});
