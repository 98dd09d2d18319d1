import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { contentToText } from '../blocks.ts';
import { createSession } from '../session.ts';
import type { Session } from '../session_types.ts';
import { buildTool } from '../tool.ts';
import { bigTool, tempDir, use } from '../_test_tools.ts';
import { decidePermission } from './decide_permission.ts';
import { SavedResults, savedFileStats } from '../results/saved_results.ts';
import { ownResultsRead, sessionResultsDir } from './own_results.ts';
import { resolveResources } from './path_guard.ts';
import { testContext } from './_test_context.ts';
import { createPermissionContext } from './permission_context.ts';

/** A Read that really reads, and a Write that declares a write: both declare their paths. */
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
const writeTool = buildTool({
  name: 'Write',
  description: 'writes a file',
  inputSchema: z.strictObject({ file_path: z.string(), content: z.string() }),
  resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
  async call({ file_path, content }) {
    await writeFile(file_path, content);
    return { data: `wrote ${file_path}` };
  },
});
const catTool = buildTool({
  name: 'Cat',
  description: 'reads a file, but is not a file tool',
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call({ file_path }) {
    return { data: await readFile(file_path, 'utf8') };
  },
});

let box: { dir: string; cleanup: () => Promise<void> };
let cwd: string;
let stateDir: string;
let session: Session;
beforeEach(async () => {
  box = await tempDir('toolshed-own-results-');
  cwd = path.join(box.dir, 'proj');
  stateDir = path.join(box.dir, 'state');
  await mkdir(cwd);
});
afterEach(async () => {
  await session?.close();
  await box.cleanup();
});

async function persistBig(s: Session): Promise<string> {
  const [result] = await s.run([use('t1', 'Big', { size: 60_000 })]);
  const match = /The full output is saved to (\S+)/.exec(contentToText(result!.content));
  expect(match).not.toBeNull();
  return match![1]!;
}

