import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { trustProject } from '@toolshed/core';
import { describe, expect, test } from 'vitest';
import type { CommonArgs } from './args.ts';
import { FAMILY_NAMES } from './families.ts';
import { readFilesLine, readProjectFiles } from './project_files.ts';
import { tempDir } from './_test_io.ts';

function argsFor(cwd: string, extra: Partial<CommonArgs> = {}): CommonArgs {
  return {
    cwd,
    families: [...FAMILY_NAMES],
    mode: undefined,
    allow: [],
    deny: [],
    ask: [],
    settingSources: ['user', 'project', 'local', 'claude'],
    settings: [],
    mcpConfig: undefined,
    yes: false,
    json: false,
    ...extra,
  };
}

async function project(settings: Record<string, unknown>): Promise<{ cwd: string; home: string }> {
  const root = await realpath(await tempDir());
  const cwd = path.join(root, 'proj');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(settings));
  await writeFile(
    path.join(cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } } }),
  );
  return { cwd, home };
}

const servers = (config: Record<string, unknown> | undefined) => Object.keys((config?.['mcpServers'] ?? {}) as object);

describe('readProjectFiles', () => {
  test("an untrusted project's .mcp.json starts nothing, and says how to start it", async () => {
    const { cwd, home } = await project({ enableAllProjectMcpServers: true });
    const files = await readProjectFiles(argsFor(cwd), home);
    expect(files.mcpConfig).toBeUndefined();
    expect(files.read).toEqual([path.join(cwd, '.claude', 'settings.json'), path.join(cwd, '.mcp.json')]);
    expect(files.notices[0]).toContain(`("a", "b", "c") were not started: the project folder is not trusted`);
    expect(files.notices[0]).toContain(`toolshed trust ${cwd}`);
  });

  test('once trusted: every server but the disabled ones; only the enabled ones when enabledMcpjsonServers is set', async () => {
    const all = await project({ disabledMcpjsonServers: ['b'] });
    await trustProject(all.cwd, { homeDir: all.home });
    const a = await readProjectFiles(argsFor(all.cwd), all.home);
    expect(servers(a.mcpConfig)).toEqual(['a', 'c']);
    expect(a.notices).toEqual([
      `Servers of ${path.join(all.cwd, '.mcp.json')} not started, as the settings say: "b" (in disabledMcpjsonServers).`,
    ]);

    const some = await project({ enabledMcpjsonServers: ['a', 'b'], disabledMcpjsonServers: ['b'] });
    await trustProject(some.cwd, { homeDir: some.home });
    expect(servers((await readProjectFiles(argsFor(some.cwd), some.home)).mcpConfig)).toEqual(['a']);

    const every = await project({ enabledMcpjsonServers: ['a'], enableAllProjectMcpServers: true });
    await trustProject(every.cwd, { homeDir: every.home });
    expect(servers((await readProjectFiles(argsFor(every.cwd), every.home)).mcpConfig)).toEqual(['a', 'b', 'c']);
  });

  test('--mcp-config is used whole; without the claude source or the mcp family, .mcp.json is not read', async () => {
    const { cwd, home } = await project({ disabledMcpjsonServers: ['a'] });
    const given = await readProjectFiles(argsFor(cwd, { mcpConfig: path.join(cwd, '.mcp.json') }), home);
    expect(servers(given.mcpConfig)).toEqual(['a', 'b', 'c']);
    const noClaude = await readProjectFiles(argsFor(cwd, { settingSources: ['user', 'project', 'local'] }), home);
    expect(noClaude).toEqual({ read: [], notices: [] });
    expect((await readProjectFiles(argsFor(cwd, { families: ['fs'] }), home)).read).toEqual([
      path.join(cwd, '.claude', 'settings.json'),
    ]);
  });

  test('a .mcp.json without mcpServers, or that is not JSON, is a usage error naming it', async () => {
    const { cwd, home } = await project({});
    await writeFile(path.join(cwd, '.mcp.json'), '{"servers": {}}');
    await expect(readProjectFiles(argsFor(cwd), home)).rejects.toThrow(
      `The .mcp.json file "${path.join(cwd, '.mcp.json')}" has no "mcpServers" key (it has "servers")`,
    );
    await writeFile(path.join(cwd, '.mcp.json'), '{"mcpServers": {');
    await expect(readProjectFiles(argsFor(cwd), home)).rejects.toThrow('is not valid JSON');
  });
});

describe('readFilesLine', () => {
  test('names the files in one line, shortened under the project and the home folder', () => {
    expect(
      readFilesLine(['/h/.claude/settings.json', '/p/.claude/settings.json', '/p/.mcp.json', '/etc/x.json'], {
        cwd: '/p',
        homeDir: '/h',
      }),
    ).toBe('read ~/.claude/settings.json, .claude/settings.json, .mcp.json, /etc/x.json');
    expect(readFilesLine([], { cwd: '/p', homeDir: '/h' })).toBe('read no settings or MCP file');
  });
});
