import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { contentToText, type ToolResultBlock } from './blocks.ts';
import { ToolshedError } from './errors.ts';
import { matchWildcardSpecifier } from './permissions/rule_matching.ts';
import { createSession } from './session.ts';
import type { SessionOptions } from './session_types.ts';
import { buildTool } from './tool.ts';
import { echoTool, tempDir, use } from './_test_tools.ts';

/** Read and Write stand-ins that declare their paths, and a Bash stand-in with a rule matcher. */
const readTool = buildTool({
  name: 'Read',
  description: 'reads a file',
  inputSchema: z.strictObject({ file_path: z.string() }),
  isReadOnly: () => true,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' as const }],
  async call({ file_path }) {
    return { data: `read ${file_path}` };
  },
});
const writeTool = buildTool({
  name: 'Write',
  description: 'writes a file',
  inputSchema: z.strictObject({ file_path: z.string() }),
  resources: ({ file_path }) => [{ path: file_path, access: 'write' as const }],
  permissionSuggestions: ({ file_path }) => [`Edit(${file_path})`],
  async call({ file_path }) {
    return { data: `wrote ${file_path}` };
  },
});
const bashTool = buildTool({
  name: 'Bash',
  description: 'runs a command',
  inputSchema: z.strictObject({ command: z.string() }),
  preparePermissionMatcher:
    ({ command }) =>
    (content) =>
      matchWildcardSpecifier(content, command),
  permissionSuggestions: ({ command }) => [`Bash(${command})`],
  async call({ command }) {
    if (command === 'false') throw new Error('exit code 1');
    return { data: `ran ${command}` };
  },
});
const tools = [readTool, writeTool, bashTool];

let root: string;
let home: string;
let proj: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolshed-session-')));
  home = join(root, 'home');
  proj = join(root, 'proj');
  for (const dir of [join(home, '.toolshed'), join(proj, '.toolshed'), join(proj, '.claude'), join(proj, 'src')])
    await mkdir(dir, { recursive: true });
  await writeFile(join(proj, 'src', 'a.ts'), 'a');
  await writeFile(join(proj, '.env'), 'K=V');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, content: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(content, null, 2));
}

function session(options: Partial<SessionOptions> = {}) {
  return createSession({
    cwd: proj,
    homeDir: home,
    tools,
    caseInsensitivePaths: false,
    trustedProject: true,
    ...options,
  });
}

const text = (r: ToolResultBlock | undefined) => contentToText(r!.content);

