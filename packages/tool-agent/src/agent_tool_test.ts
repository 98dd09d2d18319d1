import Anthropic from '@anthropic-ai/sdk';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, type CanUseTool, type PermissionOptions, type Session } from '@toolshed/core';
import { startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest } from './testing/mod.ts';
import { anthropicModel } from './anthropic_model.ts';
import { agentTools, type AgentToolsOptions } from './family.ts';
import { echoTool, noteTool, notes, waitTool } from './_test_tools.ts';
import type { AgentDefinition } from './agent_definition.ts';

let server: FakeModelServer | undefined;
let session: Session | undefined;
beforeEach(() => void notes.splice(0));
afterEach(async () => {
  await session?.close();
  await server?.close();
  server = undefined;
  session = undefined;
});

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use' as const, id, name, input });
const text = (t: string): FakeReply => ({ content: [{ type: 'text', text: t }] });
const toolNames = (r: FakeRequest) => ((r.body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name);
const lastUserText = (r: FakeRequest) => JSON.stringify((r.body.messages as unknown[]).at(-1));

interface Setup {
  script: (request: FakeRequest) => FakeReply | Promise<FakeReply>;
  agents?: Record<string, AgentDefinition>;
  permissions?: PermissionOptions;
  canUseTool?: CanUseTool;
  family?: AgentToolsOptions;
  cwd?: string;
  homeDir?: string;
}

async function setup(options: Setup) {
  server = await startFakeModelServer(options.script);
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  const cwd = options.cwd ?? mkdtempSync(path.join(tmpdir(), 'agent-tool-'));
  session = await createSession({
    cwd,
    families: [agentTools({ agents: options.agents ?? {}, model, homeDir: options.homeDir ?? cwd, ...options.family })],
    tools: [echoTool, noteTool, waitTool],
    permissions: options.permissions ?? {},
    ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
  });
  return session;
}

const callAgent = async (input: Record<string, unknown>, id = 'ag1') => {
  const [result] = await session!.run([use(id, 'Agent', { description: 'test task', prompt: 'do it', ...input })]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
};

test("a sub-agent has the parent's tools ∩ its own, and never Agent or the task tools", async () => {
  const requests: FakeRequest[] = [];
  await setup({
    agents: {
      helper: { description: 'helps', prompt: 'CHILD helper', tools: ['Echo', 'Agent', 'TaskOutput', 'Note'] },
    },
    script: (r) => {
      requests.push(r);
      if (toolNames(r).length && !lastUserText(r).includes('tool_result'))
        return { content: [use('x1', 'Agent', { description: 'nested', prompt: 'recurse' })] };
      return text('child done');
    },
  });
  const out = await callAgent({ subagent_type: 'helper' });
  expect(out.isError).toBe(false);
  expect(toolNames(requests[0]!)).toEqual(['Echo', 'Note']);
  // The model may still try: the pool has no Agent in a sub-agent.
  expect(lastUserText(requests[1]!)).toContain('No such tool available: Agent');
  expect(out.text).toMatch(/^child done\n\n\[helper agent: 1 tool call, \d+ tokens, [\d.]+ s, stopped: end_turn\]$/);
});

test("a sub-agent whose tools include a denied one cannot call it, and the parent's asks go to its canUseTool", async () => {
  const asked: string[] = [];
  const requests: FakeRequest[] = [];
  await setup({
    agents: {
      writer: {
        description: 'writes',
        prompt: 'CHILD writer',
        tools: ['Echo', 'Note', 'Wait'],
        permissionMode: 'bypassPermissions',
      },
    },
    permissions: { deny: ['Wait'], ask: ['Echo'] },
    canUseTool: async (name) => {
      asked.push(name);
      return { behavior: 'deny', message: `user said no to ${name}` };
    },
    script: (r) => {
      requests.push(r);
      if (requests.length === 1)
        return { content: [use('e1', 'Echo', { text: 'a' }), use('n1', 'Note', { text: 'b' }), use('w1', 'Wait', {})] };
      return text('tried');
    },
  });
  await callAgent({ subagent_type: 'writer' });
  expect(toolNames(requests[0]!)).toEqual(['Echo', 'Note']);
  // Echo asks (the parent's ask rule), and Note asks too: the child's bypassPermissions was narrowed to default.
  expect(asked).toEqual(['Echo', 'Note']);
  expect(notes).toEqual([]);
  const results = lastUserText(requests[1]!);
  expect(results).toContain('No such tool available: Wait');
  expect(results).toContain('user said no to Note');
});

test("the parent's deny rule holds inside the child even for a tool the child may use", async () => {
  const requests: FakeRequest[] = [];
  await setup({
    permissions: { mode: 'bypassPermissions', deny: ['Note'] },
    script: (r) => {
      requests.push(r);
      return requests.length === 1 ? { content: [use('n1', 'Note', { text: 'secret' })] } : text('ok');
    },
  });
  await callAgent({ subagent_type: 'general-purpose' });
  expect(notes).toEqual([]);
  expect(toolNames(requests[0]!)).not.toContain('Note');
});

test('an unknown subagent_type is an error that lists the types', async () => {
  await setup({ script: () => text('x') });
  const out = await callAgent({ subagent_type: 'Nope' });
  expect(out.isError).toBe(true);
  expect(out.text).toMatch(/No agent type "Nope"; the types are general-purpose, Explore, Plan/);
});

test('the transcript of a sub-agent is kept under the state dir', async () => {
  await setup({ script: () => text('all done') });
  await callAgent({ subagent_type: 'Explore' });
  const dir = path.join(session!.stateDir, 'agents');
  const file = (await import('node:fs')).readdirSync(dir).find((f) => f.endsWith('.json'))!;
  const transcript = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
    subagentType: string;
    messages: unknown[];
  };
  expect(transcript.subagentType).toBe('Explore');
  expect(JSON.stringify(transcript.messages)).toContain('all done');
});

test("aborting the parent's run aborts the child", async () => {
  const controller = new AbortController();
  await setup({ script: () => ({ content: [use('w1', 'Wait', {})] }) });
  setTimeout(() => controller.abort(), 300);
  const [result] = await session!.run(
    [use('ag', 'Agent', { description: 'wait', prompt: 'wait', subagent_type: 'general-purpose' })],
    { signal: controller.signal },
  );
  expect(result!.is_error).toBe(true);
  expect(server!.requests).toHaveLength(1);
});

test('a background agent returns a task id at once; SendMessage reaches it; TaskOutput reads its output', async () => {
  let sent!: () => void;
  const messageSent = new Promise<void>((resolve) => (sent = resolve));
  await setup({
    script: (r) => {
      if (!lastUserText(r).includes('tool_result'))
        return { content: [use('e1', 'Echo', { text: 'working' })], pause: { afterBlock: 0, until: messageSent } };
      const message = /Also look at (\w+)/.exec(lastUserText(r))?.[1];
      return text(`looked at ${message ?? 'nothing'}`);
    },
  });
  const started = await callAgent({ subagent_type: 'general-purpose', run_in_background: true, name: 'scout' });
  const taskId = /task id (agent_\S+?)[ .]/.exec(started.text)![1]!;
  expect(started.text).toContain('SendMessage');
  const [sendResult] = await session!.run([use('s1', 'SendMessage', { to: 'scout', message: 'Also look at tests' })]);
  expect(contentToText(sendResult!.content)).toContain('Message queued for scout');
  sent();
  const [output] = await session!.run([use('o1', 'TaskOutput', { task_id: taskId, timeout: 20_000 })]);
  const outputText = contentToText(output!.content);
  expect(outputText).toContain(`Task ${taskId}: completed`);
  expect(outputText).toContain('looked at tests');
  expect(outputText).toMatch(/\[general-purpose agent: 1 tool call/);
  // Finished: SendMessage now says so.
  const [late] = await session!.run([use('s2', 'SendMessage', { to: 'scout', message: 'hello?' })]);
  expect(late!.is_error).toBe(true);
  expect(contentToText(late!.content)).toMatch(
    /Agent "scout" has finished \(completed\).*No background agent is running/,
  );
});

test('TaskStop ends a background agent', async () => {
  await setup({ script: () => ({ content: [use('w1', 'Wait', {})] }) });
  const started = await callAgent({ subagent_type: 'general-purpose', run_in_background: true });
  const taskId = /task id (agent_\S+?)[ .]/.exec(started.text)![1]!;
  const [stop] = await session!.run([use('t1', 'TaskStop', { task_id: taskId })]);
  expect(contentToText(stop!.content)).toBe(`Task ${taskId} was stopped.`);
  const [output] = await session!.run([use('o1', 'TaskOutput', { task_id: taskId, block: false })]);
  expect(contentToText(output!.content)).toContain(`Task ${taskId}: killed`);
});

test('SendMessage to an unknown name lists the running agents', async () => {
  await setup({ script: () => ({ content: [use('w1', 'Wait', {})] }) });
  await callAgent({ subagent_type: 'general-purpose', run_in_background: true, name: 'sleeper' });
  const [result] = await session!.run([use('s1', 'SendMessage', { to: 'nobody', message: 'hi' })]);
  expect(result!.is_error).toBe(true);
  expect(contentToText(result!.content)).toContain('No background agent "nobody". Running agents: sleeper.');
});

test('a broken agent file is reported with file and key and skipped; the others load and are listed', async () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'agent-files-'));
  mkdirSync(path.join(cwd, '.claude', 'agents'), { recursive: true });
  mkdirSync(path.join(cwd, '.toolshed', 'agents'), { recursive: true });
  writeFileSync(
    path.join(cwd, '.claude', 'agents', 'reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews diffs for bugs\ntools: Echo, Grep\nmodel: haiku\n---\nYou review diffs.\n',
  );
  writeFileSync(
    path.join(cwd, '.toolshed', 'agents', 'broken.md'),
    '---\nname: broken\ndescription: Breaks\npermissionMode: yolo\n---\nBody\n',
  );
  writeFileSync(path.join(cwd, '.toolshed', 'agents', 'bad-yaml.md'), '---\nname: [unclosed\n---\nBody\n');
  await setup({ cwd, script: () => text('x') });
  const notices = session!.notices().map((n) => n.message);
  expect(
    notices.some(
      (m) => m.includes('broken.md') && m.includes('"permissionMode" is "yolo"') && m.includes('use one of'),
    ),
  ).toBe(true);
  expect(notices.some((m) => m.includes('bad-yaml.md') && m.includes('not valid YAML'))).toBe(true);
  const description = session!.catalog().find((e) => e.name === 'Agent')!.description;
  expect(description).toContain('- reviewer: Reviews diffs for bugs (Tools: Echo, Grep)');
  expect(description).not.toContain('broken');
  const out = await callAgent({ subagent_type: 'broken' });
  expect(out.text).toContain('No agent type "broken"');
});

