import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { loadStableToolBench, STABLETOOLBENCH_DIR } from './_search_stabletoolbench.ts';

// The data set is in the repository (bench/data/stabletoolbench); TOOLSHED_STABLETOOLBENCH_DIR
// may point elsewhere, and a folder without it fails here, saying where it looked.
test('loadStableToolBench pools every API of the data set into about 2 480 unique, valid tools', async () => {
  expect(existsSync(STABLETOOLBENCH_DIR), `no StableToolBench data at ${STABLETOOLBENCH_DIR}`).toBe(true);
  const { tools, queries, files } = await loadStableToolBench();
  expect(files).toHaveLength(6);
  expect(tools.length).toBeGreaterThan(2400);
  expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  for (const tool of tools) expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  expect(queries.length).toBe(765);
  const names = new Set(tools.map((t) => t.name));
  for (const q of queries) for (const r of q.relevant) expect(names.has(r)).toBe(true);
});

test('loadStableToolBench names a missing file and turns parameters into a JSON Schema', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-stb-'));
  try {
    await expect(loadStableToolBench(dir)).rejects.toThrow(
      /Could not read StableToolBench file ".*G1_instruction\.json"/,
    );
    const row = {
      query: 'What is the weather?',
      query_id: 1,
      api_list: [
        {
          category_name: 'Weather',
          tool_name: 'Open Weather',
          api_name: 'Current (city)',
          api_description: 'Weather now',
          required_parameters: [{ name: 'city', type: 'STRING', description: 'City name', default: 'Paris' }],
          optional_parameters: [{ name: 'units', type: 'NUMBER', description: '' }],
        },
      ],
      'relevant APIs': [['Open Weather', 'Current (city)']],
    };
    for (const f of ['G1_instruction', 'G1_category', 'G1_tool', 'G2_instruction', 'G2_category', 'G3_instruction'])
      await writeFile(path.join(dir, `${f}.json`), JSON.stringify([row]));
    const { tools, queries } = await loadStableToolBench(dir);
    expect(tools).toEqual([
      {
        name: 'Open_Weather__Current_city',
        description: 'Weather now',
        category: 'Weather',
        inputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', description: 'City name', default: 'Paris' },
            units: { type: 'number' },
          },
          required: ['city'],
        },
      },
    ]);
    expect(queries[0]).toEqual({
      id: 'G1_instruction:1',
      group: 'G1_instruction',
      query: 'What is the weather?',
      relevant: ['Open_Weather__Current_city'],
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
