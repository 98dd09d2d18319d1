// A saved result is recorded as the session's own from the handle that wrote it: a file renamed
// over the saved path after the write (here by a PostToolUse hook, which runs between the save and
// the record, so the race is forced every time) is not the session's result.
import { mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { contentToText } from '../blocks.ts';
import { createSession } from '../session.ts';
import { buildTool } from '../tool.ts';

let box: string;
beforeEach(async () => {
  box = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-saved-swap-')));
});
afterEach(async () => {
  await rm(box, { recursive: true, force: true });
});

/** A tool whose output is over its limit, so the pipeline saves it. */
const bigTool = buildTool({
  name: 'Big',
  description: 'prints a lot',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  maxResultSizeChars: 1_000,
  async call() {
    return { data: Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\n') };
  },
});

/** A Read as the fs family declares it. */
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

test('a file renamed over a saved result before the session records it is not read as the session’s own past a deny rule', async () => {
  const stateDir = path.join(box, 'state');
  const planted = path.join(box, 'planted.txt');
  await writeFile(planted, 'PLANTED');
  let swapped = '';
  const session = await createSession({
    cwd: box,
    stateDir,
    tools: [bigTool, readTool],
    permissions: { deny: [`Read(/${stateDir}/**)`] },
    hooks: {
      PostToolUse: [
        {
          matcher: 'Big',
          hooks: [
            async () => {
              swapped = path.join(stateDir, 'tool-results', 'b1.txt');
              await rename(planted, swapped);
            },
          ],
        },
      ],
    },
  });
  const [big] = await session.run([{ type: 'tool_use', id: 'b1', name: 'Big', input: {} }]);
  expect(contentToText(big!.content)).toContain(`The full output is saved to ${swapped}`);
  expect(await readFile(swapped, 'utf8')).toBe('PLANTED');
  const [read] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: swapped } }]);
  expect(contentToText(read!.content)).not.toContain('PLANTED');
  expect(read!.is_error).toBe(true);
  expect(contentToText(read!.content)).toMatch(/[Dd]enied by rule/);
  await session.close();
});

test('an unswapped saved result stays readable past the same deny rule', async () => {
  const stateDir = path.join(box, 'state');
  const session = await createSession({
    cwd: box,
    stateDir,
    tools: [bigTool, readTool],
    permissions: { deny: [`Read(/${stateDir}/**)`] },
  });
  await session.run([{ type: 'tool_use', id: 'b1', name: 'Big', input: {} }]);
  const saved = path.join(stateDir, 'tool-results', 'b1.txt');
  const [read] = await session.run([{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: saved } }]);
  expect(read!.is_error, contentToText(read!.content).slice(0, 200)).toBeUndefined();
  expect(contentToText(read!.content)).toContain('row 499');
  await session.close();
});
