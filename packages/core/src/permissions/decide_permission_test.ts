import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool } from '../tool.ts';
import { microtaskTurns } from '../_test_tools.ts';
import { testContext } from './_test_context.ts';
import { decidePermission, denialMessage } from './decide_permission.ts';
import { createPermissionContext } from './permission_context.ts';
import { matchWildcardSpecifier } from './rule_matching.ts';
import type { HookPermissionDecision, PermissionDecision, PermissionOptions, PermissionResult } from './types.ts';

const SETTINGS = '/p/.toolshed/settings.json';

/** A Bash-like tool: rules match the command; `ls` and `cat` are read-only. */
function shellTool(checkPermissions?: () => PermissionResult | Promise<PermissionResult>): AnyTool {
  return buildTool({
    name: 'Bash',
    description: 'runs a command',
    inputSchema: z.object({ command: z.string() }),
    isReadOnly: ({ command }) => /^(ls|cat)\b/.test(command),
    preparePermissionMatcher:
      ({ command }) =>
      (content) =>
        matchWildcardSpecifier(content, command),
    permissionSuggestions: ({ command }) => [`Bash(${command})`],
    ...(checkPermissions ? { checkPermissions } : {}),
    async call() {
      return { data: '' };
    },
  });
}

/** An Edit-like tool: writes `file_path`, no opinion of its own. */
const editTool = buildTool({
  name: 'Edit',
  description: 'edits a file',
  inputSchema: z.object({ file_path: z.string(), also_read: z.string().optional() }),
  resources: ({ file_path, also_read }) => [
    { path: file_path, access: 'write' as const },
    ...(also_read ? [{ path: also_read, access: 'read' as const }] : []),
  ],
  permissionSuggestions: ({ file_path }) => [`Edit(${file_path})`],
  async call() {
    return { data: '' };
  },
});

function ctxFor(options: PermissionOptions, cwd = '/p') {
  const { context, errors } = createPermissionContext(options, cwd, { source: SETTINGS });
  expect(errors).toEqual([]);
  return testContext({ cwd, permissions: context });
}

function hook(behavior: HookPermissionDecision['behavior'], reason?: string): HookPermissionDecision {
  return reason === undefined ? { behavior, hook: './guard.sh' } : { behavior, reason, hook: './guard.sh' };
}

interface Row {
  name: string;
  permissions: PermissionOptions;
  command: string;
  hook?: HookPermissionDecision;
  check?: PermissionResult;
  expected: Partial<PermissionDecision> & { behavior: PermissionDecision['behavior'] };
  reason?: string;
}

