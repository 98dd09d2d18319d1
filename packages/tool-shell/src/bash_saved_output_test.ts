// The whole output of a Bash command over its cap is one of the session's saved results: the
// session's own Read takes it without a rule, and close() removes it, as any saved result.
import { readFile } from 'node:fs/promises';
import { mkdir, mkdtemp, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, contentToText, createSession } from '@toolshed/core';
import { shellTools } from './family.ts';

/** A Read as the fs family declares it (families do not import each other). */
const readTool = buildTool({
  name: 'Read',
  description: 'reads a file',
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  maxResultSizeChars: Infinity,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call({ file_path }) {
    return { data: await readFile(file_path, 'utf8') };
  },
});

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-bash-saved-')));
  await mkdir(path.join(root, 'project'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

test("a Bash output over the cap is reported as saved, read back whole by the session's Read without a rule, and removed on close() with a stateDir given", async () => {
  const prompts: string[] = [];
  const session = await createSession({
    cwd: path.join(root, 'project'),
    stateDir: path.join(root, 'state'),
    families: [shellTools()],
    tools: [readTool],
    canUseTool: async (name, input) => (
      prompts.push(`${name} ${JSON.stringify(input)}`), { behavior: 'deny', message: 'no' }
    ),
  });
  let persisted: string | undefined;
  for await (const e of session.stream([
    { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 1 100000' } },
  ]))
    if (e.type === 'result') persisted = e.persistedPath;
  expect(persisted).toBeDefined();
  const [read] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: persisted } }]);
  expect(read!.is_error, contentToText(read!.content).slice(0, 300)).toBeUndefined();
  expect(contentToText(read!.content).split('\n')).toHaveLength(100_001);
  expect(prompts).toEqual([]);
  await session.close();
  await expect(stat(persisted!)).rejects.toThrow(/ENOENT/);
});

test("a file renamed over Bash's saved output before the session records it is not read as the session's own past a deny rule", async () => {
  const stateDir = path.join(root, 'state');
  const planted = path.join(root, 'planted.txt');
  await writeFile(planted, 'PLANTED');
  const saved = path.join(stateDir, 'tool-results', 'bash-b1.txt');
  const session = await createSession({
    cwd: path.join(root, 'project'),
    stateDir,
    families: [shellTools()],
    tools: [readTool],
    permissions: { allow: ['Bash'], deny: [`Read(/${stateDir}/**)`] },
    // Runs after Bash saved its output and before the session records the file: the race, forced.
    hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [async () => void (await rename(planted, saved))] }] },
  });
  const [bash] = await session.run([{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 1 100000' } }]);
  expect(contentToText(bash!.content)).toContain(saved);
  const [read] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: saved } }]);
  expect(contentToText(read!.content)).not.toContain('PLANTED');
  expect(read!.is_error).toBe(true);
  await session.close();
});

test('a Bash output over the cap that quotes a file a deny rule guards is not saved, and the result says why', async () => {
  const stateDir = path.join(root, 'state');
  const session = await createSession({
    cwd: path.join(root, 'project'),
    stateDir,
    families: [shellTools()],
    tools: [readTool],
    permissions: { allow: ['Bash'], deny: ['Read(./.env)'] },
  });
  let persisted: string | undefined;
  let text = '';
  // What `grep -rn KEY .` prints for the secret, in the middle of a long output.
  const command = "seq 1 20000; echo './.env:1:API_KEY=hunter2'; seq 1 20000";
  for await (const e of session.stream([{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command } }]))
    if (e.type === 'result') {
      persisted = e.persistedPath;
      text = contentToText(e.result.content);
    }
  expect(persisted).toBeUndefined();
  expect(text).not.toContain('hunter2');
  expect(text).toMatch(/not saved/);
  expect(text).toContain(`${path.join(root, 'project')}/.env`);
  expect(text).toContain('Read(./.env)');
  await expect(stat(path.join(stateDir, 'tool-results', 'bash-b1.txt'))).rejects.toThrow(/ENOENT/);
  // The head and the tail the model always sees are still there.
  expect(text.startsWith('1\n2\n3\n')).toBe(true);
  expect(text).toMatch(/19999\n20000/);
  await session.close();
});