test('Task is an alias of Agent', async () => {
  await setup({ script: () => text('aliased') });
  const [result] = await session!.run([use('t', 'Task', { description: 'x', prompt: 'y', subagent_type: 'Plan' })]);
  expect(contentToText(result!.content)).toMatch(/^aliased/);
});

test('a deny rule naming an agent type stops that type only', async () => {
  await setup({ permissions: { deny: ['Agent(Explore)'] }, script: () => text('ran') });
  expect((await callAgent({ subagent_type: 'Explore' })).isError).toBe(true);
  expect((await callAgent({ subagent_type: 'Plan' }, 'ag2')).text).toMatch(/^ran/);
  expect(existsSync(session!.stateDir)).toBe(true);
});

test("an agent definition's model alias picks the model of the sub-agent's requests", async () => {
  await setup({
    agents: { quick: { description: 'quick', prompt: 'CHILD quick', model: 'haiku' } },
    script: () => text('fast'),
  });
  await callAgent({ subagent_type: 'quick' });
  expect(server!.requests[0]!.body.model).toBe('claude-haiku-5-5');
  await callAgent({ subagent_type: 'quick', model: 'claude-opus-5' }, 'ag2');
  expect(server!.requests[1]!.body.model).toBe('claude-opus-5');
});

test('SendMessage to "*" reaches every running background agent', async () => {
  await setup({ script: () => ({ content: [use('w1', 'Wait', {})] }) });
  await callAgent({ subagent_type: 'general-purpose', run_in_background: true, name: 'one' });
  await callAgent({ subagent_type: 'general-purpose', run_in_background: true, name: 'two' }, 'ag2');
  const [result] = await session!.run([
    use('s1', 'SendMessage', { to: '*', message: 'wrap up', summary: 'ask both to finish' }),
  ]);
  expect(result!.is_error).toBeUndefined();
  expect(contentToText(result!.content)).toMatch(
    /^Message queued for \* \(task agent_\S+, agent_\S+\); each reads it at its next turn\.$/,
  );
});