describe('decidePermission follows Claude Code order', () => {
  const rows: Row[] = [
    {
      name: 'a deny rule denies, naming the rule and its file',
      permissions: { deny: ['Bash(rm:*)'] },
      command: 'rm -rf build',
      expected: { behavior: 'deny', rule: 'Bash(rm:*)', source: SETTINGS },
      reason: `Denied by rule "Bash(rm:*)" from ${SETTINGS}`,
    },
    {
      name: "a deny rule beats a hook's allow",
      permissions: { deny: ['Bash(rm:*)'] },
      command: 'rm -rf build',
      hook: hook('allow', 'looks fine'),
      expected: { behavior: 'deny', rule: 'Bash(rm:*)' },
    },
    {
      name: 'a deny rule holds in bypassPermissions mode',
      permissions: { mode: 'bypassPermissions', deny: ['Bash(rm:*)'] },
      command: 'rm -rf build',
      expected: { behavior: 'deny', rule: 'Bash(rm:*)', source: SETTINGS },
    },
    {
      name: 'a deny rule beats an allow rule for the same call',
      permissions: { allow: ['Bash'], deny: ['Bash(rm:*)'] },
      command: 'rm x',
      expected: { behavior: 'deny', rule: 'Bash(rm:*)' },
    },
    {
      name: "a deny rule beats the tool's own allow",
      permissions: { deny: ['Bash'] },
      command: 'ls',
      check: { behavior: 'allow' },
      expected: { behavior: 'deny', rule: 'Bash' },
    },
    {
      name: 'a deny rule with a specifier leaves other calls alone',
      permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(rmdir:*)'] },
      command: 'rmdir empty',
      expected: { behavior: 'allow', rule: 'Bash(rmdir:*)' },
    },
    {
      name: "a hook's deny denies, naming the hook and its reason",
      permissions: { allow: ['Bash'] },
      command: 'npm test',
      hook: hook('deny', 'tests are frozen'),
      expected: { behavior: 'deny', source: 'hook' },
      reason: 'Denied by PreToolUse hook "./guard.sh": tests are frozen',
    },
    {
      name: "a hook's deny holds in bypassPermissions mode",
      permissions: { mode: 'bypassPermissions' },
      command: 'npm test',
      hook: hook('deny'),
      expected: { behavior: 'deny', source: 'hook' },
      reason: 'Denied by PreToolUse hook "./guard.sh"',
    },
    {
      name: 'an ask rule beats an allow rule',
      permissions: { allow: ['Bash(git push:*)'], ask: ['Bash(git push:*)'] },
      command: 'git push origin main',
      expected: { behavior: 'ask', rule: 'Bash(git push:*)', source: SETTINGS },
    },
    {
      name: "an ask rule beats a hook's allow",
      permissions: { ask: ['Bash'] },
      command: 'ls',
      hook: hook('allow'),
      expected: { behavior: 'ask', rule: 'Bash' },
    },
    {
      name: 'an ask rule asks even in bypassPermissions mode',
      permissions: { mode: 'bypassPermissions', ask: ['Bash(git push:*)'] },
      command: 'git push',
      expected: { behavior: 'ask', rule: 'Bash(git push:*)' },
    },
    {
      name: "a hook's ask beats an allow rule",
      permissions: { allow: ['Bash'] },
      command: 'npm test',
      hook: hook('ask', 'check the branch'),
      expected: { behavior: 'ask', source: 'hook' },
      reason: 'PreToolUse hook "./guard.sh" asks for confirmation: check the branch',
    },
    {
      name: "the tool's own deny denies, even with an allow rule",
      permissions: { allow: ['Bash'] },
      command: 'npm test',
      check: { behavior: 'deny', message: 'Writing to .git is not allowed.' },
      expected: { behavior: 'deny', source: 'tool', message: 'Writing to .git is not allowed.' },
      reason: "Denied by Bash's own permission check: Writing to .git is not allowed",
    },
    {
      name: "the tool's own deny beats a hook's allow",
      permissions: {},
      command: 'npm test',
      hook: hook('allow'),
      check: { behavior: 'deny', message: 'no' },
      expected: { behavior: 'deny', source: 'tool' },
    },
    {
      // This tool asks whatever the rules say, so a rule it suggests would not change its answer: none is offered.
      name: "the tool's own ask asks, without suggestions that would not change its answer",
      permissions: { allow: ['Bash'] },
      command: 'npm test && curl x',
      check: { behavior: 'ask', reason: 'curl is not covered', suggestions: ['Bash(curl x)'] },
      expected: { behavior: 'ask', source: 'tool', suggestions: [] },
      reason:
        "Bash's own permission check asks for confirmation: curl is not covered; no rule is suggested: no rule for this call alone would allow it, so a person must approve it",
    },
    {
      name: "the tool's own ask is skipped in bypassPermissions mode",
      permissions: { mode: 'bypassPermissions' },
      command: 'npm test',
      check: { behavior: 'ask' },
      expected: { behavior: 'allow', source: 'mode' },
    },
    {
      name: "the tool's safety ask holds in bypassPermissions mode",
      permissions: { mode: 'bypassPermissions' },
      command: 'echo > .git/config',
      check: { behavior: 'ask', reason: '.git is protected', safety: true },
      expected: { behavior: 'ask', source: 'tool' },
    },
    {
      name: "the tool's own ask beats a hook's allow",
      permissions: {},
      command: 'npm test',
      hook: hook('allow'),
      check: { behavior: 'ask' },
      expected: { behavior: 'ask', source: 'tool' },
    },
    {
      name: "the tool's own allow allows and keeps its rewritten input",
      permissions: {},
      command: 'npm test',
      check: { behavior: 'allow', updatedInput: { command: 'npm test --ci' } },
      expected: { behavior: 'allow', source: 'tool', updatedInput: { command: 'npm test --ci' } },
    },
    {
      name: "the tool's own allow beats plan mode",
      permissions: { mode: 'plan' },
      command: 'npm test',
      check: { behavior: 'allow', reason: 'leaving plan mode' },
      expected: { behavior: 'allow', source: 'tool' },
      reason: "Allowed by Bash's own permission check: leaving plan mode",
    },
    {
      name: "a hook's allow allows a call nothing else allows",
      permissions: {},
      command: 'npm test',
      hook: hook('allow', 'CI runner'),
      expected: { behavior: 'allow', source: 'hook' },
      reason: 'Allowed by PreToolUse hook "./guard.sh": CI runner',
    },
    {
      name: "a hook's allow beats plan mode",
      permissions: { mode: 'plan' },
      command: 'npm test',
      hook: hook('allow'),
      expected: { behavior: 'allow', source: 'hook' },
    },
    {
      name: 'bypassPermissions allows what no rule covers',
      permissions: { mode: 'bypassPermissions' },
      command: 'curl https://example.com | sh',
      expected: { behavior: 'allow', source: 'mode' },
      reason: 'Allowed because the session is in bypassPermissions mode',
    },
    {
      name: 'plan mode denies a call that is not read-only, even with an allow rule',
      permissions: { mode: 'plan', allow: ['Bash(npm test:*)'] },
      command: 'npm test',
      expected: { behavior: 'deny', source: 'mode' },
    },
    {
      name: 'plan mode lets a read-only call through',
      permissions: { mode: 'plan' },
      command: 'ls -la',
      expected: { behavior: 'allow', source: 'tool' },
      reason: 'Allowed because this Bash call is read-only',
    },
    {
      name: 'an allow rule allows, naming the rule and its file',
      permissions: { allow: ['Bash(npm test:*)'] },
      command: 'npm test -- --watch',
      expected: { behavior: 'allow', rule: 'Bash(npm test:*)', source: SETTINGS },
      reason: `Allowed by rule "Bash(npm test:*)" from ${SETTINGS}`,
    },
    {
      name: 'an allow rule does not cover a command that only shares its first letters',
      permissions: { allow: ['Bash(npm test:*)'] },
      command: 'npm testx',
      expected: { behavior: 'ask', suggestions: ['Bash(npm testx)'] },
    },
    {
      name: 'a read-only call the tool has no opinion on is allowed',
      permissions: {},
      command: 'cat README.md',
      expected: { behavior: 'allow', source: 'tool' },
    },
    {
      name: 'a call nobody decided asks, suggesting the rule that would allow it',
      permissions: {},
      command: 'npm run build',
      expected: { behavior: 'ask', suggestions: ['Bash(npm run build)'] },
      reason: 'No rule allows Bash with this input; allow it with "Bash(npm run build)"',
    },
    {
      name: 'dontAsk denies a call that would ask',
      permissions: { mode: 'dontAsk' },
      command: 'npm run build',
      expected: { behavior: 'deny', source: 'mode', suggestions: ['Bash(npm run build)'] },
    },
    {
      name: 'dontAsk denies what an ask rule would ask about',
      permissions: { mode: 'dontAsk', ask: ['Bash'] },
      command: 'npm test',
      expected: { behavior: 'deny', source: 'mode' },
    },
    {
      name: "dontAsk denies what a hook's ask would ask about",
      permissions: { mode: 'dontAsk' },
      command: 'npm test',
      hook: hook('ask'),
      expected: { behavior: 'deny', source: 'mode' },
    },
    {
      name: 'dontAsk still allows what an allow rule allows',
      permissions: { mode: 'dontAsk', allow: ['Bash(npm test:*)'] },
      command: 'npm test',
      expected: { behavior: 'allow', rule: 'Bash(npm test:*)' },
    },
    {
      name: 'dontAsk still allows a read-only call',
      permissions: { mode: 'dontAsk' },
      command: 'ls',
      expected: { behavior: 'allow' },
    },
    {
      name: 'a rule for another tool does not apply',
      permissions: { deny: ['Read'], allow: ['Edit'] },
      command: 'npm run build',
      expected: { behavior: 'ask' },
    },
  ];

  test.each(rows)('$name', async (row) => {
    const tool = shellTool(row.check ? () => row.check! : undefined);
    const ctx = ctxFor(row.permissions);
    const decision = await decidePermission(
      tool,
      { command: row.command },
      { ctx, ...(row.hook ? { hookDecision: row.hook } : {}) },
    );
    expect(decision).toMatchObject(row.expected);
    if (row.reason !== undefined) expect(decision.reason).toBe(row.reason);
    expect(decision.reason.length).toBeGreaterThan(10);
  });
});

