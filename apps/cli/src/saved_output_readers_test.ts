// The preview of a saved output names only tools the session has: a model told to "call Read" in
// a session without Read makes a call that fails. Real tools, real files, through a Session.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, contentToText, createSession, type SessionOptions } from '@toolshed/core';
import { fileTools, grepTool, readTool } from '@toolshed/tool-fs';
import { shellTools } from '@toolshed/tool-shell';

let root: string;
let cwd: string;
let home: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-readers-')));
  cwd = path.join(root, 'project');
  home = path.join(root, 'home');
  await mkdir(cwd);
  await mkdir(home);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const ROWS = Array.from({ length: 20_000 }, (_, i) => `row ${i} of the API response`).join('\n');

/** An MCP-style tool whose output is over the limit. */
const dumpTool = buildTool({
  name: 'mcp__api__dump',
  description: 'returns a large API response',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  async call() {
    return { data: ROWS };
  },
});

async function dumpPreview(options: Partial<SessionOptions>): Promise<{ preview: string; saved: string }> {
  const session = await createSession({ cwd, homeDir: home, ...options });
  const [dump] = await session.run([{ type: 'tool_use', id: 'd1', name: 'mcp__api__dump', input: {} }]);
  const preview = contentToText(dump!.content);
  const saved = /The full output is saved to (\S+)/.exec(preview)?.[1];
  expect(saved, preview.slice(0, 400)).toBeDefined();
  await session.close();
  return { preview, saved: saved! };
}

test('with Read and Grep, the preview tells the model to call Read with the path, or Grep', async () => {
  const { preview, saved } = await dumpPreview({ families: [fileTools()], tools: [dumpTool] });
  expect(preview).toContain(`call Read with file_path "${saved}" and offset/limit`);
  expect(preview).toContain('or Grep with that path');
});

test('with Read alone, the preview names Read and not Grep', async () => {
  const { preview } = await dumpPreview({ tools: [readTool, dumpTool] });
  expect(preview).toContain('call Read with file_path');
  expect(preview).not.toContain('Grep');
});

test('with Grep alone, the preview of its own saved result names Grep (and how to page with it), not Read', async () => {
  await writeFile(path.join(cwd, 'rows.txt'), ROWS);
  const session = await createSession({ cwd, homeDir: home, tools: [grepTool] });
  const [grep] = await session.run([
    { type: 'tool_use', id: 'g1', name: 'Grep', input: { pattern: 'row', output_mode: 'content', head_limit: 0 } },
  ]);
  const preview = contentToText(grep!.content);
  expect(preview).toMatch(/The full output is saved to \S+g1\.txt/);
  expect(preview).toMatch(/call Grep with path "\S+g1\.txt" .*offset and head_limit/);
  expect(preview).not.toContain('call Read');
  await session.close();
});

test('with only Bash, the preview gives a sed command for the path, which works when the model runs it', async () => {
  // The own-results allowance covers Read, Grep and Glob only: a read through Bash asks, as any
  // read outside the working directories does, and the user approves it here.
  const asked: string[] = [];
  const session = await createSession({
    cwd,
    homeDir: home,
    families: [shellTools()],
    tools: [dumpTool],
    canUseTool: async (name, input) => {
      asked.push(`${name} ${(input as { command?: string }).command ?? ''}`);
      return { behavior: 'allow' };
    },
  });
  const [dump] = await session.run([{ type: 'tool_use', id: 'd1', name: 'mcp__api__dump', input: {} }]);
  const preview = contentToText(dump!.content);
  expect(preview).not.toMatch(/call Read|Grep with/);
  const command = /such as (sed -n '1,200p' \S+)/.exec(preview)?.[1];
  expect(command, preview.slice(0, 600)).toBeDefined();
  expect(preview).toContain('This session has no Read or Grep tool.');
  const [sed] = await session.run([
    { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: command!.replace("'1,200p'", "'19990,20000p'") } },
  ]);
  expect(sed!.is_error, contentToText(sed!.content).slice(0, 300)).toBeUndefined();
  expect(contentToText(sed!.content)).toContain('row 19999 of the API response');
  expect(asked).toEqual([`Bash ${command!.replace("'1,200p'", "'19990,20000p'")}`]);
  await session.close();
});

test("with only Bash, Bash's own saved output says to read it with sed, not Read", async () => {
  const session = await createSession({
    cwd,
    homeDir: home,
    families: [shellTools()],
    permissions: { allow: ['Bash'] },
  });
  const [bash] = await session.run([{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'seq 1 100000' } }]);
  const text = contentToText(bash!.content);
  expect(text).toMatch(/saved in \S+bash-b1\.txt; to read more, call Bash with a command such as sed -n '1,200p' /);
  expect(text).not.toMatch(/call Read|with Read/);
  await session.close();
});

test('with no tool that reads files, the preview says so plainly and how much was cut', async () => {
  const { preview } = await dumpPreview({ tools: [dumpTool] });
  expect(preview).not.toMatch(/call Read|Grep with|call Bash/);
  expect(preview).toContain('This session has no tool that can read that file (no Read, Grep or Bash)');
  expect(preview).toMatch(/… [\d,]+ more characters not shown here/);
  expect(preview).toContain(`Output too large: ${ROWS.length.toLocaleString('en-US')} characters`);
});