test('with isolation "worktree" the sub-agent\'s edits land in its own worktree, not in the main checkout', async () => {
  const { execFileSync } = await import('node:child_process');
  const { realpathSync } = await import('node:fs');
  const { z } = await import('zod');
  const { buildTool } = await import('@toolshed/core');
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-wt-')));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'a.txt'), 'main\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  // A file tool that allows itself only inside the working directories, as Write does in acceptEdits.
  const putTool = buildTool({
    name: 'Put',
    description: 'Writes a file',
    inputSchema: z.object({ file_path: z.string(), text: z.string() }),
    resources: ({ file_path }, ctx) => [{ path: path.resolve(ctx.cwd, file_path), access: 'write' as const }],
    checkPermissions: () => ({ behavior: 'allow' }),
    async call({ file_path, text: body }, ctx) {
      writeFileSync(path.resolve(ctx.cwd, file_path), body);
      return { data: `wrote ${path.resolve(ctx.cwd, file_path)}` };
    },
  });
  server = await startFakeModelServer((r) =>
    lastUserText(r).includes('tool_result')
      ? text('edited a.txt')
      : { content: [use('p1', 'Put', { file_path: 'a.txt', text: 'agent\n' })] },
  );
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  session = await createSession({
    cwd: repo,
    stateDir: path.join(repo, '..', `${path.basename(repo)}-state`),
    families: [agentTools({ agents: {}, model, homeDir: repo, agentFiles: [] })],
    tools: [putTool],
  });
  const out = await callAgent({ subagent_type: 'general-purpose', isolation: 'worktree' });
  expect(out.isError).toBe(false);
  const worktree = /in the worktree (\S+) on branch (\S+)/.exec(out.text);
  expect(worktree).not.toBeNull();
  expect(readFileSync(path.join(worktree![1]!, 'a.txt'), 'utf8')).toBe('agent\n');
  expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('main\n');
  expect(git('branch', '--list', '--format=%(refname:short)', worktree![2]!).trim()).toBe(worktree![2]);
  // The worktree outlives the session, for the user to review and merge.
  await session.close();
  session = undefined;
  expect(existsSync(worktree![1]!)).toBe(true);
});