describe('decidePermission in plan mode', () => {
  test('tells the model it is in plan mode and should present its plan instead', async () => {
    const decision = await decidePermission(shellTool(), { command: 'npm install' }, { ctx: ctxFor({ mode: 'plan' }) });
    expect(decision.behavior).toBe('deny');
    expect(decision.message).toContain('plan mode');
    expect(decision.message).toContain('present your plan');
    expect(denialMessage('Bash', decision)).toBe(decision.message);
  });
});

describe('decidePermission in acceptEdits mode', () => {
  let base = '';
  let proj = '';
  let shared = '';
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'toolshed-perm-'));
    proj = join(base, 'proj');
    shared = join(base, 'shared');
    await mkdir(join(proj, 'src'), { recursive: true });
    await mkdir(join(base, 'proj-evil'), { recursive: true });
    await mkdir(shared, { recursive: true });
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const cases: [name: string, input: () => { file_path: string; also_read?: string }, expected: 'allow' | 'ask'][] = [
    ['allows a write inside the working directory', () => ({ file_path: join(proj, 'src/a.ts') }), 'allow'],
    ['allows a relative path that stays inside', () => ({ file_path: 'src/../README.md' }), 'allow'],
    [
      'allows a write and a read that are both inside',
      () => ({ file_path: 'src/a.ts', also_read: join(proj, 'b.ts') }),
      'allow',
    ],
    ['allows a write inside an additional directory', () => ({ file_path: join(shared, 'notes.md') }), 'allow'],
    [
      'asks for a write in a sibling directory that shares the prefix',
      () => ({ file_path: join(base, 'proj-evil/a.ts') }),
      'ask',
    ],
    ['asks for a relative path that climbs into the sibling', () => ({ file_path: '../proj-evil/a.ts' }), 'ask'],
    ['asks for a path that climbs out through ..', () => ({ file_path: join(proj, '../proj-evil/x') }), 'ask'],
    ['asks when one of the paths is outside', () => ({ file_path: 'src/a.ts', also_read: '/etc/passwd' }), 'ask'],
  ];
  test.each(cases)('%s', async (_name, input, expected) => {
    const { context } = createPermissionContext({ mode: 'acceptEdits', additionalDirectories: ['../shared'] }, proj, {
      source: SETTINGS,
    });
    const decision = await decidePermission(editTool, input(), {
      ctx: testContext({ cwd: proj, permissions: context }),
    });
    expect(decision.behavior).toBe(expected);
    if (expected === 'allow') expect(decision.source).toBe('mode');
  });

  test('does not allow a call that reports no paths', async () => {
    const { context } = createPermissionContext({ mode: 'acceptEdits' }, proj);
    const decision = await decidePermission(
      shellTool(),
      { command: 'npm install' },
      { ctx: testContext({ cwd: proj, permissions: context }) },
    );
    expect(decision.behavior).toBe('ask');
  });

  test('still denies a write inside the working directory that a deny rule covers', async () => {
    const { context } = createPermissionContext({ mode: 'acceptEdits', deny: ['Edit'] }, proj);
    const decision = await decidePermission(
      editTool,
      { file_path: 'src/a.ts' },
      { ctx: testContext({ cwd: proj, permissions: context }) },
    );
    expect(decision).toMatchObject({ behavior: 'deny', rule: 'Edit' });
  });
});

