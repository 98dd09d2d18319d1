import { expect, test } from 'vitest';
import { HELD_OUT_QUERIES, loadHeldOutCatalogue } from './_search_held_out.ts';

test('the held-out catalogue lists both MCP servers and the built-in tools, and every query names tools it holds', async () => {
  const { tools, queries, problems } = await loadHeldOutCatalogue();
  expect(problems).toEqual([]);
  const names = new Set(tools.map((t) => t.name));
  expect(names.size).toBe(tools.length);
  expect(names).toContain('mcp__everything__echo');
  expect(names).toContain('mcp__filesystem__directory_tree');
  expect(names).toContain('Bash');
  expect(names).toContain('Read');
  expect(queries).toHaveLength(HELD_OUT_QUERIES.length);
  for (const q of queries) {
    expect(q.relevant.length).toBeGreaterThan(0);
    for (const r of q.relevant) expect(names.has(r)).toBe(true);
  }
  // Every group of the catalogue is asked about, so no source goes unmeasured.
  const asked = new Set(
    queries.flatMap((q) => q.relevant.map((r) => (r.startsWith('mcp__') ? r.split('__')[1] : 'builtin'))),
  );
  expect([...asked].sort()).toEqual(['builtin', 'everything', 'filesystem']);
});
