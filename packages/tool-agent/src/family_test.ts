import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { agentTools } from './mod.ts';

test('the agent family passes the conformance check', async () => {
  const family = agentTools();
  expect(family.name).toBe('agent');
  expect(await checkFamily(family)).toEqual([]);
});
