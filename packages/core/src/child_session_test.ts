import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool } from './tool.ts';
import { createSession } from './session.ts';
import { childSessionKey, narrowerMode, openChildSession } from './child_session.ts';
import { createServices } from './services.ts';
import type { Session } from './session_types.ts';

test('narrowerMode never gives a child a more permissive mode than its parent', () => {
  expect(narrowerMode('default', 'bypassPermissions')).toBe('default');
  expect(narrowerMode('default', 'acceptEdits')).toBe('default');
  expect(narrowerMode('acceptEdits', 'plan')).toBe('plan');
  expect(narrowerMode('bypassPermissions', 'default')).toBe('default');
  expect(narrowerMode('plan', 'dontAsk')).toBe('plan');
  expect(narrowerMode('dontAsk', 'plan')).toBe('dontAsk');
  expect(narrowerMode('plan', undefined)).toBe('plan');
});

const write = buildTool({
  name: 'Write',
  description: 'w',
  inputSchema: z.object({ file_path: z.string() }),
  preparePermissionMatcher:
    ({ file_path }) =>
    (rule) =>
      rule === file_path,
  async call() {
    return { data: 'written' };
  },
});
const look = buildTool({
  name: 'Look',
  description: 'l',
  inputSchema: z.object({}),
  isReadOnly: () => true,
  async call() {
    return { data: 'looked' };
  },
});

test("a child session keeps the parent's rules and asks, narrows its tools and mode, and closes on its own", async () => {
  const asked: string[] = [];
  let child: Session | undefined;
  const opener = buildTool({
    name: 'Open',
    description: 'opens a child',
    inputSchema: z.object({ tools: z.array(z.string()).optional(), mode: z.string().optional() }),
    async call({ tools, mode }, ctx) {
      child = await openChildSession(ctx, { tools, disallowedTools: ['Open'], mode: mode as 'bypassPermissions' });
      return { data: 'opened' };
    },
  });
  const parent = await createSession({
    cwd: mkdtempSync(path.join(tmpdir(), 'child-')),
    tools: [write, look, opener],
    permissions: { deny: ['Write(secret.txt)'], allow: ['Open'] },
    canUseTool: async (name) => {
      asked.push(name);
      return { behavior: 'allow' };
    },
  });
  await parent.run([{ type: 'tool_use', id: 'o', name: 'Open', input: { mode: 'bypassPermissions' } }]);
  expect(child!.catalog().map((e) => e.name)).toEqual(['Look', 'Write']);
  expect((await child!.explain('Write', { file_path: 'secret.txt' })).behavior).toBe('deny');
  // Asked (mode narrowed to default), and the ask went to the parent's canUseTool.
  const [result] = await child!.run([{ type: 'tool_use', id: 'w', name: 'Write', input: { file_path: 'other.txt' } }]);
  expect(result!.content).toBe('written');
  expect(asked).toEqual(['Write']);
  expect(child!.stateDir.startsWith(parent.stateDir)).toBe(true);
  await child!.close();
  await parent.run([{ type: 'tool_use', id: 'o2', name: 'Open', input: { tools: ['Look'] } }]);
  expect(child!.catalog().map((e) => e.name)).toEqual(['Look']);
  await child!.close();
  await parent.close();
});

test('openChildSession outside a session is a clear error', () => {
  expect(() => openChildSession({ services: createServices() })).toThrow(/offers no child sessions/);
  expect(childSessionKey.id).toBe('toolshed.childSession');
});

test("a child session in another folder pins the parent's ./ rules there when it opens: a folder swapped for a link before its first call widens none", async () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'child-pin-')));
  const proj = path.join(base, 'proj');
  const docs = path.join(proj, 'work', 'docs');
  const secrets = path.join(base, 'secrets');
  for (const dir of [docs, secrets]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(secrets, 'key'), 'key');
  const read = buildTool({
    name: 'Read',
    description: 'r',
    inputSchema: z.object({ file_path: z.string() }),
    isReadOnly: () => true,
    resources: ({ file_path }, ctx) => [{ path: path.resolve(ctx.cwd, file_path), access: 'read' as const }],
    async call() {
      return { data: 'read' };
    },
  });
  let child: Session | undefined;
  const opener = buildTool({
    name: 'Open',
    description: 'opens a child in ./work',
    inputSchema: z.object({}),
    async call(_input, ctx) {
      child = await openChildSession(ctx, { cwd: path.join(proj, 'work'), disallowedTools: ['Open'] });
      return { data: 'opened' };
    },
  });
  const parent = await createSession({
    cwd: proj,
    tools: [read, opener],
    permissions: { allow: ['Open', 'Read(./docs/**)'] },
  });
  try {
    await parent.run([{ type: 'tool_use', id: 'o', name: 'Open', input: {} }]);
    // In the child, ./docs is work/docs. Its first call swaps that folder for a link to the secrets.
    rmSync(docs, { recursive: true });
    symlinkSync(secrets, docs);
    for (const file_path of ['docs/key', path.join(secrets, 'key')]) {
      const decision = await child!.explain('Read', { file_path });
      expect(decision.behavior).toBe('ask');
      expect(decision.reason).toContain('outside the working directories');
    }
  } finally {
    await child?.close();
    await parent.close();
    rmSync(base, { recursive: true, force: true });
  }
});
