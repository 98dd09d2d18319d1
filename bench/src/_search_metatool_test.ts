import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadMetaTool, parseCsv } from './_search_metatool.ts';

test('loadMetaTool reads the repository set: 199 tools, 600 single-tool and 154 two-tool queries', async () => {
  const { tools, singleTool, multiTool } = await loadMetaTool();
  expect(tools.length).toBe(199);
  expect(new Set(tools.map((t) => t.name)).size).toBe(199);
  expect(singleTool.length).toBe(600);
  for (const q of singleTool) expect(q.relevant.length).toBe(1);
  expect(new Set(singleTool.map((q) => q.relevant[0])).size).toBe(76);
  expect(multiTool.length).toBe(154);
  for (const q of multiTool) expect(q.relevant.length).toBe(2);
  expect(new Set(multiTool.map((q) => q.relevant.join('|'))).size).toBe(154);
});

test('parseCsv reads quoted fields, doubled quotes and a last line without a line break', () => {
  expect(parseCsv('Query,Tool\n"a, ""b""",X\nc,Y')).toEqual([
    ['Query', 'Tool'],
    ['a, "b"', 'X'],
    ['c', 'Y'],
  ]);
});

test('loadMetaTool names a missing file and a query whose tool is not in the catalogue', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-metatool-'));
  try {
    await expect(loadMetaTool(dir)).rejects.toThrow(/Could not read the metatool file ".*plugin_des\.json"/);
    await writeFile(path.join(dir, 'plugin_des.json'), JSON.stringify({ A: 'Does a.' }));
    await writeFile(path.join(dir, 'all_clean_data.sample.csv'), 'Query,Tool\ndo a,A\ndo b,B\n');
    await writeFile(path.join(dir, 'multi_tool_query_golden.sample.json'), '[]');
    await expect(loadMetaTool(dir)).rejects.toThrow(/"do b" names "B"/);
    await writeFile(path.join(dir, 'all_clean_data.sample.csv'), 'Query,Tool\ndo a,A\n');
    const { tools, singleTool } = await loadMetaTool(dir);
    expect(tools).toEqual([{ name: 'A', description: 'Does a.' }]);
    expect(singleTool).toEqual([
      { id: 'metatool.singleTool:0', group: 'metatool.singleTool', query: 'do a', relevant: ['A'] },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
