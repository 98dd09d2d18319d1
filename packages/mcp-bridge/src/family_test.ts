import { expect, test } from 'vitest';
import { checkFamily } from '@toolshed/core/testing';
import { mcpServers } from './mod.ts';

test('the mcp family passes the conformance check', async () => {
  const family = mcpServers();
  expect(family.name).toBe('mcp');
  expect(await checkFamily(family)).toEqual([]);
});
