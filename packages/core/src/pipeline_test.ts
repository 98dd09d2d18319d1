import { getEventListeners } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createSession } from './session.ts';
import { buildTool } from './tool.ts';
import { defineFamily } from './family.ts';
import { contentToText } from './blocks.ts';
import type { SessionEvent } from './session_types.ts';
import { bigTool, echoTool, failingTool, microtaskTurns, tempDir, use, writerTool } from './_test_tools.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const text = (r: { content: Parameters<typeof contentToText>[0] }) => contentToText(r.content);

describe('step 1: find', () => {
  test('an unknown tool gets "No such tool available" with the closest names', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const [result] = await session.run([use('t1', 'Eco', { text: 'x' })]);
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 't1', is_error: true });
    expect(text(result!)).toBe('No such tool available: Eco. Did you mean "Echo"?');
  });

  test('a deferred tool called before its schema was sent gets the input error and a hint to retry with the schema now loaded', async () => {
    const later = buildTool({
      name: 'Later',
      description: 'Counts.',
      inputSchema: z.strictObject({ count: z.number() }),
      shouldDefer: true,
      isReadOnly: () => true,
      call: async ({ count }) => ({ data: `counted ${count}` }),
    });
    const family = defineFamily({
      name: 'f',
      version: '1',
      tools: [echoTool, later],
      setup: (api) => api.setDeferralPolicy((cs) => new Set(cs.filter((x) => x.shouldDefer).map((x) => x.name))),
    });
    const session = await createSession({ cwd: dir, families: [family] });
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo']);
    // Without the schema a model guesses: a number written as a string.
    const [guessed] = await session.run([use('t1', 'Later', { count: '3' })]);
    expect(guessed!.is_error).toBe(true);
    expect(text(guessed!)).toMatch(/count/);
    expect(text(guessed!)).toContain(
      "Later's schema was not in your request (the tool was deferred); it is loaded now and in your next request: retry the call following it.",
    );
    expect(session.toolsFor('anthropic').map((t) => t.name)).toEqual(['Echo', 'Later']);
    const [again] = await session.run([use('t2', 'Later', { count: 'x' })]);
    expect(text(again!)).not.toContain('schema was not in your request');
    const [right] = await session.run([use('t3', 'Later', { count: 3 })]);
    expect(right).toMatchObject({ content: 'counted 3' });
  });

  test('a tool is found by its alias', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const [result] = await session.run([use('t1', 'Say', { text: 'hi' })]);
    expect(result).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'hi' });
  });
});

describe('step 2: parse', () => {
  test('each bad field is named: missing, wrong type, unexpected key', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const [missing, wrongType, extra] = await session.run([
      use('a', 'Echo', {}),
      use('b', 'Echo', { text: 5 }),
      use('c', 'Echo', { text: 'x', loud: true }),
    ]);
    expect(missing!.is_error).toBe(true);
    expect(text(missing!)).toContain('required parameter `text` is missing (expected string)');
    expect(text(wrongType!)).toContain('parameter `text` should be a string, got number 5');
    expect(text(extra!)).toContain('unexpected parameter `loud`');
  });

  test('an input that is not an object is refused in words', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const [result] = await session.run([use('a', 'Echo', 'hello')]);
    expect(text(result!)).toBe(
      'Invalid input for tool "Echo": expected a JSON object of parameters, got string "hello".',
    );
  });
});

describe('step 3: validate', () => {
  test("validateInput's message reaches the model", async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const [result] = await session.run([use('a', 'Echo', { text: 'forbidden' })]);
    expect(result).toMatchObject({
      is_error: true,
      content: 'The text "forbidden" is not allowed; send another text.',
    });
  });
});

