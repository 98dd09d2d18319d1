import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, contentToText, createSession, defineFamily, type CanUseTool, type Session } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { createPlanModeTools } from './plan_mode_tools.ts';

let dir: string;
let session: Session | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-plan-'));
  await writeFile(path.join(dir, 'a.txt'), 'old\n');
});
afterEach(async () => {
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

// A minimal file-writing tool named Edit, so acceptEdits treats it as Claude Code's Edit.
const editTool = buildTool({
  name: 'Edit',
  description: 'Writes text to a file',
  inputSchema: z.object({ file_path: z.string(), text: z.string() }),
  resources: ({ file_path }, ctx) => [{ path: path.resolve(ctx.cwd, file_path), access: 'write' as const }],
  async call({ file_path, text }, ctx) {
    await writeFile(path.resolve(ctx.cwd, file_path), text);
    return { data: 'written' };
  },
});

async function call(name: string, input: unknown): Promise<{ text: string; isError: boolean }> {
  const [result] = await session!.run([{ type: 'tool_use', id: `t_${name}_${Math.random()}`, name, input }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

describe('plan mode', () => {
  test('the tools pass the conformance check', async () => {
    expect(await checkFamily(defineFamily({ name: 'plan', version: '0.0.0', tools: createPlanModeTools() }))).toEqual(
      [],
    );
  });

  test('plan mode denies an Edit and tells the model to present its plan; an approved plan restores the mode before', async () => {
    const asked: { toolName: string; input: unknown; reason: string }[] = [];
    let answer: 'allow' | 'deny' = 'deny';
    const canUseTool: CanUseTool = async (toolName, input, { reason }) => {
      asked.push({ toolName, input, reason });
      return answer === 'allow'
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: 'Not this plan: keep the old parser.' };
    };
    session = await createSession({
      cwd: dir,
      tools: [...createPlanModeTools(), editTool],
      permissions: { mode: 'acceptEdits' },
      canUseTool,
    });
    expect((await call('Edit', { file_path: 'a.txt', text: 'one\n' })).isError).toBe(false);

    expect((await call('EnterPlanMode', {})).text).toContain('Entered plan mode (the mode was "acceptEdits")');
    const denied = await call('Edit', { file_path: 'a.txt', text: 'two\n' });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('plan mode');
    expect(denied.text).toContain('present your plan');
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');

    // A rejected plan keeps plan mode, and the model reads why.
    const rejected = await call('ExitPlanMode', { plan: '1. Rewrite the parser' });
    expect(rejected.isError).toBe(true);
    expect(rejected.text).toContain('Not this plan: keep the old parser.');
    expect(asked.at(-1)).toMatchObject({ toolName: 'ExitPlanMode', input: { plan: '1. Rewrite the parser' } });
    expect((await call('Edit', { file_path: 'a.txt', text: 'two\n' })).isError).toBe(true);

    answer = 'allow';
    const approved = await call('ExitPlanMode', { plan: '1. Patch the parser' });
    expect(approved.isError).toBe(false);
    expect(approved.text).toContain('the mode is "acceptEdits" again');
    expect(approved.text).toContain('1. Patch the parser');
    expect((await call('Edit', { file_path: 'a.txt', text: 'three\n' })).isError).toBe(false);
    expect(await readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('three\n');
  });

  test('with no one to approve, ExitPlanMode is denied and plan mode stays; outside plan mode it says there is nothing to exit', async () => {
    session = await createSession({ cwd: dir, tools: [...createPlanModeTools(), editTool] });
    expect((await call('ExitPlanMode', { plan: 'x' })).text).toContain('not in plan mode (it is in "default")');
    await call('EnterPlanMode', {});
    const exit = await call('ExitPlanMode', { plan: 'x' });
    expect(exit.isError).toBe(true);
    expect(exit.text).toContain('no one was available to approve it');
    expect((await call('Edit', { file_path: 'a.txt', text: 'no\n' })).text).toContain('plan mode');
    expect((await call('EnterPlanMode', {})).text).toContain('already in plan mode');
  });

  test('a deny rule on ExitPlanMode holds: the plan cannot be approved', async () => {
    session = await createSession({
      cwd: dir,
      tools: [...createPlanModeTools(), editTool],
      permissions: { deny: ['ExitPlanMode'] },
      canUseTool: async () => ({ behavior: 'allow' }),
    });
    await call('EnterPlanMode', {});
    expect((await call('ExitPlanMode', { plan: 'x' })).isError).toBe(true);
  });
});