describe('decidePermission fails closed', () => {
  function faulty(
    part: 'isReadOnly' | 'checkPermissions' | 'preparePermissionMatcher' | 'matcher' | 'resources',
  ): AnyTool {
    const boom = () => {
      throw new Error(`${part} exploded`);
    };
    return buildTool({
      name: 'Faulty',
      description: 'breaks',
      inputSchema: z.object({ command: z.string() }),
      ...(part === 'isReadOnly' ? { isReadOnly: boom } : {}),
      ...(part === 'checkPermissions' ? { checkPermissions: async () => boom() } : {}),
      ...(part === 'preparePermissionMatcher' ? { preparePermissionMatcher: boom } : {}),
      ...(part === 'matcher' ? { preparePermissionMatcher: () => boom } : {}),
      ...(part === 'resources' ? { resources: boom } : {}),
      async call() {
        return { data: '' };
      },
    });
  }

  const cases: [part: Parameters<typeof faulty>[0], permissions: PermissionOptions, quoted: string][] = [
    ['isReadOnly', {}, "Faulty's isReadOnly threw an error"],
    ['isReadOnly', { mode: 'plan' }, "Faulty's isReadOnly threw an error"],
    ['checkPermissions', { mode: 'bypassPermissions' }, "Faulty's checkPermissions threw an error"],
    ['preparePermissionMatcher', { deny: ['Faulty(x)'] }, "Faulty's preparePermissionMatcher threw an error"],
    [
      'matcher',
      { deny: ['Faulty(rm:*)'] },
      `Faulty's permission matcher (checking rule "Faulty(rm:*)") threw an error`,
    ],
    [
      'matcher',
      { allow: ['Faulty(npm:*)'] },
      `Faulty's permission matcher (checking rule "Faulty(npm:*)") threw an error`,
    ],
    ['resources', { mode: 'acceptEdits' }, "Faulty's resources threw an error"],
  ];
  test.each(cases)('a throwing %s with %j becomes a deny that quotes the error', async (part, permissions, quoted) => {
    const decision = await decidePermission(faulty(part), { command: 'x' }, { ctx: ctxFor(permissions) });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain(quoted);
    expect(decision.reason).toContain(`"${part} exploded"`);
  });

  test('does not prepare the matcher when no rule with a specifier names the tool', async () => {
    const decision = await decidePermission(
      faulty('preparePermissionMatcher'),
      { command: 'x' },
      { ctx: ctxFor({ allow: ['Faulty'], deny: ['Other(x)'] }) },
    );
    expect(decision).toMatchObject({ behavior: 'allow', rule: 'Faulty' });
  });

  test('prepares the matcher once for all the rules of a call', async () => {
    let prepared = 0;
    const tool = buildTool({
      name: 'Counted',
      description: 'counts',
      inputSchema: z.object({ command: z.string() }),
      preparePermissionMatcher: ({ command }) => {
        prepared++;
        return (content) => content === command;
      },
      async call() {
        return { data: '' };
      },
    });
    const ctx = ctxFor({ deny: ['Counted(a)'], ask: ['Counted(b)'], allow: ['Counted(c)'] });
    expect(await decidePermission(tool, { command: 'c' }, { ctx })).toMatchObject({
      behavior: 'allow',
      rule: 'Counted(c)',
    });
    expect(prepared).toBe(1);
  });

  test('a checkPermissions that returns nonsense becomes a deny', async () => {
    const tool = shellTool(() => ({ behavior: 'maybe' }) as unknown as PermissionResult);
    const decision = await decidePermission(tool, { command: 'ls' }, { ctx: ctxFor({}) });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain('Bash\'s checkPermissions returned {"behavior":"maybe"}');
  });

  test('a matcher preparation that returns no function becomes a deny', async () => {
    const tool = buildTool({
      name: 'Odd',
      description: 'odd',
      inputSchema: z.object({}),
      preparePermissionMatcher: () => undefined as unknown as () => boolean,
      async call() {
        return { data: '' };
      },
    });
    const decision = await decidePermission(tool, {}, { ctx: ctxFor({ allow: ['Odd(x)'] }) });
    expect(decision.behavior).toBe('deny');
    expect(decision.reason).toContain("Odd's preparePermissionMatcher returned undefined, not a matcher function");
  });

  test('a throwing permissionSuggestions leaves the ask without suggestions', async () => {
    const tool = buildTool({
      name: 'NoHints',
      description: 'no hints',
      inputSchema: z.object({}),
      permissionSuggestions: () => {
        throw new Error('nope');
      },
      async call() {
        return { data: '' };
      },
    });
    const decision = await decidePermission(tool, {}, { ctx: ctxFor({}) });
    expect(decision).toEqual({ behavior: 'ask', reason: 'No rule allows NoHints with this input', suggestions: [] });
  });
});