describe('ownResultsRead', () => {
  test('a Read of a saved result outside the working directories is allowed without a rule and without a prompt', async () => {
    const prompts: string[] = [];
    session = await createSession({
      cwd,
      stateDir,
      tools: [bigTool, readTool],
      canUseTool: async (name) => (prompts.push(name), { behavior: 'deny', message: 'no prompt expected' }),
    });
    const saved = await persistBig(session);
    expect(saved.startsWith(sessionResultsDir(stateDir))).toBe(true);
    const [read] = await session.run([use('t2', 'Read', { file_path: saved })]);
    expect(read!.is_error).toBeUndefined();
    expect(contentToText(read!.content)).toHaveLength(60_000);
    expect(prompts).toEqual([]);
    const decision = await session.explain('Read', { file_path: saved });
    expect(decision).toMatchObject({ behavior: 'allow', source: 'session' });
    expect(decision.reason).toContain('only reads results this session saved');
  });

  test("a deny path rule over the state folder does not hide the session's own result, but still denies a file planted beside it", async () => {
    session = await createSession({
      cwd,
      stateDir,
      tools: [bigTool, readTool],
      permissions: { deny: [`Read(/${stateDir}/**)`] },
    });
    const saved = await persistBig(session);
    const [read] = await session.run([use('t2', 'Read', { file_path: saved })]);
    expect(read!.is_error).toBeUndefined();
    expect(contentToText(read!.content)).toHaveLength(60_000);
    const planted = path.join(path.dirname(saved), 'planted.txt');
    await writeFile(planted, 'planted');
    const [other] = await session.run([use('t3', 'Read', { file_path: planted })]);
    expect(other!.is_error).toBe(true);
    expect(contentToText(other!.content)).toContain('denied by rule');
  });

  test("a hook's deny still beats the allowance for the session's own results", async () => {
    const ctx = { ...testContext({ cwd }), stateDir };
    const file = path.join(sessionResultsDir(stateDir), 't1.txt');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, 'result');
    SavedResults.of(ctx.fileState).record(file, savedFileStats(statSync(file)));
    expect((await decidePermission(readTool, { file_path: file }, { ctx })).behavior).toBe('allow');
    const hookDecision = { behavior: 'deny' as const, hook: 'guard.sh', reason: 'no reading today' };
    const decision = await decidePermission(readTool, { file_path: file }, { ctx, hookDecision });
    expect(decision).toMatchObject({ behavior: 'deny', source: 'hook' });
    expect(decision.reason).toContain('guard.sh');
  });

  test("writes to the results folder, other tools' reads and other folders of the state still go through the rules", async () => {
    session = await createSession({ cwd, stateDir, tools: [bigTool, readTool, writeTool, catTool] });
    const saved = await persistBig(session);
    const other = path.join(stateDir, 'bash-output', 'x.txt');
    await mkdir(path.dirname(other), { recursive: true });
    await writeFile(other, 'not a saved result');
    for (const [name, input] of [
      ['Write', { file_path: saved, content: 'changed' }],
      ['Write', { file_path: path.join(path.dirname(saved), 'new.txt'), content: 'planted' }],
      ['Cat', { file_path: saved }],
      ['Read', { file_path: other }],
      ['Read', { file_path: `${sessionResultsDir(stateDir)}/../bash-output/x.txt` }],
    ] as const) {
      expect((await session.explain(name, input)).behavior, `${name} ${JSON.stringify(input)}`).toBe('ask');
    }
    expect(await readFile(saved, 'utf8')).toHaveLength(60_000);
  });

  test('a symlink in the results folder that points elsewhere is not covered by the allowance', async () => {
    const secret = path.join(box.dir, 'secret.txt');
    await writeFile(secret, 'top secret');
    const results = sessionResultsDir(stateDir);
    await mkdir(results, { recursive: true });
    await symlink(secret, path.join(results, 'link.txt'));
    const ctx = { ...testContext({ cwd }), stateDir };
    const paths = resolveResources([{ path: path.join(results, 'link.txt'), access: 'read' }], ctx);
    expect(ownResultsRead(paths, { toolName: 'Read', ctx })).toBeUndefined();
    expect((await decidePermission(readTool, { file_path: path.join(results, 'link.txt') }, { ctx })).behavior).toBe(
      'ask',
    );
  });

  test('Grep and Glob of a saved file are allowed; of the results folder, of a file not saved, or also reading elsewhere, not', async () => {
    const ctx = { ...testContext({ cwd }), stateDir };
    const results = sessionResultsDir(stateDir);
    await mkdir(results, { recursive: true });
    await writeFile(`${results}/t1.txt`, 'saved');
    await writeFile(`${results}/t2.txt`, 'not saved by this session');
    expect(
      ownResultsRead(resolveResources([{ path: `${results}/t1.txt`, access: 'read' }], ctx), { toolName: 'Grep', ctx }),
    ).toBeUndefined(); // nothing saved yet
    SavedResults.of(ctx.fileState).record(`${results}/t1.txt`, savedFileStats(statSync(`${results}/t1.txt`)));
    expect(
      ownResultsRead(resolveResources([{ path: `${results}/t1.txt`, access: 'read' }], ctx), { toolName: 'Glob', ctx })
        ?.behavior,
    ).toBe('allow');
    for (const other of [`${results}/t2.txt`, results, stateDir])
      expect(
        ownResultsRead(resolveResources([{ path: other, access: 'read' }], ctx), { toolName: 'Grep', ctx }),
        other,
      ).toBeUndefined();
    const mixed = resolveResources(
      [
        { path: `${results}/t1.txt`, access: 'read' },
        { path: '/etc/hosts', access: 'read' },
      ],
      ctx,
    );
    expect(ownResultsRead(mixed, { toolName: 'Grep', ctx })).toBeUndefined();
  });

  test('attack: a results folder (or session folder) replaced by a link to the project allows nothing, so ask rules still ask', async () => {
    await writeFile(path.join(cwd, 'secret.txt'), 'ask first');
    const ctx = {
      ...testContext({
        cwd,
        permissions: createPermissionContext({ ask: ['Read(./secret.txt)'] }, cwd).context,
      }),
      stateDir,
    };
    const results = sessionResultsDir(stateDir);
    await mkdir(stateDir, { recursive: true });
    // The results folder is a link to the project: its files are the project's, under the rules.
    await symlink(cwd, results);
    const viaLink = path.join(results, 'secret.txt');
    const decision = await decidePermission(readTool, { file_path: viaLink }, { ctx });
    expect(decision).toMatchObject({ behavior: 'ask', rule: 'Read(./secret.txt)' });
    expect(ownResultsRead(resolveResources([{ path: results, access: 'read' }], ctx), { toolName: 'Grep', ctx })).toBe(
      undefined,
    );
    // The session's folder a link to a folder whose tool-results is the project's link: the same.
    const other = path.join(box.dir, 'elsewhere');
    await mkdir(other);
    await symlink(cwd, path.join(other, 'tool-results'));
    const linkedState = path.join(box.dir, 'state2');
    await symlink(other, linkedState);
    const ctx2 = { ...ctx, stateDir: linkedState };
    const via2 = path.join(sessionResultsDir(linkedState), 'secret.txt');
    expect((await decidePermission(readTool, { file_path: via2 }, { ctx: ctx2 })).behavior).toBe('ask');
  });
});