describe('step 4: PreToolUse hooks', () => {
  test('a command hook that exits 2 blocks the call and its stderr reaches the model', async () => {
    const log: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      hooks: {
        PreToolUse: [
          { matcher: 'Writer', hooks: [{ type: 'command', command: 'echo "writes are frozen today" >&2; exit 2' }] },
        ],
      },
    });
    const [result] = await session.run([use('a', 'Writer', { line: 'x' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result!)).toContain('writes are frozen today');
    expect(log).toEqual([]);
  });

  test("a hook's updatedInput is parsed again, and an invalid one is refused", async () => {
    const log: string[] = [];
    const rewrite = (input: Record<string, unknown>) => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse' as const, updatedInput: input },
    });
    const good = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      hooks: { PreToolUse: [{ hooks: [() => rewrite({ line: 'rewritten' })] }] },
    });
    await good.run([use('a', 'Writer', { line: 'original' })]);
    expect(log).toEqual([`write rewritten in ${dir}`]);

    const bad = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      hooks: { PreToolUse: [{ hooks: [() => rewrite({ line: 42 })] }] },
    });
    const [result] = await bad.run([use('b', 'Writer', { line: 'original' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result!)).toContain('The input that a PreToolUse hook rewrote is not valid');
    expect(text(result!)).toContain('`line` should be a string');
    expect(log).toHaveLength(1);
  });

  test('a command hook receives the call as JSON on stdin, with the permission mode as Claude Code sends it', async () => {
    const out = path.join(dir, 'hook-input.json');
    const session = await createSession({
      cwd: dir,
      tools: [echoTool],
      sessionId: 'session-42',
      permissions: { mode: 'plan' },
      hooks: {
        PreToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: `cat > ${JSON.stringify(out)}` }] }],
      },
    });
    await session.run([use('t9', 'Echo', { text: 'hi' })]);
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual({
      session_id: 'session-42',
      cwd: dir,
      permission_mode: 'plan',
      hook_event_name: 'PreToolUse',
      tool_name: 'Echo',
      tool_input: { text: 'hi' },
      tool_use_id: 't9',
    });
  });
});

describe('step 5: permission', () => {
  test('a call that is not read-only is denied without canUseTool, naming the rule that would allow it', async () => {
    const log: string[] = [];
    const session = await createSession({ cwd: dir, tools: [writerTool(log)] });
    const [result] = await session.run([use('a', 'Writer', { line: 'x' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result!)).toContain('"Writer"');
    expect(log).toEqual([]);
  });

  test('a deny rule beats a hook that allows', async () => {
    const log: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { deny: ['Writer'], allow: ['Writer'] },
      hooks: { PreToolUse: [{ hooks: [() => ({ hookSpecificOutput: { permissionDecision: 'allow' as const } })] }] },
    });
    // A blanket deny removes the tool from the pool altogether.
    const [result] = await session.run([use('a', 'Writer', { line: 'x' })]);
    expect(text(result!)).toContain('No such tool available: Writer');
    expect(log).toEqual([]);
  });

  test('canUseTool is asked with suggestions, and its updatedInput is used', async () => {
    const log: string[] = [];
    const asked: unknown[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      canUseTool: async (toolName, input, { suggestions }) => {
        asked.push({ toolName, input, suggestions });
        return { behavior: 'allow', updatedInput: { line: 'approved' } };
      },
    });
    const [result] = await session.run([use('a', 'Writer', { line: 'x' })]);
    expect(result!.is_error).toBeUndefined();
    expect(asked).toEqual([{ toolName: 'Writer', input: { line: 'x' }, suggestions: ['Writer'] }]);
    expect(log).toEqual([`write approved in ${dir}`]);
  });

  test("canUseTool's deny message reaches the model", async () => {
    const log: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      canUseTool: async () => ({ behavior: 'deny', message: 'not on a Friday' }),
    });
    const [result] = await session.run([use('a', 'Writer', { line: 'x' })]);
    expect(result).toMatchObject({ is_error: true, content: 'Permission to use Writer was denied: not on a Friday' });
  });

  test('explain gives the decision without running the tool or its hooks', async () => {
    const log: string[] = [];
    const hookRuns: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      hooks: { PreToolUse: [{ hooks: [() => void hookRuns.push('ran')] }] },
    });
    const decision = await session.explain('Writer', { line: 'x' });
    expect(decision).toMatchObject({ behavior: 'allow', rule: 'Writer', source: 'options' });
    expect(log).toEqual([]);
    expect(hookRuns).toEqual([]);
  });
});

