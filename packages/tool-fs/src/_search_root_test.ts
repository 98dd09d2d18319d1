import { readdir, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { ToolContext } from '@toolshed/core';
import { createPermissionContext, decidePermission } from '@toolshed/core/internal';
import { createGrepTool } from './grep/grep_tool.ts';
import { openSearchRoot, searchDeniedTest } from './_search_root.ts';

let base: string;
let link: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-search-root-')));
  for (const dir of ['notes', 'secrets']) await mkdir(path.join(base, dir));
  await writeFile(path.join(base, 'notes', 'a.txt'), 'notes\n');
  await writeFile(path.join(base, 'secrets', 'a.txt'), 'secret\n');
  link = path.join(base, 'd');
  await symlink('notes', link);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function contextIn(cwd: string, deny: string[] = []): ToolContext {
  return { cwd, permissions: createPermissionContext({ deny }, cwd).context } as ToolContext;
}

async function decided(searched: string, deny: string[] = []): Promise<ToolContext> {
  const ctx = contextIn(base, deny);
  const decision = await decidePermission(
    createGrepTool({ searchEngine: 'js' }),
    { pattern: 'x', path: searched },
    { ctx },
  );
  expect(decision.behavior).toBe('allow');
  return ctx;
}

async function repoint(): Promise<void> {
  await rm(link);
  await symlink(path.join(base, 'secrets'), link);
}

describe('openSearchRoot', () => {
  test('opens the approved folder: read through `via`, it stays that folder after the link is re-pointed', async () => {
    const ctx = await decided(link);
    const root = await openSearchRoot(link, { ctx, kind: 'folder' });
    try {
      await repoint();
      if (process.platform !== 'linux') return;
      expect(root.via).toBe(`/proc/self/fd/${root.fd}`);
      expect(root.real).toBe(path.join(base, 'notes'));
      expect(await readdir(root.via!)).toEqual(['a.txt']);
      expect(await readFile(`${root.via}/a.txt`, 'utf8')).toBe('notes\n');
    } finally {
      await root.close();
    }
  });

  test('refuses a folder whose link was re-pointed after the check, naming both and saying nothing was searched', async () => {
    const ctx = await decided(link);
    await repoint();
    await expect(openSearchRoot(link, { ctx, kind: 'folder' })).rejects.toThrow(
      `${link} changed between its permission check and the search: it now leads to "${path.join(base, 'secrets')}", not to "${path.join(base, 'notes')}", which was checked; nothing was searched.`,
    );
  });

  test('refuses a folder that became a file at the approved place, and a path that vanished', async () => {
    const ctx = await decided(path.join(base, 'notes'));
    await rm(path.join(base, 'notes'), { recursive: true });
    await expect(openSearchRoot(path.join(base, 'notes'), { ctx, kind: 'folder' })).rejects.toThrow(
      'cannot be opened now (ENOENT); nothing was searched',
    );
    await writeFile(path.join(base, 'notes'), 'now a file\n');
    await expect(openSearchRoot(path.join(base, 'notes'), { ctx, kind: 'folder' })).rejects.toThrow(
      'it is no longer a folder; nothing was searched',
    );
  });

  test('a call with no decision behind it is neither opened nor checked: it searches the path, as before', async () => {
    await repoint();
    const root = await openSearchRoot(link, { ctx: contextIn(base), kind: 'folder' });
    expect(root).toMatchObject({ via: undefined, fd: undefined, real: undefined });
    await root.close();
  });
});

describe('searchDeniedTest', () => {
  test('judges a found file both by the declared folder and by the folder opened', async () => {
    const ctx = contextIn(base, [`Read(/${base}/notes/a.txt)`]);
    await repoint();
    // Found in notes (opened before the link moved): d now leads to secrets, where a.txt is not denied.
    expect(searchDeniedTest('Grep', link, { ctx, real: path.join(base, 'notes') })?.('a.txt')).toBe(true);
    expect(searchDeniedTest('Grep', link, { ctx, real: undefined })?.('a.txt')).toBe(false);
    expect(searchDeniedTest('Grep', link, { ctx: contextIn(base), real: path.join(base, 'notes') })).toBeUndefined();
  });
});