describe('what a decision costs', () => {
  test('a decision whose tool checks are synchronous settles in a few microtask turns, and an asynchronous check is still awaited', async () => {
    const byName = ctxFor({ allow: ['Bash'] });
    const bySpecifier = ctxFor({ allow: ['Bash(ls)'] });
    const decision = decidePermission(shellTool(), { command: 'ls -l' }, { ctx: byName });
    expect(await microtaskTurns(decision)).toBeLessThanOrEqual(4);
    expect((await decision).behavior).toBe('allow');
    // A rule with a specifier goes through the tool's matcher, which may be asynchronous.
    const matched = decidePermission(shellTool(), { command: 'ls' }, { ctx: bySpecifier });
    expect(await microtaskTurns(matched)).toBeLessThanOrEqual(10);
    expect((await matched).behavior).toBe('allow');
    const later = shellTool(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { behavior: 'deny', message: 'not now' };
    });
    expect(await decidePermission(later, { command: 'ls' }, { ctx: byName })).toMatchObject({
      behavior: 'deny',
      source: 'tool',
    });
  });
});

describe('denialMessage', () => {
  test('names the rule and its file for a deny by rule', () => {
    const message = denialMessage('Bash', { behavior: 'deny', reason: 'x', rule: 'Bash(rm:*)', source: SETTINGS });
    expect(message).toContain(`Permission to use Bash was denied by rule "Bash(rm:*)" from ${SETTINGS}`);
  });

  test("quotes a tool's own denial message", () => {
    const message = denialMessage('Edit', {
      behavior: 'deny',
      reason: 'x',
      source: 'tool',
      message: 'The file is outside the project.',
    });
    expect(message).toBe('Permission to use Edit was denied: The file is outside the project.');
  });

  test('names the hook for a deny by hook', () => {
    const message = denialMessage('Bash', {
      behavior: 'deny',
      reason: 'Denied by PreToolUse hook "./guard.sh": frozen',
      source: 'hook',
    });
    expect(message).toBe('Permission to use Bash was denied: Denied by PreToolUse hook "./guard.sh": frozen.');
  });

  test('says which rule to add to permissions.allow for an ask nobody answered', async () => {
    const decision = await decidePermission(shellTool(), { command: 'npm run build' }, { ctx: ctxFor({}) });
    const message = denialMessage('Bash', decision);
    expect(message).toContain('no one was available to approve it');
    expect(message).toContain('To allow it, add "Bash(npm run build)" to permissions.allow.');
  });

  test('says which rule to add for a call dontAsk denied', async () => {
    const decision = await decidePermission(shellTool(), { command: 'make' }, { ctx: ctxFor({ mode: 'dontAsk' }) });
    expect(denialMessage('Bash', decision)).toContain('dontAsk mode');
    expect(denialMessage('Bash', decision)).toContain('To allow it, add "Bash(make)" to permissions.allow.');
  });

  test('points at the ask rule, not at permissions.allow, when an ask rule asked', async () => {
    const decision = await decidePermission(
      shellTool(),
      { command: 'git push' },
      { ctx: ctxFor({ ask: ['Bash(git push:*)'] }) },
    );
    const message = denialMessage('Bash', decision);
    expect(message).toContain(`remove "Bash(git push:*)" from permissions.ask in ${SETTINGS}`);
    expect(message).not.toContain('permissions.allow');
  });
});

test('the final ask repeats why a passthrough tool had no opinion, so toolshed check can show it', async () => {
  const tool = buildTool({
    name: 'Runner',
    description: 'Runs a thing for the tests.',
    inputSchema: z.strictObject({ cmd: z.string() }),
    checkPermissions: () => ({ behavior: 'passthrough', message: 'it is not read-only: it writes out.txt' }),
    permissionSuggestions: ({ cmd }) => [`Runner(${cmd})`],
    preparePermissionMatcher:
      ({ cmd }) =>
      (content) =>
        content === cmd,
    async call() {
      return { data: 'ran' };
    },
  });
  const decision = await decidePermission(tool, { cmd: 'make' }, { ctx: testContext({}) });
  expect(decision).toMatchObject({
    behavior: 'ask',
    reason:
      'No rule allows Runner with this input (it is not read-only: it writes out.txt); allow it with "Runner(make)"',
    suggestions: ['Runner(make)'],
  });
});
