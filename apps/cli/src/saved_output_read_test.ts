import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession } from '@toolshed/core';
import { fileTools } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolshed-spill-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test('with default options, the model can Read the whole output Bash saved, without a rule or a prompt, and close() removes it', async () => {
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'project');
  await import('node:fs/promises').then((fs) => Promise.all([fs.mkdir(home), fs.mkdir(cwd)]));
  const session = await createSession({ cwd, homeDir: home, families: [fileTools(), shellTools()] });
  const [bash] = await session.run([{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 1 20000' } }]);
  const text = contentToText(bash!.content);
  const saved = /(\/\S+bash-b1\.txt)/.exec(text)?.[1];
  expect(saved, text.slice(-400)).toBeDefined();
  expect(saved!.startsWith(path.join(session.stateDir, 'tool-results'))).toBe(true);
  expect((await stat(saved!)).mode & 0o777).toBe(0o600);
  const [read] = await session.run([
    { type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: saved, offset: 19990, limit: 20 } },
  ]);
  expect(read!.is_error).toBeFalsy();
  expect(contentToText(read!.content)).toContain('20000');
  const [grep] = await session.run([
    { type: 'tool_use', id: 'g1', name: 'Grep', input: { pattern: '^12345$', path: saved, output_mode: 'content' } },
  ]);
  expect(contentToText(grep!.content)).toContain('12345');
  await session.close();
  await expect(stat(saved!)).rejects.toThrow(/ENOENT/);
});