/** A repository with one commit and a post-checkout hook that leaves a mark when git runs it. */
async function repoWithHook(): Promise<{ repo: string; mark: string }> {
  const { execFileSync } = await import('node:child_process');
  const { realpathSync } = await import('node:fs');
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-wt-hook-')));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'a.txt'), 'main\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  const mark = `${repo}-hook-ran`;
  writeFileSync(path.join(repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${mark}\n`, { mode: 0o755 });
  return { repo, mark };
}

async function worktreeSession(repo: string, mode: 'plan' | 'default') {
  server = await startFakeModelServer(() => text('done'));
  const model = anthropicModel({
    client: new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    model: 'claude-test',
  });
  session = await createSession({
    cwd: repo,
    stateDir: `${repo}-state`,
    trustedProject: false,
    families: [agentTools({ agents: {}, model, homeDir: repo, agentFiles: [] })],
    permissions: { mode },
  });
}

test('in plan mode, Agent with isolation "worktree" makes no worktree and runs no git', async () => {
  const { repo, mark } = await repoWithHook();
  await worktreeSession(repo, 'plan');
  const out = await callAgent({ subagent_type: 'Explore', isolation: 'worktree' });
  expect(out.isError).toBe(true);
  expect(out.text).toContain('plan mode');
  expect(existsSync(path.join(`${repo}-state`, 'worktrees'))).toBe(false);
  expect(existsSync(mark)).toBe(false);
});

test('Agent with isolation "worktree" in an untrusted project runs none of the repository\'s hooks', async () => {
  const { repo, mark } = await repoWithHook();
  await worktreeSession(repo, 'default');
  const out = await callAgent({ subagent_type: 'general-purpose', isolation: 'worktree' });
  expect(out.isError).toBe(false);
  expect(out.text).toMatch(/in the worktree \S+ on branch toolshed\//);
  expect(existsSync(mark)).toBe(false);
});

test('a sub-agent started after EnterPlanMode is in plan mode too: its writes do not run', async () => {
  await setup({
    script: (r) =>
      lastUserText(r).includes('tool_result')
        ? text('tried')
        : { content: [use('n1', 'Note', { text: 'written in plan mode' })] },
    permissions: { mode: 'acceptEdits', allow: ['Note'] },
  });
  const [entered] = await session!.run([use('e1', 'EnterPlanMode', {})]);
  expect(entered!.is_error).not.toBe(true);
  const out = await callAgent({ subagent_type: 'general-purpose' });
  expect(out.isError).toBe(false);
  expect(notes).toEqual([]);
});
