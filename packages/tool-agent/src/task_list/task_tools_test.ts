import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { taskListFolder } from './task_list_location.ts';
import { taskListTools } from './task_tools.ts';

const WORKER = fileURLToPath(new URL('./testdata/task_worker.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/tsx/dist/esm/index.mjs', import.meta.url));

let root: string;
let session: Session;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolshed-tasks-'));
  session = await createSession({
    cwd: root,
    tools: taskListTools({ tasksDir: path.join(root, 'tasks'), taskListId: 'list', staleMs: 2000 }),
  });
});
afterEach(async () => {
  await session.close();
  await rm(root, { recursive: true, force: true });
});

async function call(name: string, input: unknown): Promise<{ text: string; isError: boolean }> {
  const [result] = await session.run([{ type: 'tool_use', id: `t_${name}`, name, input }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

interface WorkerRun {
  child: ReturnType<typeof spawn>;
  /** The n-th JSON line the worker printed (0-based). */
  line(n?: number): Promise<Record<string, unknown>>;
}

function worker(...args: string[]): WorkerRun {
  const child = spawn(
    process.execPath,
    ['--conditions=@toolshed/source', '--import', TSX, WORKER, path.join(root, 'tasks'), 'list', ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  let exited: number | null | undefined;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), wake()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  child.on('exit', (code) => ((exited = code), wake()));
  return {
    child,
    async line(n = 0) {
      for (;;) {
        const lines = out.split('\n');
        if (lines.length > n + 1) return JSON.parse(lines[n]!) as Record<string, unknown>;
        if (exited !== undefined) throw new Error(`worker exited ${exited} before line ${n}: ${out}${err}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe('the task list tools', () => {
  test('each tool passes the conformance check', async () => {
    expect(await checkFamily(defineFamily({ name: 'tasks', version: '0.0.0', tools: taskListTools() }))).toEqual([]);
  });

  test('TaskCreate numbers tasks, TaskList shows status, owner and open blockers, TaskGet shows one', async () => {
    expect((await call('TaskCreate', { subject: 'Write the parser', description: 'in src/parse.ts' })).text).toBe(
      'Task #1 created successfully: Write the parser',
    );
    await call('TaskCreate', {
      subject: 'Test the parser',
      description: 'parse_test.ts',
      activeForm: 'Testing the parser',
    });
    expect((await call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] })).isError).toBe(false);
    await call('TaskUpdate', { taskId: '1', owner: 'ada', status: 'in_progress' });
    expect((await call('TaskList', {})).text).toBe(
      '#1 [in_progress] Write the parser (owner: ada)\n#2 [pending] Test the parser [blocked by #1]',
    );
    const got = await call('TaskGet', { taskId: '#2' });
    expect(got.text).toContain(
      'Task #2: Test the parser\nStatus: pending\nActive form: Testing the parser\nBlocked by: #1',
    );
    // Both sides of the link were written.
    expect((await call('TaskGet', { taskId: '1' })).text).toContain('Blocks: #2');
    await call('TaskUpdate', { taskId: '1', status: 'completed' });
    expect((await call('TaskList', {})).text).toBe(
      '#1 [completed] Write the parser (owner: ada)\n#2 [pending] Test the parser',
    );
  });

  test('a task blocked by an open task cannot be claimed, and the refusal names the blocker', async () => {
    await call('TaskCreate', { subject: 'Migrate the database', description: 'x' });
    await call('TaskCreate', { subject: 'Deploy', description: 'y' });
    await call('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] });
    const refused = await call('TaskUpdate', { taskId: '2', owner: 'bob', status: 'in_progress' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Task #2 is blocked by open tasks: #1 "Migrate the database" (pending)');
    expect((await call('TaskGet', { taskId: '2' })).text).not.toContain('Owner');
    await call('TaskUpdate', { taskId: '1', status: 'completed' });
    expect((await call('TaskUpdate', { taskId: '2', owner: 'bob', status: 'in_progress' })).isError).toBe(false);
  });

  test('claiming says exactly why it failed: claimed by another owner, already completed, unknown id', async () => {
    await call('TaskCreate', { subject: 'A', description: 'a' });
    await call('TaskCreate', { subject: 'B', description: 'b' });
    await call('TaskUpdate', { taskId: '1', owner: 'ada' });
    expect((await call('TaskUpdate', { taskId: '1', owner: 'bob' })).text).toContain(
      'Task #1 is already claimed by ada',
    );
    expect((await call('TaskUpdate', { taskId: '1', owner: 'ada', status: 'in_progress' })).isError).toBe(false);
    await call('TaskUpdate', { taskId: '2', status: 'completed' });
    expect((await call('TaskUpdate', { taskId: '2', owner: 'bob' })).text).toContain('Task #2 is already completed');
    const missing = await call('TaskUpdate', { taskId: '9', status: 'completed' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Task #9 was not found. The list has #1, #2.');
    expect((await call('TaskUpdate', { taskId: '1', addBlocks: ['1'] })).text).toContain('cannot block itself');
  });

  test('deleted ids are never reused, and links to a deleted task are removed', async () => {
    await call('TaskCreate', { subject: 'A', description: 'a' });
    await call('TaskCreate', { subject: 'B', description: 'b' });
    await call('TaskUpdate', { taskId: '1', addBlocks: ['2'] });
    expect((await call('TaskUpdate', { taskId: '2', status: 'deleted' })).text).toBe('Task #2 deleted.');
    expect((await call('TaskGet', { taskId: '1' })).text).not.toContain('Blocks');
    expect((await call('TaskCreate', { subject: 'C', description: 'c' })).text).toBe('Task #3 created successfully: C');
  });

  test('a corrupt task file is reported and left byte for byte as it was', async () => {
    await call('TaskCreate', { subject: 'A', description: 'a' });
    const file = path.join(root, 'tasks', 'list', '2.json');
    await writeFile(file, '{"id": "2", "subject": tru');
    const list = await call('TaskList', {});
    expect(list.text).toContain('#1 [pending] A');
    expect(list.text).toContain(`#2 [unreadable] Task #2's file ${file} is not valid JSON`);
    const update = await call('TaskUpdate', { taskId: '2', status: 'completed' });
    expect(update.isError).toBe(true);
    expect(update.text).toContain('it was left as it is');
    expect((await call('TaskGet', { taskId: '2' })).isError).toBe(true);
    expect((await call('TaskUpdate', { taskId: '1', addBlocks: ['2'] })).isError).toBe(true);
    // A new task does not take the corrupt file's id.
    expect((await call('TaskCreate', { subject: 'B', description: 'b' })).text).toBe('Task #3 created successfully: B');
    expect(await readFile(file, 'utf8')).toBe('{"id": "2", "subject": tru');
  });

  test('the list folder is private to the user and task files are 0600', async () => {
    await call('TaskCreate', { subject: 'A', description: 'a' });
    const dir = path.join(root, 'tasks', 'list');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dir, '1.json'))).mode & 0o777).toBe(0o600);
  });
});

describe('the task list across processes', () => {
  test('eight processes claim the same task at once: exactly one wins, the others are told who holds it', async () => {
    await call('TaskCreate', { subject: 'The one task', description: 'x' });
    const go = path.join(root, 'go');
    const runs = Array.from({ length: 8 }, (_, i) => worker('claim', '1', `agent-${i}`, go));
    await Promise.all(runs.map((r) => r.line(0)));
    await writeFile(go, '');
    const results = (await Promise.all(runs.map((r) => r.line(1)))) as unknown as { text: string; isError: boolean }[];
    const winners = results.filter((r) => !r.isError);
    expect(winners).toHaveLength(1);
    const owner = /owner/.test(winners[0]!.text)
      ? (await call('TaskGet', { taskId: '1' })).text.match(/Owner: (agent-\d)/)![1]
      : undefined;
    expect(owner).toBeDefined();
    for (const loser of results.filter((r) => r.isError))
      expect(loser.text).toContain(`Task #1 is already claimed by ${owner}`);
  }, 60_000);

  test('ids stay unique when several processes create tasks at once', async () => {
    const runs = Array.from({ length: 4 }, () => worker('create', '5'));
    const ids = (await Promise.all(runs.map((r) => r.line()))).flatMap((r) => r['ids'] as string[]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(ids.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  }, 60_000);

  test('the lock of a process that was killed while holding it is recovered', async () => {
    await mkdir(path.join(root, 'tasks', 'list'), { recursive: true });
    const holder = worker('hold');
    expect(await holder.line()).toEqual({ locked: true });
    holder.child.kill('SIGKILL');
    await new Promise((resolve) => holder.child.once('exit', resolve));
    // The lock folder is still there; once it is stale (2 s here) the next writer takes it over.
    await stat(path.join(root, 'tasks', 'list', '.lock'));
    expect((await call('TaskCreate', { subject: 'After the crash', description: 'x' })).text).toBe(
      'Task #1 created successfully: After the crash',
    );
  }, 30_000);
});

describe('taskListFolder', () => {
  test('one list per project by default, TOOLSHED_TASK_LIST_ID or the option to share one, ids sanitised', () => {
    const env = { HOME: '/home/me' };
    const a = taskListFolder('/work/app', { env: env });
    expect(a).toMatch(/^\/home\/me\/\.toolshed\/tasks\/app-[0-9a-f]{8}$/);
    expect(taskListFolder('/work/app', { env: env })).toBe(a);
    expect(taskListFolder('/other/app', { env: env })).not.toBe(a);
    expect(taskListFolder('/work/app', { env: { ...env, TOOLSHED_TASK_LIST_ID: 'release' } })).toBe(
      '/home/me/.toolshed/tasks/release',
    );
    expect(taskListFolder('/work/app', { taskListId: '../../etc', tasksDir: '/t', env: env })).toBe('/t/------etc');
    expect(() => taskListFolder('/w', { taskListId: '../..', env: env })).toThrow(/has no letters or digits/);
  });
});

describe('task files that are not what they seem', () => {
  test('a task file that is a FIFO, a link to a secret or a huge sparse file is reported, never read', async () => {
    const { execFileSync } = await import('node:child_process');
    const { symlink, truncate } = await import('node:fs/promises');
    const dir = path.join(root, 'tasks', 'list');
    expect((await call('TaskCreate', { subject: 'one', description: 'd' })).isError).toBe(false);
    execFileSync('mkfifo', [path.join(dir, '2.json')]);
    const secret = path.join(root, 'secret.txt');
    await writeFile(secret, '{"id":"3","subject":"SECRET-TOKEN-1234"');
    await symlink(secret, path.join(dir, '3.json'));
    await writeFile(path.join(dir, '4.json'), '');
    await truncate(path.join(dir, '4.json'), 3 * 1024 * 1024 * 1024);
    const fifo = await call('TaskGet', { taskId: '2' });
    expect(fifo.isError).toBe(true);
    expect(fifo.text).toContain('not a regular file');
    const link = await call('TaskGet', { taskId: '3' });
    expect(link.isError).toBe(true);
    expect(link.text).not.toContain('SECRET');
    expect(link.text).toContain('link');
    const huge = await call('TaskGet', { taskId: '4' });
    expect(huge.isError).toBe(true);
    expect(huge.text).toContain('over 1 MB');
    const list = await call('TaskList', {});
    expect(list.text).toContain('#1');
    expect(list.text).not.toContain('SECRET');
    // The ids stay unique: a new task takes none of the strange files' numbers.
    expect((await call('TaskCreate', { subject: 'five', description: 'd' })).text).toContain('#5');
  }, 10_000);
});
