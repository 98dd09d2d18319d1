// A sub-agent's child session and its parent: each reads what the other saved (the path the other
// was shown), without a rule and without a prompt; a file neither saved is still under the rules.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { contentToText } from '../blocks.ts';
import { openChildSession } from '../child_session.ts';
import { createSession } from '../session.ts';
import type { Session } from '../session_types.ts';
import { buildTool } from '../tool.ts';
import { bigTool, tempDir, use } from '../_test_tools.ts';

const readTool = buildTool({
  name: 'Read',
  description: 'reads a file',
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  maxResultSizeChars: Infinity,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call({ file_path }) {
    return { data: await readFile(file_path, 'utf8') };
  },
});

/** Runs one block in a child session (as the Agent tool does) and returns its result's text, with `error:` in front of an error. */
const childTool = buildTool({
  name: 'Child',
  description: 'runs one block in a child session',
  inputSchema: z.strictObject({ name: z.string(), input: z.record(z.string(), z.unknown()) }),
  maxResultSizeChars: Infinity,
  async call({ name, input }, ctx) {
    const child = await openChildSession(ctx, { tools: ['Read', 'Big'], signal: ctx.signal });
    try {
      const [r] = await child.run([use('c1', name, input)]);
      return { data: `${r!.is_error ? 'error: ' : ''}${contentToText(r!.content)}` };
    } finally {
      await child.close();
    }
  },
});

let box: { dir: string; cleanup: () => Promise<void> };
let session: Session;
let prompts: string[];
beforeEach(async () => {
  box = await tempDir('toolshed-saved-child-');
  await mkdir(path.join(box.dir, 'proj'));
  prompts = [];
  session = await createSession({
    cwd: path.join(box.dir, 'proj'),
    stateDir: path.join(box.dir, 'state'),
    tools: [bigTool, readTool, childTool],
    permissions: { allow: ['Child'] },
    canUseTool: async (name) => (prompts.push(name), { behavior: 'deny', message: 'no prompt expected' }),
  });
});
afterEach(async () => {
  await session.close();
  await box.cleanup();
});

const savedPath = (text: string) => /The full output is saved to (\S+)/.exec(text)?.[1];

test("a child session reads a result its parent saved, by the preview's path, without a prompt", async () => {
  const [big] = await session.run([use('t1', 'Big', { size: 60_000 })]);
  const saved = savedPath(contentToText(big!.content));
  expect(saved).toBeDefined();
  const [viaChild] = await session.run([use('t2', 'Child', { name: 'Read', input: { file_path: saved } })]);
  expect(contentToText(viaChild!.content)).toHaveLength(60_000);
  expect(prompts).toEqual([]);
});

test("the parent reads a result its child saved, without a prompt, after the child closed; the parent's close() removes it", async () => {
  const [viaChild] = await session.run([use('t1', 'Child', { name: 'Big', input: { size: 60_000 } })]);
  const saved = savedPath(contentToText(viaChild!.content));
  expect(saved, contentToText(viaChild!.content).slice(0, 300)).toBeDefined();
  const [read] = await session.run([use('t2', 'Read', { file_path: saved })]);
  expect(read!.is_error, contentToText(read!.content).slice(0, 300)).toBeUndefined();
  expect(contentToText(read!.content)).toHaveLength(60_000);
  expect(prompts).toEqual([]);
  await session.close();
  await expect(stat(saved!)).rejects.toThrow(/ENOENT/);
});

test("a file planted in the parent's results folder is not readable by the child without a rule", async () => {
  const [big] = await session.run([use('t1', 'Big', { size: 60_000 })]);
  const planted = path.join(path.dirname(savedPath(contentToText(big!.content))!), 'planted.txt');
  await writeFile(planted, 'PLANTED');
  const [viaChild] = await session.run([use('t2', 'Child', { name: 'Read', input: { file_path: planted } })]);
  expect(contentToText(viaChild!.content)).toMatch(/^error: /);
  expect(contentToText(viaChild!.content)).not.toContain('PLANTED');
});
