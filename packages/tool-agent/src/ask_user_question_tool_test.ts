import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  askUserKey,
  contentToText,
  createSession,
  defineFamily,
  type AskUser,
  type AskUserRequest,
  type Session,
} from '@toolshed/core';
import { checkFamily } from '@toolshed/core/testing';
import { askUserQuestionTool } from './ask_user_question_tool.ts';

let dir: string;
let session: Session | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-ask-'));
});
afterEach(async () => {
  await session?.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

const questions = [
  {
    question: 'Which database should the service use?',
    header: 'Database',
    options: [
      { label: 'PostgreSQL', description: 'Relational' },
      { label: 'SQLite', description: 'One file' },
    ],
  },
  {
    question: 'Which checks should CI run?',
    header: 'CI',
    multiSelect: true,
    options: [
      { label: 'lint', description: 'oxlint' },
      { label: 'test', description: 'vitest' },
      { label: 'bench', description: 'quick' },
    ],
  },
];

async function ask(askUser: AskUser | undefined, input: unknown = { questions }) {
  session = await createSession({
    cwd: dir,
    tools: [askUserQuestionTool],
    ...(askUser ? { services: [[askUserKey, askUser]] } : {}),
  });
  const [result] = await session.run([{ type: 'tool_use', id: 'q1', name: 'AskUserQuestion', input }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

test('AskUserQuestion passes the conformance check and is never concurrency-safe', async () => {
  expect(await checkFamily(defineFamily({ name: 'ask', version: '0.0.0', tools: [askUserQuestionTool] }))).toEqual([]);
  expect(askUserQuestionTool.isConcurrencySafe({ questions: [] } as never)).toBe(false);
});

test("the questions reach the askUser service as one form, and the answers (picked or in the user's words) reach the model", async () => {
  const seen: AskUserRequest[] = [];
  const result = await ask({
    ask: async (request) => {
      seen.push(request);
      return { action: 'accept', content: { q1: 'SQLite', q2: ['lint', 'test'], q2_other: '' } };
    },
  });
  expect(result.isError).toBe(false);
  expect(result.text).toContain('- "Which database should the service use?" → SQLite');
  expect(result.text).toContain('- "Which checks should CI run?" → lint, test');
  const schema = seen[0]!.schema as {
    properties: Record<string, { enum?: string[]; items?: { enum: string[] }; title: string }>;
  };
  expect(seen[0]!.source).toBe('AskUserQuestion');
  expect(schema.properties['q1']).toMatchObject({ title: 'Database', enum: ['PostgreSQL', 'SQLite'] });
  expect(schema.properties['q2']!.items!.enum).toEqual(['lint', 'test', 'bench']);
  const own = await ask({
    ask: async () => ({ action: 'accept', content: { q1: 'PostgreSQL', q1_other: 'MariaDB, we run it already' } }),
  });
  expect(own.text).toContain('→ MariaDB, we run it already');
  expect(own.text).toContain('"Which checks should CI run?" → (no answer)');
});

test('with no one to ask, or a declined or closed form, the result is an error that says so', async () => {
  expect((await ask(undefined)).text).toContain('There is no one to ask in this session');
  const declined = await ask({ ask: async () => ({ action: 'decline' }) });
  expect(declined.isError).toBe(true);
  expect(declined.text).toContain('declined to answer');
  expect((await ask({ ask: async () => ({ action: 'cancel' }) })).text).toContain(
    'closed the questions without answering',
  );
});

test('bad input is refused naming the field: too many options, a long header, no questions', async () => {
  const five = Array.from({ length: 5 }, (_, i) => ({ label: `o${i}`, description: 'd' }));
  expect(
    (
      await ask(
        { ask: async () => ({ action: 'decline' }) },
        { questions: [{ question: 'Q?', header: 'H', options: five }] },
      )
    ).text,
  ).toContain('options');
  expect(
    (
      await ask(
        { ask: async () => ({ action: 'decline' }) },
        { questions: [{ question: 'Q?', header: 'A very long header', options: five.slice(0, 2) }] },
      )
    ).text,
  ).toContain('header');
  expect((await ask({ ask: async () => ({ action: 'decline' }) }, { questions: [] })).text).toContain('questions');
});
