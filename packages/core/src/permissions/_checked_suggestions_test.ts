import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { createSession } from '../session.ts';
import { buildTool } from '../tool.ts';
import { denialMessage } from './decide_permission.ts';
import { quotedRules } from './_checked_suggestions.ts';

let root: string;
let project: string;
let outside: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-checked-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  await mkdir(project);
  await mkdir(outside);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A tool that writes the file it is given, and suggests `suggest(file)` as its own rules (it has no rule matcher: only its bare name matches). */
function copyTool(suggest: (file: string) => string[]) {
  return buildTool({
    name: 'Copy',
    description: 'Copies a file to `to`.',
    inputSchema: z.object({ to: z.string() }),
    permissionSuggestions: ({ to }) => suggest(to),
    resources: ({ to }) => [{ path: to, access: 'write' }],
    async call() {
      return { data: 'copied' };
    },
  });
}

async function explain(suggest: (file: string) => string[], to: string, allow: string[] = []) {
  const session = await createSession({
    cwd: project,
    tools: [copyTool(suggest)],
    permissions: { mode: 'default', allow },
    settingsSources: [],
    stateDir: path.join(root, 'state'),
  });
  try {
    return await session.explain('Copy', { to });
  } finally {
    await session.close();
  }
}

test("a write outside the working directories is offered the path rule and the tool's own rule, and both together allow it", async () => {
  const to = path.join(outside, 'a.txt');
  const decision = await explain(() => ['Copy'], to);
  expect(decision.behavior).toBe('ask');
  expect(decision.suggestions).toEqual([`Edit(/${to})`, 'Copy']);
  expect(decision.reason).toContain(`allow it with ${quotedRules(decision.suggestions!)}`);
  // The advice works: with both rules the call is allowed; with the path rule alone it still asks.
  expect((await explain(() => ['Copy'], to, decision.suggestions)).behavior).toBe('allow');
  expect((await explain(() => ['Copy'], to, [`Edit(/${to})`])).behavior).toBe('ask');
  expect(denialMessage('Copy', decision)).toContain(`add "Edit(/${to})" and "Copy" to permissions.allow (all of them`);
});

test('when no rule would allow the call, none is offered and the reason says a person must approve', async () => {
  const to = path.join(outside, 'b.txt');
  // The tool suggests a rule for another tool: it cannot help.
  const decision = await explain(() => ['SomethingElse'], to);
  expect(decision).toMatchObject({ behavior: 'ask', suggestions: [] });
  expect(decision.reason).not.toContain('allow it with');
  expect(decision.reason).toContain('a person must approve it');
  expect(denialMessage('Copy', decision)).not.toContain('permissions.allow');
});

test('a suggestion that already allows the call is offered as it was', async () => {
  const to = path.join(project, 'c.txt');
  const decision = await explain(() => ['Copy'], to);
  expect(decision).toMatchObject({ behavior: 'ask', suggestions: ['Copy'] });
  expect((await explain(() => ['Copy'], to, decision.suggestions)).behavior).toBe('allow');
});

test('quotedRules joins rules as a sentence names them', () => {
  expect(quotedRules(['A'])).toBe('"A"');
  expect(quotedRules(['A', 'B'])).toBe('"A" and "B"');
  expect(quotedRules(['A', 'B', 'C'])).toBe('"A", "B" and "C"');
});

test("attack: the fallback never adds the tool's own path rules, which could reach far past the path the call names", async () => {
  const to = path.join(outside, 'wide.txt');
  // A tool's suggestions are its own advice; a path rule of its own (`Edit(//**)`, a bare `Edit`)
  // would allow writes everywhere once saved with "always".
  for (const wide of ['Edit(//**)', 'Edit', 'Write', `Edit(/${outside}/**)`, 'Read(//**)']) {
    const decision = await explain(() => ['Copy', wide], to);
    expect(decision.behavior).toBe('ask');
    expect(decision.suggestions).toEqual([`Edit(/${to})`, 'Copy']);
    expect(decision.reason).not.toContain(wide === 'Edit' ? '"Edit"' : wide);
  }
});
