import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../tool.ts';
import { testContext } from './_test_context.ts';
import { approvedRealPaths } from './approved_paths.ts';
import { decidePermission } from './decide_permission.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolshed-approved-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

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

test('approvedRealPaths gives where the last decision of the call found the path, not where it leads now', async () => {
  mkdirSync(join(base, 'notes'));
  mkdirSync(join(base, 'elsewhere'));
  const link = join(base, 'd');
  symlinkSync(join(base, 'notes'), link);
  const ctx = testContext({ cwd: base });
  const declared = join(link, 'a.md');
  expect(approvedRealPaths(ctx, { path: declared, access: 'read' })).toBeUndefined(); // no decision yet
  await decidePermission(readTool, { file_path: declared }, { ctx });
  rmSync(link);
  symlinkSync(join(base, 'elsewhere'), link);
  expect(approvedRealPaths(ctx, { path: declared, access: 'read' })).toEqual([join(base, 'notes', 'a.md')]);
  // Another path, another access, or another call's context: nothing to compare with.
  expect(approvedRealPaths(ctx, { path: join(base, 'b.md'), access: 'read' })).toBeUndefined();
  expect(approvedRealPaths(ctx, { path: declared, access: 'write' })).toBeUndefined();
  expect(approvedRealPaths(testContext({ cwd: base }), { path: declared, access: 'read' })).toBeUndefined();
});
