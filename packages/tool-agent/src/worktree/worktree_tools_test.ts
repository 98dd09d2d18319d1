import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { buildTool, contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { createWorktreeTools } from './worktree_tools.ts';

let repo: string;
let state: string;
let session: Session | undefined;
const sh = (args: string[], cwd = repo) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });

beforeEach(async () => {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-wt-')));
  repo = path.join(root, 'repo');
  state = path.join(root, 'state');
  execFileSync('mkdir', ['-p', repo]);
  sh(['init', '-q', '-b', 'main']);
  await writeFile(path.join(repo, 'a.txt'), 'main\n');
  sh(['add', '.']);
  sh(['commit', '-q', '-m', 'first']);
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await rm(path.dirname(repo), { recursive: true, force: true });
});

const editTool = buildTool({
  name: 'Edit',
  description: 'Writes text to a file',
  inputSchema: z.object({ file_path: z.string(), text: z.string() }),
  resources: ({ file_path }, ctx) => [{ path: path.resolve(ctx.cwd, file_path), access: 'write' as const }],
  async call({ file_path, text }, ctx) {
    await writeFile(path.resolve(ctx.cwd, file_path), text);
    return { data: `wrote ${path.resolve(ctx.cwd, file_path)}` };
  },
});

async function call(name: string, input: unknown): Promise<{ text: string; isError: boolean }> {
  const [result] = await session!.run([{ type: 'tool_use', id: `t${Math.random()}`, name, input }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

describe('worktrees', () => {
  test('the tools pass the conformance check', async () => {
    expect(await checkFamily(defineFamily({ name: 'wt', version: '0.0.0', tools: createWorktreeTools() }))).toEqual([]);
  });

  test('edits after EnterWorktree land in the worktree, not the main checkout; remove refuses unsaved work unless told', async () => {
    session = await createSession({
      cwd: repo,
      stateDir: state,
      tools: [...createWorktreeTools(), editTool],
      permissions: { mode: 'acceptEdits', allow: ['EnterWorktree', 'ExitWorktree'] },
    });
    const entered = await call('EnterWorktree', { name: 'fix' });
    expect(entered.isError).toBe(false);
    const worktree = path.join(state, 'worktrees', 'fix');
    expect(entered.text).toContain(`Created the worktree ${worktree} on branch toolshed/fix`);
    expect((await call('Edit', { file_path: 'a.txt', text: 'worktree\n' })).text).toBe(
      `wrote ${path.join(worktree, 'a.txt')}`,
    );
    expect(await readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('main\n');
    expect(await readFile(path.join(worktree, 'a.txt'), 'utf8')).toBe('worktree\n');
    // The main checkout is no longer a working directory: an edit there is not auto-allowed.
    expect((await call('Edit', { file_path: path.join(repo, 'a.txt'), text: 'x\n' })).isError).toBe(true);
    expect((await call('EnterWorktree', { name: 'again' })).text).toContain('already in the worktree');

    const refused = await call('ExitWorktree', { action: 'remove' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('1 uncommitted file');
    expect(existsSync(worktree)).toBe(true);

    sh(['commit', '-qam', 'in worktree'], worktree);
    expect((await call('ExitWorktree', { action: 'remove' })).text).toContain('1 new commit on toolshed/fix');
    const removed = await call('ExitWorktree', { action: 'remove', discard_changes: true });
    expect(removed.text).toContain(`the session is back in ${repo}`);
    expect(existsSync(worktree)).toBe(false);
    expect(sh(['branch', '--list', 'toolshed/fix'])).toBe('');
    expect((await call('Edit', { file_path: 'a.txt', text: 'back\n' })).isError).toBe(false);
    expect(await readFile(path.join(repo, 'a.txt'), 'utf8')).toBe('back\n');
  });

  test('keep leaves the worktree and branch; outside a repository or a worktree the tools say so', async () => {
    session = await createSession({
      cwd: repo,
      stateDir: state,
      tools: createWorktreeTools(),
      permissions: { allow: ['EnterWorktree', 'ExitWorktree'] },
    });
    expect((await call('ExitWorktree', { action: 'keep' })).text).toContain('not in a worktree made by EnterWorktree');
    await call('EnterWorktree', { name: 'keepme' });
    expect((await call('ExitWorktree', { action: 'keep' })).text).toContain('The work stays in');
    expect(sh(['branch', '--list', '--format=%(refname:short)', 'toolshed/keepme']).trim()).toBe('toolshed/keepme');
    expect(existsSync(path.join(state, 'worktrees', 'keepme'))).toBe(true);
    const plain = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-nogit-')));
    const other = await createSession({
      cwd: plain,
      tools: createWorktreeTools(),
      permissions: { allow: ['EnterWorktree'] },
    });
    const [r] = await other.run([{ type: 'tool_use', id: 'x', name: 'EnterWorktree', input: {} }]);
    expect(contentToText(r!.content)).toContain('is not inside a git repository');
    await other.close();
    await rm(plain, { recursive: true, force: true });
  });

  test('EnterWorktree is not allowed without a rule or an approval', async () => {
    session = await createSession({ cwd: repo, stateDir: state, tools: createWorktreeTools() });
    const r = await call('EnterWorktree', { name: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('EnterWorktree');
    expect(existsSync(path.join(state, 'worktrees', 'x'))).toBe(false);
  });
});

describe('worktrees of an untrusted project', () => {
  // A repository unpacked from an archive may carry its own hooks and config: git runs them on a
  // checkout (post-checkout, a smudge filter) or a status (core.fsmonitor).
  async function plantPrograms(): Promise<string> {
    const marks = path.join(path.dirname(repo), 'marks');
    execFileSync('mkdir', ['-p', marks]);
    const script = (name: string, body = '') => `#!/bin/sh\ntouch ${path.join(marks, name)}\n${body}`;
    await writeFile(path.join(repo, 'smudge.sh'), script('smudge', 'cat\n'), { mode: 0o755 });
    await writeFile(path.join(repo, 'fsmonitor.sh'), script('fsmonitor'), { mode: 0o755 });
    await writeFile(path.join(repo, '.gitattributes'), '*.txt filter=evil\n');
    sh(['add', '.']);
    sh(['commit', '-q', '-m', 'attributes']);
    await writeFile(path.join(repo, '.git', 'hooks', 'post-checkout'), script('post-checkout'), { mode: 0o755 });
    await writeFile(path.join(repo, '.git', 'hooks', 'reference-transaction'), script('reference-transaction'), {
      mode: 0o755,
    });
    sh(['config', 'filter.evil.smudge', path.join(repo, 'smudge.sh')]);
    sh(['config', 'filter.evil.required', 'true']);
    sh(['config', 'core.fsmonitor', path.join(repo, 'fsmonitor.sh')]);
    return marks;
  }
  const ran = async (marks: string) => (await import('node:fs/promises')).readdir(marks);

  test("EnterWorktree and ExitWorktree run none of an untrusted repository's hooks, filters or fsmonitor", async () => {
    const marks = await plantPrograms();
    session = await createSession({
      cwd: repo,
      stateDir: state,
      trustedProject: false,
      tools: createWorktreeTools(),
      permissions: { allow: ['EnterWorktree', 'ExitWorktree'] },
    });
    const entered = await call('EnterWorktree', { name: 'safe' });
    expect(entered.isError).toBe(false);
    expect(await readFile(path.join(state, 'worktrees', 'safe', 'a.txt'), 'utf8')).toBe('main\n');
    expect(await ran(marks)).toEqual([]);
    const left = await call('ExitWorktree', { action: 'remove' });
    expect(await ran(marks)).toEqual([]);
    expect(left.text).toContain('Removed the worktree');
  });

  test("in a trusted project the repository's hooks run, as git runs them", async () => {
    const marks = await plantPrograms();
    sh(['config', '--unset', 'filter.evil.required']);
    session = await createSession({
      cwd: repo,
      stateDir: state,
      trustedProject: true,
      tools: createWorktreeTools(),
      permissions: { allow: ['EnterWorktree'] },
    });
    expect((await call('EnterWorktree', { name: 'hooks' })).isError).toBe(false);
    expect(await ran(marks)).toContain('post-checkout');
  });
});

test("ExitWorktree remove refuses to delete the worktree's branch when it holds commits HEAD no longer shows", async () => {
  session = await createSession({
    cwd: repo,
    stateDir: state,
    tools: createWorktreeTools(),
    permissions: { allow: ['EnterWorktree', 'ExitWorktree'] },
  });
  expect((await call('EnterWorktree', { name: 'work' })).isError).toBe(false);
  const worktree = path.join(state, 'worktrees', 'work');
  await writeFile(path.join(worktree, 'a.txt'), 'precious\n');
  sh(['commit', '-qam', 'precious work'], worktree);
  // Back to where it started, detached: the worktree is clean and HEAD holds no new commit.
  sh(['checkout', '-q', '--detach', 'HEAD~1'], worktree);
  const refused = await call('ExitWorktree', { action: 'remove' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain('1 new commit on toolshed/work');
  expect(sh(['log', '--format=%s', '-1', 'toolshed/work'])).toBe('precious work\n');
});
