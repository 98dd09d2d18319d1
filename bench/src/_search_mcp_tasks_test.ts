import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { loadMcpTasks } from './_search_mcp_tasks.ts';

test('loadMcpTasks reads the repository set: 203 tools of 15 servers, every task naming listed tools', async () => {
  const { tools, multiStep, singleNeed, onePerTool, servers } = await loadMcpTasks();
  expect(tools.length).toBe(203);
  expect(servers.length).toBe(15);
  expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  for (const t of tools) expect(t.name).toMatch(/^mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/);
  expect(multiStep.length).toBe(40);
  expect(singleNeed.length).toBe(28);
  const words = multiStep.map((q) => q.query.split(/\s+/).length).sort((a, b) => a - b);
  expect(words[words.length >> 1]).toBeGreaterThanOrEqual(15);
  for (const q of multiStep) expect(q.relevant.length).toBeGreaterThanOrEqual(2);
  // One request per tool, in the catalogue's order: the request's first tool is that tool.
  expect(onePerTool.map((q) => q.relevant[0])).toEqual(tools.map((t) => t.name));
});

test('loadMcpTasks names a task whose tool is not in the list, and a missing file', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-mcp-tasks-'));
  try {
    await expect(loadMcpTasks(dir)).rejects.toThrow(/Could not read the mcp_tasks file ".*tools\.json"/);
    await writeFile(
      path.join(dir, 'tools.json'),
      JSON.stringify({ tools: [{ server: 'my.srv', name: 'send', description: 'Sends' }] }),
    );
    await writeFile(
      path.join(dir, 'tasks.json'),
      JSON.stringify({
        multiStep: [{ task: 'send it', tools: ['my.srv/send'] }],
        singleNeed: [{ task: 'x', tools: ['my.srv/nope'] }],
      }),
    );
    await expect(loadMcpTasks(dir)).rejects.toThrow(/Could not read the mcp_tasks file ".*one_need_per_tool\.json"/);
    await writeFile(path.join(dir, 'one_need_per_tool.json'), JSON.stringify({ needs: [] }));
    await expect(loadMcpTasks(dir)).rejects.toThrow(/"x" names "my\.srv\/nope"/);
    await writeFile(
      path.join(dir, 'tasks.json'),
      JSON.stringify({ multiStep: [{ task: 'send it', tools: ['my.srv/send'] }], singleNeed: [] }),
    );
    const { tools, multiStep } = await loadMcpTasks(dir);
    expect(tools).toEqual([
      { name: 'mcp__my_srv__send', description: 'Sends', inputSchema: undefined, group: 'mcp:my.srv' },
    ]);
    expect(multiStep[0]!.relevant).toEqual(['mcp__my_srv__send']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