async function createError(options: Partial<SessionOptions>): Promise<ToolshedError> {
  try {
    await session(options);
  } catch (e) {
    if (ToolshedError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('createSession did not throw');
}

describe('createSession with settings files', () => {
  test('reads no settings file unless asked', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), { permissions: { deny: ['Read'] } });
    const s = await session();
    expect((await s.explain('Read', { file_path: 'src/a.ts' })).behavior).toBe('allow');
  });

  test('explain names the settings file the deciding rule came from', async () => {
    const user = join(home, '.toolshed', 'settings.json');
    const project = join(proj, '.toolshed', 'settings.json');
    const local = join(proj, '.toolshed', 'settings.local.json');
    await put(user, { permissions: { allow: ['Bash(npm test:*)'] } });
    await put(project, { permissions: { deny: ['Read(./.env)'] } });
    await put(local, { permissions: { ask: ['Bash(git push:*)'] } });
    const s = await session({
      settingsSources: ['user', 'project', 'local'],
      permissions: { allow: ['Edit(./src/**)'] },
    });
    expect(await s.explain('Bash', { command: 'npm test -- -u' })).toMatchObject({
      behavior: 'allow',
      rule: 'Bash(npm test:*)',
      source: user,
    });
    expect(await s.explain('Read', { file_path: '.env' })).toMatchObject({
      behavior: 'deny',
      rule: 'Read(./.env)',
      source: project,
    });
    expect(await s.explain('Bash', { command: 'git push origin main' })).toMatchObject({
      behavior: 'ask',
      rule: 'Bash(git push:*)',
      source: local,
    });
    expect(await s.explain('Write', { file_path: 'src/b.ts' })).toMatchObject({
      behavior: 'allow',
      rule: 'Edit(./src/**)',
      source: 'options',
    });
  });

  test('names options rules with permissionsSource, and the options mode beats the settings mode', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    const s = await session({
      settingsSources: ['project'],
      permissions: { mode: 'acceptEdits', deny: ['Bash(rm:*)'] },
      permissionsSource: 'cli',
    });
    expect(await s.explain('Write', { file_path: 'src/b.ts' })).toMatchObject({ behavior: 'allow', source: 'mode' });
    expect(await s.explain('Bash', { command: 'rm -rf x' })).toMatchObject({ behavior: 'deny', source: 'cli' });
  });

  test('takes the mode from the settings when the options give none', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), { permissions: { defaultMode: 'plan' } });
    const s = await session({ settingsSources: ['project'] });
    expect(await s.explain('Write', { file_path: 'src/b.ts' })).toMatchObject({ behavior: 'deny', source: 'mode' });
  });

  test('a settings file with typos stops the session, naming the file, the key, the value and the fix', async () => {
    const project = join(proj, '.toolshed', 'settings.json');
    await put(project, { permissions: { alow: ['Read'], deny: ['Bash(rm:* -rf)'], defaultMode: 'acceptedit' } });
    const error = await createError({ settingsSources: ['project'] });
    expect(error.code).toBe('settings_invalid');
    expect(error.message).toContain(
      `Settings file "${project}": permissions.alow is not a permissions key. Did you mean "allow"?`,
    );
    expect(error.message).toContain('permissions.deny[0] is "Bash(rm:* -rf)"');
    expect(error.message).toContain('did you mean "Bash(rm:*)"?');
    expect(error.message).toContain(
      'permissions.defaultMode is "acceptedit", not a permission mode. Did you mean "acceptEdits"?',
    );
  });

  test('a settings file that does not parse stops the session rather than dropping its deny rules', async () => {
    await writeFile(join(proj, '.toolshed', 'settings.local.json'), '{"permissions": {"deny": ["Read(./.env)"],}}');
    const error = await createError({ settingsSources: ['local'] });
    expect(error.message).toMatch(/settings\.local\.json" is not valid JSON \(unexpected "}" at line 1, column 43\)/);
  });

  test('disableBypassPermissionsMode refuses bypassPermissions, naming the file', async () => {
    await put(join(home, '.toolshed', 'settings.json'), { permissions: { disableBypassPermissionsMode: 'disable' } });
    const error = await createError({ settingsSources: ['user'], permissions: { mode: 'bypassPermissions' } });
    expect(error.message).toContain(
      `${join(home, '.toolshed', 'settings.json')}" set permissions.disableBypassPermissionsMode to "disable"`,
    );
  });

  test('warnings about ignored hook events become session notices', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const s = await session({ settingsSources: ['project'] });
    expect(s.notices()).toEqual([
      {
        level: 'warn',
        message: expect.stringContaining('hooks.Stop is a Claude Code event that Toolshed does not run'),
      },
    ]);
  });
});

describe('hooks from settings files', () => {
  test('run before the hooks of the options, and see TOOLSHED_PROJECT_DIR and CLAUDE_PROJECT_DIR', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'echo "$TOOLSHED_PROJECT_DIR $CLAUDE_PROJECT_DIR" > hook.log' }],
          },
        ],
      },
    });
    const order: string[] = [];
    const s = await session({
      settingsSources: ['project'],
      permissions: { allow: ['Bash'] },
      hooks: { PreToolUse: [{ hooks: [() => void order.push('options hook')] }] },
    });
    const [result] = await s.run([use('t1', 'Bash', { command: 'ls' })]);
    expect(text(result)).toBe('ran ls');
    expect(order).toEqual(['options hook']);
    expect((await readFile(join(proj, 'hook.log'), 'utf8')).trim()).toBe(`${proj} ${proj}`);
  });

  test('are dropped when a settings file sets disableAllHooks', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] },
    });
    await put(join(proj, '.toolshed', 'settings.local.json'), { disableAllHooks: true });
    const s = await session({ settingsSources: ['project', 'local'], permissions: { allow: ['Bash'] } });
    const [result] = await s.run([use('t1', 'Bash', { command: 'ls' })]);
    expect(text(result)).toBe('ran ls');
  });

  test('a PostToolUseFailure hook sees the error and its additionalContext reaches the model', async () => {
    const hook = `cat > failure.json; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"Try npm ci first."}}'`;
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: { PostToolUseFailure: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
    });
    const s = await session({ settingsSources: ['project'], permissions: { allow: ['Bash'] } });
    const [result] = await s.run([use('t1', 'Bash', { command: 'false' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result)).toBe('Bash failed: exit code 1\n\nTry npm ci first.');
    const input = JSON.parse(await readFile(join(proj, 'failure.json'), 'utf8'));
    expect(input).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      error: 'Bash failed: exit code 1',
    });
  });

  test('output that does not fit the schema is a non-blocking error naming the hook and the field', async () => {
    await put(join(proj, '.toolshed', 'settings.json'), {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'` }] },
        ],
      },
    });
    const s = await session({ settingsSources: ['project'], permissions: { allow: ['Bash'] } });
    const events = [];
    for await (const event of s.stream([use('t1', 'Bash', { command: 'ls' })])) events.push(event);
    expect(events.find((e) => e.type === 'hook_error')).toMatchObject({
      hook: `echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'`,
      message: expect.stringContaining('hookSpecificOutput.permissionDecision must be allow, deny or ask, got "maybe"'),
    });
    expect(events.find((e) => e.type === 'result')).toMatchObject({ result: { content: 'ran ls' } });
  });
});

