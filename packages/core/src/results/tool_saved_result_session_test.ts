import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createSession } from '../session.ts';
import { buildTool } from '../tool.ts';
import { sessionResultsDir } from '../permissions/own_results.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-saved-result-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A tool that says it saved its result to `file` (as a streaming tool with ResultSpill does). */
const savingTool = buildTool({
  name: 'Saver',
  description: 'says it saved its result',
  inputSchema: z.object({ file: z.string() }),
  isReadOnly: () => true,
  async call({ file }) {
    return { data: 'preview', persistedPath: file };
  },
});

async function persistedPathOf(file: string, stateDir: string): Promise<string | undefined> {
  const session = await createSession({ cwd: dir, stateDir, tools: [savingTool] });
  let seen: string | undefined;
  try {
    for await (const event of session.stream([{ type: 'tool_use', id: 't1', name: 'Saver', input: { file } }]))
      if (event.type === 'result') seen = event.persistedPath;
  } finally {
    await session.close();
  }
  return seen;
}

describe('a result a tool saved itself', () => {
  test('in the session results folder, is reported like a persisted result and removed on close()', async () => {
    const stateDir = path.join(dir, 'state-in');
    await mkdir(sessionResultsDir(stateDir), { recursive: true });
    const file = path.join(sessionResultsDir(stateDir), 't1.txt');
    await writeFile(file, 'the whole result');
    expect(await persistedPathOf(file, stateDir)).toBe(file);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  test('anywhere else, is not reported, and close() leaves the file alone', async () => {
    const stateDir = path.join(dir, 'state-out');
    const precious = path.join(dir, 'precious.txt');
    await writeFile(precious, 'do not delete');
    expect(await persistedPathOf(precious, stateDir)).toBeUndefined();
    expect((await stat(precious)).size).toBe('do not delete'.length);
  });
});