describe('step 6: call', () => {
  test('a thrown error becomes a one-line classified message without a stack', async () => {
    const session = await createSession({ cwd: dir, tools: [failingTool] });
    const [result] = await session.run([use('a', 'Fail', { path: '/nope' })]);
    expect(result).toMatchObject({
      is_error: true,
      content: "Fail failed: ENOENT: no such file or directory, open '/nope'",
    });
  });

  test('progress reported by a tool arrives as events before its result', async () => {
    const progressTool = buildTool({
      name: 'Progress',
      description: 'Reports two steps of progress.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async call(_input, _ctx, { onProgress }) {
        onProgress({ message: 'step 1' });
        onProgress({ message: 'step 2' });
        return { data: 'done' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [progressTool] });
    const events: SessionEvent[] = [];
    for await (const event of session.stream([use('p', 'Progress', {})])) events.push(event);
    expect(
      events
        .filter((e) => e.type === 'progress' || e.type === 'result')
        .map((e) => (e.type === 'progress' ? e.progress.message : e.type)),
    ).toEqual(['step 1', 'step 2', 'result']);
  });
});

describe('what a call costs', () => {
  test('a call whose tool and checks are synchronous goes through the seven steps in a dozen microtask turns: no step awaits what is not a promise', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool], permissions: { allow: ['Echo'] } });
    await session.run([use('warm', 'Echo', { text: 'x' })]);
    const run = session.run([use('a', 'Echo', { text: 'x' })]);
    expect(await microtaskTurns(run)).toBeLessThanOrEqual(12);
    expect(text((await run)[0]!)).toBe('x');
  });

  test('an asynchronous validateInput is still awaited, and its message reaches the model', async () => {
    const slowCheck = buildTool({
      name: 'SlowCheck',
      description: 'Checks its text later.',
      inputSchema: z.strictObject({ text: z.string() }),
      isReadOnly: () => true,
      validateInput: async ({ text }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return text === 'bad' ? { result: false, message: 'The text "bad" is refused.' } : { result: true };
      },
      async call({ text }) {
        return { data: text };
      },
    });
    const session = await createSession({ cwd: dir, tools: [slowCheck] });
    const [bad, good] = await session.run([
      use('b', 'SlowCheck', { text: 'bad' }),
      use('g', 'SlowCheck', { text: 'ok' }),
    ]);
    expect(bad).toMatchObject({ is_error: true, content: 'The text "bad" is refused.' });
    expect(good!.content).toBe('ok');
  });

  test('a cancellable call adds no abort listener to a turn that follows no signal, and one that cancels it to a turn that does', async () => {
    const listeners: number[] = [];
    const waiting = buildTool({
      name: 'Waiting',
      description: 'Counts the abort listeners of its signal, then waits for the signal or a short while.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      interruptBehavior: 'cancel',
      async call(_input, _ctx, { signal }) {
        await Promise.resolve();
        listeners.push(getEventListeners(signal, 'abort').length);
        await new Promise((resolve) => setTimeout(resolve, signal.aborted ? 0 : 200));
        return { data: 'waited' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [waiting] });
    expect(text((await session.run([use('a', 'Waiting', {})]))[0]!)).toBe('waited');
    const controller = new AbortController();
    const run = session.run([use('b', 'Waiting', {})], { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(text((await run)[0]!)).toBe(
      'Waiting was cancelled while it was running: the run was aborted. Nothing further was done for this call.',
    );
    expect(listeners).toEqual([0, 1]);
  });

  test('a run with no signal makes none for its calls (they share one), and a run with one gives its calls that one itself', async () => {
    const seen: AbortSignal[] = [];
    const probe = buildTool({
      name: 'Probe',
      description: 'Keeps the signal it is called with.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async call(_input, _ctx, { signal }) {
        seen.push(signal);
        return { data: '' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [probe] });
    await session.run([use('a', 'Probe', {})]);
    await session.run([use('b', 'Probe', {})]);
    const controller = new AbortController();
    await session.run([use('c', 'Probe', {})], { signal: controller.signal });
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]!.aborted).toBe(false);
    expect(seen[2]).toBe(controller.signal);
  });
});

describe('step 7: post', () => {
  test('an output over the limit is persisted whole and the model gets a preview with the path', async () => {
    const session = await createSession({ cwd: dir, tools: [bigTool], stateDir: path.join(dir, 'state') });
    const [result] = await session.run([use('big1', 'Big', { size: 120_000 })]);
    const preview = text(result!);
    const file = path.join(dir, 'state', 'tool-results', 'big1.txt');
    expect(preview).toContain(file);
    expect(preview.length).toBeLessThan(4_000);
    const whole = await readFile(file, 'utf8');
    expect(whole.length).toBe(120_000);
    expect(whole.startsWith('line 0 ')).toBe(true);
  });

  test('PostToolUse additionalContext and a block flag reach the model in the result', async () => {
    const session = await createSession({
      cwd: dir,
      tools: [echoTool],
      hooks: {
        PostToolUse: [
          {
            matcher: 'Echo',
            hooks: [
              {
                type: 'command',
                command: `echo '{"decision":"block","reason":"contains a secret","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"scanned by secret-scan"}}'`,
              },
            ],
          },
        ],
      },
    });
    const [result] = await session.run([use('a', 'Echo', { text: 'token=abc' })]);
    const out = text(result!);
    expect(out.startsWith('token=abc')).toBe(true);
    expect(out).toContain('flagged this result: contains a secret');
    expect(out).toContain('scanned by secret-scan');
  });

  test('a PostToolUse hook receives the tool_response', async () => {
    const out = path.join(dir, 'post.json');
    const session = await createSession({
      cwd: dir,
      tools: [echoTool],
      hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: `cat > ${JSON.stringify(out)}` }] }] },
    });
    await session.run([use('a', 'Echo', { text: 'hello' })]);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_response: 'hello',
    });
  });

  test('metrics count calls and errors per tool', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool, failingTool] });
    await session.run([use('a', 'Echo', { text: 'x' }), use('b', 'Echo', {}), use('c', 'Fail', { path: 'p' })]);
    const metrics = session.metrics();
    expect(metrics.tools['Echo']).toMatchObject({ calls: 2, errors: 1 });
    expect(metrics.tools['Fail']).toMatchObject({ calls: 1, errors: 1 });
    expect(metrics.total).toMatchObject({ calls: 3, errors: 2 });
  });
});

