import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, type Session } from '@toolshed/core';
import { mcpServers } from './mod.ts';
import { EVERYTHING } from './testdata/_helpers.ts';

// server-everything declares `completions`: its "completable-prompt" completes `department`, and
// `name` by the department chosen; its dynamic resource templates complete `resourceId`.
let dir: string;
let session: Session;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mcp-completion-'));
  session = await createSession({
    cwd: dir,
    homeDir: dir,
    permissions: { allow: ['mcp__everything', 'CompleteMcpArgument'] },
    families: [mcpServers({ mcpServers: { everything: { command: EVERYTHING, args: ['stdio'] } } }, { homeDir: dir })],
  });
});

afterAll(async () => {
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

async function complete(input: Record<string, unknown>) {
  const [result] = await session.run([{ type: 'tool_use', id: 'c', name: 'CompleteMcpArgument', input }]);
  return { isError: result!.is_error === true, text: contentToText(result!.content) };
}

describe('CompleteMcpArgument', () => {
  test('is in the pool when a server declares completions', () => {
    const entry = session.catalog().find((e) => e.name === 'CompleteMcpArgument');
    expect(entry).toBeDefined();
  });

  test("lists a prompt argument's values that start with what was typed", async () => {
    const { isError, text } = await complete({
      server: 'everything',
      prompt: 'completable-prompt',
      argument: 'department',
      value: 'S',
    });
    expect(isError).toBe(false);
    expect(text.split('\n').slice(1)).toEqual(['Sales', 'Support']);
    expect(text).toContain('"department" of prompt "completable-prompt" starting with "S"');
  });

  test('narrows a value by the arguments already chosen (context)', async () => {
    const sales = await complete({
      server: 'everything',
      prompt: 'completable-prompt',
      argument: 'name',
      value: '',
      context: { department: 'Sales' },
    });
    expect(sales.text.split('\n').slice(1)).toEqual(['David', 'Eve', 'Frank']);
    const none = await complete({ server: 'everything', prompt: 'completable-prompt', argument: 'name', value: 'Z' });
    expect(none.isError).toBe(false);
    expect(none.text).toBe(
      'No values suggested for "name" of prompt "completable-prompt" starting with "Z" (server "everything").',
    );
  });

  test('completes a resource template variable', async () => {
    const { isError, text } = await complete({
      server: 'everything',
      resourceTemplate: 'demo://resource/dynamic/text/{resourceId}',
      argument: 'resourceId',
      value: '1',
    });
    expect(isError).toBe(false);
    expect(text).toContain('Values for "resourceId" of template "demo://resource/dynamic/text/{resourceId}"');
    expect(text.split('\n').slice(1)).toEqual(['1']);
  });

  test('asks for exactly one of prompt and resourceTemplate, and names the servers it knows', async () => {
    const neither = await complete({ server: 'everything', argument: 'x' });
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain('Name what to complete: "prompt"');
    const both = await complete({ server: 'everything', prompt: 'p', resourceTemplate: 't', argument: 'x' });
    expect(both.text).toContain('Give "prompt" or "resourceTemplate", not both');
    const unknown = await complete({ server: 'nope', prompt: 'p', argument: 'x' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain(
      'No connected MCP server named "nope" offers completion. Servers with completion: "everything".',
    );
  });
});