describe('PreToolUse hooks and the rules', () => {
  test("a deny rule beats a hook's allow", async () => {
    const s = await session({
      permissions: { deny: ['Read(./.env)'] },
      hooks: { PreToolUse: [{ hooks: [() => ({ hookSpecificOutput: { permissionDecision: 'allow' as const } })] }] },
    });
    const [result] = await s.run([use('t1', 'Read', { file_path: '.env' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result)).toContain('denied by rule "Read(./.env)" from options');
  });

  test("a hook's updatedInput is checked against the rules again: a rewrite to a denied path is denied", async () => {
    const s = await session({
      permissions: { allow: ['Edit(./src/**)'], deny: ['Read(./.env)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Read',
            hooks: [
              () => ({
                hookSpecificOutput: { permissionDecision: 'allow' as const, updatedInput: { file_path: '.env' } },
              }),
            ],
          },
        ],
      },
    });
    const [result] = await s.run([use('t1', 'Read', { file_path: 'src/a.ts' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result)).toContain('denied by rule "Read(./.env)"');
  });

  test("a hook's updatedInput that leaves the working directories asks, and without canUseTool is not run", async () => {
    const s = await session({
      hooks: {
        PreToolUse: [{ hooks: [() => ({ hookSpecificOutput: { updatedInput: { file_path: '../../etc/passwd' } } })] }],
      },
    });
    const [result] = await s.run([use('t1', 'Read', { file_path: 'src/a.ts' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result)).toContain('is outside the working directories');
  });

  test('the permission decision is made on the rewritten input, which the tool then gets', async () => {
    const seen: unknown[] = [];
    const s = await session({
      canUseTool: async (_name, input) => {
        seen.push(input);
        return { behavior: 'allow' };
      },
      hooks: {
        PreToolUse: [{ hooks: [() => ({ hookSpecificOutput: { updatedInput: { file_path: 'src/rewritten.ts' } } })] }],
      },
    });
    const [result] = await s.run([use('t1', 'Write', { file_path: 'src/a.ts' })]);
    expect(seen).toEqual([{ file_path: 'src/rewritten.ts' }]);
    expect(text(result)).toBe('wrote src/rewritten.ts');
  });
});

describe('an existing Claude Code project', () => {
  const claudeSettings = {
    permissions: {
      allow: ['Bash(npm run test:*)', 'Edit(./src/**)', 'Read(~/notes/**)'],
      deny: ['Read(./.env)', 'Bash(curl:*)', 'Edit(/src/generated/**)'],
      ask: ['Bash(git push:*)'],
      defaultMode: 'default',
    },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'grep -q "rm -rf" && { echo "no rm -rf here" >&2; exit 2; }; exit 0' }],
        },
      ],
    },
    env: { NODE_ENV: 'test' },
    includeCoAuthoredBy: false,
  };
  const calls: [string, Record<string, unknown>][] = [
    ['Bash', { command: 'npm run test -- --watch' }],
    ['Bash', { command: 'curl https://example.com' }],
    ['Bash', { command: 'git push origin main' }],
    ['Bash', { command: 'make' }],
    ['Read', { file_path: '.env' }],
    ['Read', { file_path: 'src/a.ts' }],
    ['Read', { file_path: '~/notes/todo.md' }],
    ['Read', { file_path: '~/other.md' }],
    ['Write', { file_path: 'src/b.ts' }],
    ['Write', { file_path: 'src/generated/x.ts' }],
    ['Write', { file_path: 'README.md' }],
    ['Write', { file_path: '.claude/settings.json' }],
  ];

  test('gives the same decisions through the claude source as the same file in .toolshed/', async () => {
    await put(join(proj, '.claude', 'settings.json'), claudeSettings);
    const viaClaude = await session({ settingsSources: ['claude'] });
    const toolshedDir = join(root, 'proj2');
    await mkdir(join(toolshedDir, '.toolshed'), { recursive: true });
    await mkdir(join(toolshedDir, 'src'), { recursive: true });
    await writeFile(join(toolshedDir, '.env'), 'K=V');
    await put(join(toolshedDir, '.toolshed', 'settings.json'), claudeSettings);
    const viaToolshed = await createSession({
      cwd: toolshedDir,
      homeDir: home,
      tools,
      settingsSources: ['project'],
      caseInsensitivePaths: false,
      trustedProject: true,
    });

    const expected = ['allow', 'deny', 'ask', 'ask', 'deny', 'allow', 'allow', 'ask', 'allow', 'deny', 'ask', 'ask'];
    const claudeDecisions = await Promise.all(calls.map(([name, input]) => viaClaude.explain(name, input)));
    const toolshedDecisions = await Promise.all(calls.map(([name, input]) => viaToolshed.explain(name, input)));
    expect(claudeDecisions.map((d) => d.behavior)).toEqual(expected);
    expect(toolshedDecisions.map((d) => d.behavior)).toEqual(expected);
    expect(claudeDecisions.map((d) => d.rule)).toEqual(toolshedDecisions.map((d) => d.rule));
    expect(claudeDecisions[1]).toMatchObject({ rule: 'Bash(curl:*)', source: join(proj, '.claude', 'settings.json') });
  });

  test('runs its hooks through the claude source', async () => {
    await put(join(proj, '.claude', 'settings.json'), claudeSettings);
    await put(join(proj, '.claude', 'settings.local.json'), { permissions: { allow: ['Bash(rm:*)'] } });
    const s = await session({ settingsSources: ['claude'] });
    const [blocked, allowed] = await s.run([
      use('t1', 'Bash', { command: 'rm -rf build' }),
      use('t2', 'Bash', { command: 'npm run test -- --watch' }),
    ]);
    expect(blocked!.is_error).toBe(true);
    expect(text(blocked)).toBe(
      'Bash was blocked by PreToolUse hook "grep -q "rm -rf" && { echo "no rm -rf here" >&2; exit 2; }; exit 0": no rm -rf here',
    );
    expect(text(allowed)).toBe('ran npm run test -- --watch');
  });
});

test('explain of a mistyped tool name says which tool was meant, as a call does', async () => {
  const session = await createSession({ cwd: process.cwd(), tools: [echoTool] });
  try {
    const decision = await session.explain('Ecoh', { text: 'x' });
    expect(decision).toEqual({
      behavior: 'deny',
      reason: 'No such tool available: Ecoh. Did you mean "Echo"?',
      source: 'pool',
    });
    // The name it suggests is one the session really has.
    expect((await session.explain('Echo', { text: 'x' })).reason).not.toContain('No such tool');
  } finally {
    await session.close();
  }
});

test('explain names the blanket deny rule that removed a tool from the pool', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    const session = await createSession({ cwd: dir, tools: [echoTool], permissions: { deny: ['Echo'] } });
    expect(await session.explain('Echo', { text: 'x' })).toEqual({
      behavior: 'deny',
      reason: 'Denied by rule "Echo" from options; the tool is left out of the pool',
      rule: 'Echo',
      source: 'options',
    });
    expect((await session.explain('Nope', {})).reason).toBe('No such tool available: Nope.');
  } finally {
    await cleanup();
  }
});