describe('the session never throws for model output', () => {
  test('garbage blocks each get an error result in order', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    const results = await session.run([
      use('a', 'Echo', null),
      { type: 'tool_use', id: 'b', name: 42, input: {} } as never,
      use('c', 'Echo', { text: 'ok' }),
    ]);
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
  });

  test('a closed session answers calls with an error', async () => {
    const session = await createSession({ cwd: dir, tools: [echoTool] });
    await session.close();
    const [result] = await session.run([use('a', 'Echo', { text: 'x' })]);
    expect(result).toMatchObject({ is_error: true, content: 'Echo was not run: the session is closed.' });
  });
});

test('the context a tool changes persists for later calls', async () => {
  const log: string[] = [];
  const sub = path.join(dir, 'sub');
  await writeFile(path.join(dir, 'marker'), '');
  const cdTool = buildTool({
    name: 'Cd',
    description: 'Changes the working directory.',
    inputSchema: z.strictObject({ to: z.string() }),
    async call({ to }) {
      return { data: `now in ${to}`, contextModifier: (ctx) => ({ ...ctx, cwd: to }) };
    },
  });
  const session = await createSession({
    cwd: dir,
    tools: [cdTool, writerTool(log)],
    permissions: { allow: ['Cd', 'Writer'] },
  });
  await session.run([use('a', 'Cd', { to: sub }), use('b', 'Writer', { line: '1' })]);
  await session.run([use('c', 'Writer', { line: '2' })]);
  expect(log).toEqual([`write 1 in ${sub}`, `write 2 in ${sub}`]);
  expect(session.cwd).toBe(sub);
});

test('a call that returns isError keeps its content, is marked is_error and runs PostToolUseFailure hooks', async () => {
  const seen: string[] = [];
  const failing = buildTool({
    name: 'SoftFail',
    description: 'Returns content that describes a failure.',
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    async call() {
      return {
        data: [
          { type: 'text' as const, text: 'exit status 3' },
          { type: 'text' as const, text: 'stderr: boom' },
        ],
        isError: true,
      };
    },
    mapResult: (blocks) => blocks,
  });
  const session = await createSession({
    cwd: dir,
    tools: [failing],
    hooks: {
      PostToolUse: [{ hooks: [() => void seen.push('post')] }],
      PostToolUseFailure: [{ hooks: [(input) => void seen.push(`failure: ${input.error}`)] }],
    },
  });
  const [result] = await session.run([use('f', 'SoftFail', {})]);
  expect(result).toEqual({
    type: 'tool_result',
    tool_use_id: 'f',
    is_error: true,
    content: [
      { type: 'text', text: 'exit status 3' },
      { type: 'text', text: 'stderr: boom' },
    ],
  });
  expect(seen).toEqual(['failure: exit status 3\nstderr: boom']);
  expect(session.metrics().tools['SoftFail']).toMatchObject({ calls: 1, errors: 1 });
});

/** Hooks with one PreToolUse function hook that decides the permission. */
function deciding(permissionDecision: 'allow' | 'deny' | 'ask', permissionDecisionReason: string) {
  return {
    PreToolUse: [
      {
        hooks: [
          () => ({
            hookSpecificOutput: { hookEventName: 'PreToolUse' as const, permissionDecision, permissionDecisionReason },
          }),
        ],
      },
    ],
  };
}

