import { mkdir, mkdtemp, open, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, type ToolContext } from '@toolshed/core';
import { createPermissionContext, decidePermission } from '@toolshed/core/internal';
import { assertOpenedAsApproved } from './_opened_file.ts';

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'toolshed-opened-')));
  for (const dir of ['notes', 'secrets']) await mkdir(path.join(base, dir));
  await writeFile(path.join(base, 'notes', 'a'), 'notes');
  await writeFile(path.join(base, 'secrets', 'a'), 'secret');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const readTool = buildTool({
  name: 'Read',
  description: 'reads a file',
  inputSchema: z.object({ file_path: z.string() }),
  isReadOnly: () => true,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call() {
    return { data: '' };
  },
});

function contextIn(cwd: string): ToolContext {
  return { cwd, permissions: createPermissionContext({}, cwd).context } as ToolContext;
}

test('the file the check approved passes; one reached through a link re-pointed since is refused, naming both', async () => {
  const link = path.join(base, 'd');
  await symlink('notes', link);
  const ctx = contextIn(base);
  const declared = path.join(link, 'a');
  expect((await decidePermission(readTool, { file_path: declared }, { ctx })).behavior).toBe('allow');
  const before = await open(declared, 'r');
  await rm(link);
  await symlink(path.join(base, 'secrets'), link);
  const after = await open(declared, 'r');
  try {
    await expect(assertOpenedAsApproved(before, { path: declared, access: 'read', ctx })).resolves.toBeUndefined();
    await expect(assertOpenedAsApproved(after, { path: declared, access: 'read', ctx })).rejects.toThrow(
      `it now leads to "${path.join(base, 'secrets', 'a')}", not to "${path.join(base, 'notes', 'a')}", which was checked; nothing was read`,
    );
    // A call with no decision behind it (a tool called directly) is not checked.
    await expect(
      assertOpenedAsApproved(after, { path: declared, access: 'read', ctx: contextIn(base) }),
    ).resolves.toBeUndefined();
  } finally {
    await before.close();
    await after.close();
    await rm(link);
  }
});
