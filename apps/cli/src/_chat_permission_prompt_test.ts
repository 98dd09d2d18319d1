import { PassThrough } from 'node:stream';
import { expect, test } from 'vitest';
import type { CliIo } from './cli_io.ts';
import type { Prompter } from './_prompter.ts';
import { askInChat } from './_chat_permission_prompt.ts';

/** A prompter that gives the answers it was handed, in order, and records the questions. */
function answering(answers: string[]): Prompter & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    async ask(question) {
      questions.push(question);
      return answers.shift();
    },
    close() {},
  };
}

function io(): CliIo & { written: string[] } {
  const written: string[] = [];
  const sink = { write: (text: string) => written.push(text) };
  return { stdout: sink, stderr: sink, stdin: new PassThrough(), isTTY: true, written } as CliIo & {
    written: string[];
  };
}

const options = (suggestions: string[]) => ({
  signal: new AbortController().signal,
  suggestions,
  toolUseId: 't1',
  reason: 'No rule allows Bash with this input',
});

test('"always" for one part of a call does not allow a later call that adds another part', async () => {
  const prompter = answering(['a', 'n']);
  const always = new Set<string>();
  const ask = askInChat({ prompter, io: io(), always, getSession: () => undefined });
  // npm test, allowed always.
  expect(await ask('Bash', { command: 'npm test' }, options(['Bash(npm test:*)']))).toEqual({ behavior: 'allow' });
  // npm test && rm -rf build needs two rules; only the first was remembered: it asks, and is denied.
  const second = await ask(
    'Bash',
    { command: 'npm test && rm -rf build' },
    options(['Bash(npm test:*)', 'Bash(rm -rf build)']),
  );
  expect(second.behavior).toBe('deny');
  expect(prompter.questions).toHaveLength(2);
  expect(prompter.questions[1]).toContain('[a] always allow Bash(npm test:*) Bash(rm -rf build)');
});

test('"always" remembers every rule of the call, so the same call is then allowed without asking', async () => {
  const prompter = answering(['a']);
  const always = new Set<string>();
  const ask = askInChat({ prompter, io: io(), always, getSession: () => undefined });
  const rules = ['Bash(npm test:*)', 'Bash(rm -rf build)'];
  expect(await ask('Bash', { command: 'npm test && rm -rf build' }, options(rules))).toEqual({ behavior: 'allow' });
  expect([...always]).toEqual(rules);
  expect(await ask('Bash', { command: 'npm test && rm -rf build' }, options(rules))).toEqual({ behavior: 'allow' });
  expect(prompter.questions).toHaveLength(1);
});

test('a call with no suggested rule always asks, and "always" is not offered', async () => {
  const prompter = answering(['a']);
  const ask = askInChat({ prompter, io: io(), always: new Set(['Bash']), getSession: () => undefined });
  expect((await ask('Bash', { command: 'rm -rf /' }, options([]))).behavior).toBe('deny');
  expect(prompter.questions[0]).not.toContain('always');
});

test('the chat prompt shows escape codes of the reason and the rules escaped, so they cannot rewrite the question', async () => {
  const prompter = answering(['n']);
  const out = io();
  const ask = askInChat({ prompter, io: out, always: new Set(), getSession: () => undefined });
  await ask(
    'Bash',
    { command: 'x' },
    {
      ...options(['Bash(rm -rf ~ \u001b[2K\rgit status)']),
      reason: 'No rule allows it\u001b[1A\u001b[2K\u009b1A',
    },
  );
  const shown = out.written.join('') + prompter.questions.join('');
  expect(shown).toContain('\\u001b[1A\\u001b[2K\\u009b1A');
  expect(shown).toContain('rm -rf ~ \\u001b[2K\\u000dgit status');
  expect(shown).not.toMatch(/[\u001b\u009b\r]/);
});
