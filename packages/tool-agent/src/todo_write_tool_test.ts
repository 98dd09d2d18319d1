import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { contentToText, createSession, defineFamily, type Session } from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { createTodoWriteTool, renderChecklist } from './todo_write_tool.ts';

let dir: string;
const sessions: Session[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-todo-'));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function open(todos: ReturnType<typeof createTodoWriteTool>, mode?: 'plan') {
  const session = await createSession({ cwd: dir, tools: [todos.tool], ...(mode ? { permissions: { mode } } : {}) });
  sessions.push(session);
  return async (list: unknown[]) => {
    const [result] = await session.run([
      { type: 'tool_use', id: `t${Math.random()}`, name: 'TodoWrite', input: { todos: list } },
    ]);
    return { text: contentToText(result!.content), isError: result!.is_error === true, session };
  };
}

test('TodoWrite passes the conformance check', async () => {
  expect(
    await checkFamily(defineFamily({ name: 'todo', version: '0.0.0', tools: [createTodoWriteTool().tool] })),
  ).toEqual([]);
});

test('each call replaces the list, and the result says what changed', async () => {
  const todos = createTodoWriteTool();
  const write = await open(todos);
  const first = await write([
    { content: 'Read the bug report', status: 'in_progress', activeForm: 'Reading the bug report' },
    { content: 'Fix the parser', status: 'pending', activeForm: 'Fixing the parser' },
  ]);
  expect(first.text).toContain(
    '(0/2 completed): added "Read the bug report" (in_progress); added "Fix the parser" (pending)',
  );
  const second = await write([
    { content: 'Read the bug report', status: 'completed', activeForm: 'Reading the bug report' },
    { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
    { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
  ]);
  expect(second.text).toContain(
    '(1/3 completed): "Read the bug report" in_progress → completed; "Fix the parser" pending → in_progress; added "Run the tests" (pending)',
  );
  const third = await write([
    { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
    { content: 'Ship', status: 'in_progress', activeForm: 'Shipping' },
  ]);
  expect(third.text).toContain('removed "Read the bug report"; removed "Fix the parser"');
  expect(third.text).toContain('2 items are in progress; keep one at a time');
  expect(todos.current(second.session.id).map((t) => t.content)).toEqual(['Run the tests', 'Ship']);
  expect(renderChecklist(todos.current(second.session.id))).toBe('[~] Running the tests\n[~] Shipping');
});

test('lists are kept per session, run in plan mode without asking, and go away on close', async () => {
  const todos = createTodoWriteTool();
  const a = await open(todos, 'plan');
  const b = await open(todos);
  const ra = await a([{ content: 'A', status: 'pending', activeForm: 'Doing A' }]);
  expect(ra.isError).toBe(false);
  const rb = await b([{ content: 'B', status: 'completed', activeForm: 'Doing B' }]);
  expect(todos.current(ra.session.id).map((t) => t.content)).toEqual(['A']);
  expect(todos.current(rb.session.id).map((t) => t.content)).toEqual(['B']);
  expect(renderChecklist(todos.current(rb.session.id))).toBe('[x] B');
  await ra.session.close();
  expect(todos.current(ra.session.id)).toEqual([]);
});

test('a bad item is refused naming the field', async () => {
  const write = await open(createTodoWriteTool());
  const bad = await write([{ content: 'A', status: 'done', activeForm: 'Doing A' }]);
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain('status');
});