describe('failure paths not covered above', () => {
  test('a validateInput that throws is a one-line error result, and the tool is not called', async () => {
    const calls: string[] = [];
    const brittle = buildTool({
      name: 'Brittle',
      description: 'Its input check throws.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      validateInput: () => {
        throw new Error('lookup table missing\n    at check (brittle.js:1:1)');
      },
      async call() {
        calls.push('called');
        return { data: 'ran' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [brittle] });
    const [result] = await session.run([use('v', 'Brittle', {})]);
    expect(result).toMatchObject({
      is_error: true,
      content: 'Brittle could not check its input: lookup table missing',
    });
    expect(calls).toEqual([]);
  });

  test("a PreToolUse hook's deny decision refuses the call with the hook's reason", async () => {
    const log: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      hooks: deciding('deny', 'no writes on Fridays'),
    });
    const [result] = await session.run([use('d', 'Writer', { line: 'x' })]);
    expect(result!.is_error).toBe(true);
    expect(text(result!)).toContain('no writes on Fridays');
    expect(log).toEqual([]);
  });

  test("a PreToolUse hook's ask decision goes to canUseTool even for an allowed call", async () => {
    const log: string[] = [];
    const asked: string[] = [];
    const session = await createSession({
      cwd: dir,
      tools: [writerTool(log)],
      permissions: { allow: ['Writer'] },
      canUseTool: async (name, _input, { reason }) => {
        asked.push(`${name}: ${reason}`);
        return { behavior: 'deny', message: 'not this one' };
      },
      hooks: deciding('ask', 'double-check writes'),
    });
    const [result] = await session.run([use('q', 'Writer', { line: 'x' })]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('double-check writes');
    expect(text(result!)).toBe('Permission to use Writer was denied: not this one');
    expect(log).toEqual([]);
  });

  test('a tool whose isConcurrencySafe throws runs alone, not in the parallel batch, and still answers', async () => {
    const log: string[] = [];
    const odd = buildTool({
      name: 'Odd',
      description: 'Its concurrency check throws.',
      inputSchema: z.strictObject({ n: z.number() }),
      isReadOnly: () => true,
      isConcurrencySafe: () => {
        throw new Error('cannot tell');
      },
      async call({ n }) {
        log.push(`odd ${n}`);
        return { data: `odd ${n}` };
      },
    });
    const session = await createSession({ cwd: dir, tools: [odd, echoTool] });
    const results = await session.run([
      use('1', 'Echo', { text: 'a' }),
      use('2', 'Odd', { n: 2 }),
      use('3', 'Echo', { text: 'b' }),
    ]);
    expect(results.map((r) => [r.tool_use_id, r.content, r.is_error ?? false])).toEqual([
      ['1', 'a', false],
      ['2', 'odd 2', false],
      ['3', 'b', false],
    ]);
  });

  test('a contextModifier that throws is skipped with a notice in the stream, and the context is kept', async () => {
    const broken = buildTool({
      name: 'BadCd',
      description: 'Returns a context change that throws.',
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      async call() {
        return {
          data: 'done',
          contextModifier: () => {
            throw new Error('no such directory');
          },
        };
      },
    });
    const session = await createSession({ cwd: dir, tools: [broken, echoTool] });
    const events: SessionEvent[] = [];
    for await (const event of session.stream([use('m', 'BadCd', {}), use('e', 'Echo', { text: 'after' })]))
      events.push(event);
    const notice = events.find((e) => e.type === 'notice');
    expect(notice).toMatchObject({
      level: 'warn',
      message: "A tool's context change failed and was skipped: no such directory",
    });
    expect(
      events.filter((e) => e.type === 'result').map((e) => (e as { result: { content: unknown } }).result.content),
    ).toEqual(['done', 'after']);
    expect(session.cwd).toBe(dir);
  });
});

describe('close', () => {
  test('runs every cleanup once, newest first, survives a failing one, and is idempotent', async () => {
    const order: string[] = [];
    const registrar = buildTool({
      name: 'Register',
      description: 'Registers a cleanup for the session.',
      inputSchema: z.strictObject({ name: z.string(), fail: z.boolean().default(false) }),
      isReadOnly: () => true,
      async call({ name, fail }, ctx) {
        ctx.onClose(async () => {
          order.push(name);
          if (fail) throw new Error(`${name} would not stop`);
        });
        return { data: 'registered' };
      },
    });
    const session = await createSession({ cwd: dir, tools: [registrar] });
    await session.run([
      use('1', 'Register', { name: 'first' }),
      use('2', 'Register', { name: 'second', fail: true }),
      use('3', 'Register', { name: 'third' }),
    ]);
    const first = session.close();
    await session.close(); // a second close waits for the cleanups the first one started
    expect(order).toEqual(['third', 'second', 'first']);
    await first;
    await session.close();
    expect(order).toEqual(['third', 'second', 'first']);
    expect(session.notices()).toEqual([
      { level: 'warn', message: 'A cleanup step failed on close: second would not stop' },
    ]);
  });
});
