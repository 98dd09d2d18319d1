import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { unfold } from './results/_test_unfold.ts';
import { z } from 'zod';
import { createSession } from './session.ts';
import { buildTool } from './tool.ts';
import type { ToolUseBlock } from './blocks.ts';
import type { SessionEvent } from './session_types.ts';
import { type Deferred, gatedTool, openGate, tempDir, use, writerTool } from './_test_tools.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** Resolves once `predicate` holds, checking after each macrotask (no wall-clock assertion). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 1));
  if (!predicate()) throw new Error('condition never became true');
}

async function setup(concurrency?: number) {
  const log: string[] = [];
  const gates = new Map<string, Deferred>();
  const session = await createSession({
    cwd: dir,
    tools: [gatedTool(log, gates), writerTool(log)],
    permissions: { allow: ['Gate', 'Writer'] },
    ...(concurrency ? { concurrency } : {}),
  });
  return { log, gates, session };
}

describe('session.run scheduling', () => {
  test('consecutive concurrency-safe calls run in parallel and results keep block order', async () => {
    const { log, gates, session } = await setup();
    const running = session.run([
      use('a', 'Gate', { gate: 'A' }),
      use('b', 'Gate', { gate: 'B' }),
      use('c', 'Gate', { gate: 'C' }),
    ]);
    await until(() => log.length === 3);
    expect(log).toEqual(['start A', 'start B', 'start C']);
    openGate(gates, 'C');
    await until(() => log.length === 4);
    openGate(gates, 'B');
    await until(() => log.length === 5);
    openGate(gates, 'A');
    const results = await running;
    expect(log.slice(3)).toEqual(['end C', 'end B', 'end A']);
    expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([
      ['a', 'opened A'],
      ['b', 'opened B'],
      ['c', 'opened C'],
    ]);
  });

  test('a call that is not concurrency-safe runs alone, between the batches around it', async () => {
    const { log, gates, session } = await setup();
    const running = session.run([
      use('a', 'Gate', { gate: 'A' }),
      use('w', 'Writer', { line: 'W' }),
      use('b', 'Gate', { gate: 'B' }),
      use('c', 'Gate', { gate: 'C' }),
    ]);
    await until(() => log.length === 1);
    // The writer waits for A; B and C wait for the writer.
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['start A']);
    openGate(gates, 'A');
    await until(() => log.length === 5);
    expect(log).toEqual(['start A', 'end A', `write W in ${dir}`, 'start B', 'start C']);
    openGate(gates, 'B');
    openGate(gates, 'C');
    expect((await running).map((r) => r.tool_use_id)).toEqual(['a', 'w', 'b', 'c']);
  });

  test('the number of parallel calls is bounded by concurrency', async () => {
    const { log, gates, session } = await setup(2);
    const running = session.run([
      use('a', 'Gate', { gate: 'A' }),
      use('b', 'Gate', { gate: 'B' }),
      use('c', 'Gate', { gate: 'C' }),
    ]);
    await until(() => log.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(log).toEqual(['start A', 'start B']);
    openGate(gates, 'B');
    await until(() => log.includes('start C'));
    expect(log).toEqual(['start A', 'start B', 'end B', 'start C']);
    openGate(gates, 'A');
    openGate(gates, 'C');
    await running;
  });

  test('calls not started when the run is aborted end as cancelled; a cancellable running call is given up', async () => {
    const { log, session } = await setup();
    const controller = new AbortController();
    const running = session.run([use('a', 'Gate', { gate: 'A' }), use('w', 'Writer', { line: 'W' })], {
      signal: controller.signal,
    });
    await until(() => log.length === 1);
    controller.abort();
    const results = await running;
    expect(results.map((r) => r.is_error)).toEqual([true, true]);
    expect(results[0]!.content).toContain('cancelled while it was running');
    expect(results[1]!.content).toContain('cancelled before it started');
    expect(log).toEqual(['start A']);
  });

  test('context modifiers of a parallel batch apply in block order after the batch', async () => {
    const gates = new Map<string, Deferred>();
    const seen: string[] = [];
    const cdTool = buildTool({
      name: 'SafeCd',
      description: 'Moves the working directory after its gate opens.',
      inputSchema: z.strictObject({ to: z.string() }),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      async call({ to }, ctx) {
        seen.push(`${to} sees ${ctx.cwd}`);
        let g = gates.get(to);
        if (!g) gates.set(to, (g = { promise: Promise.resolve(), resolve: () => {} }));
        await g.promise;
        return { data: to, contextModifier: (c) => ({ ...c, cwd: `${dir}/${to}` }) };
      },
    });
    const session = await createSession({ cwd: dir, tools: [cdTool] });
    let openX!: () => void;
    gates.set('x', { promise: new Promise<void>((r) => (openX = r)), resolve: () => openX() });
    const running = session.run([use('1', 'SafeCd', { to: 'x' }), use('2', 'SafeCd', { to: 'y' })]);
    await until(() => seen.length === 2);
    openX();
    await running;
    // Both saw the context from before the batch; y, the later block, wins although x finished last.
    expect(seen).toEqual([`x sees ${dir}`, `y sees ${dir}`]);
    expect(session.cwd).toBe(`${dir}/y`);
  });
});

describe('session.stream', () => {
  test('a call starts as soon as its block arrives, before the next block exists', async () => {
    const { log, gates, session } = await setup();
    async function* blocks(): AsyncGenerator<ToolUseBlock> {
      yield use('a', 'Gate', { gate: 'A' });
      await until(() => log.includes('start A'));
      log.push('second block sent');
      yield use('b', 'Gate', { gate: 'B' });
    }
    const events: SessionEvent[] = [];
    const consuming = (async () => {
      for await (const event of session.stream(blocks())) events.push(event);
    })();
    await until(() => log.includes('start B'));
    openGate(gates, 'B');
    openGate(gates, 'A');
    await consuming;
    expect(log.slice(0, 3)).toEqual(['start A', 'second block sent', 'start B']);
    expect(events.filter((e) => e.type === 'result').map((e) => (e as { toolUseId: string }).toolUseId)).toEqual([
      'a',
      'b',
    ]);
  });

  test('events come in order: start, permission decision, result', async () => {
    const { gates, session } = await setup();
    openGate(gates, 'A');
    const types: string[] = [];
    for await (const event of session.stream([use('a', 'Gate', { gate: 'A' })])) types.push(event.type);
    expect(types).toEqual(['permission_decision', 'tool_start', 'result']);
  });
});

describe('abort and interruptBehavior', () => {
  test("on abort a 'block' tool is waited for and its real result returned; later calls are cancelled", async () => {
    const log: string[] = [];
    let release!: () => void;
    const blocking = buildTool({
      name: 'Migrate',
      description: 'Must not be interrupted halfway.',
      inputSchema: z.strictObject({}),
      interruptBehavior: 'block',
      async call(_input, _ctx, { signal }) {
        log.push('start');
        await new Promise<void>((r) => (release = r));
        log.push(`end, aborted=${signal.aborted}`);
        return { data: 'migration complete' };
      },
    });
    const session = await createSession({
      cwd: dir,
      tools: [blocking, writerTool(log)],
      permissions: { allow: ['Migrate', 'Writer'] },
    });
    const controller = new AbortController();
    const running = session.run([use('m', 'Migrate', {}), use('w', 'Writer', { line: 'after' })], {
      signal: controller.signal,
    });
    await until(() => log.includes('start'));
    controller.abort();
    let settled = false;
    void running.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false); // still waiting for the blocking call
    release();
    const results = await running;
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'm', content: 'migration complete' });
    expect(results[1]).toMatchObject({
      is_error: true,
      content: expect.stringContaining('cancelled before it started'),
    });
    expect(log).toEqual(['start', 'end, aborted=true']);
  });
});

describe('session.stream with a faulty input', () => {
  test('an async iterable that throws midway: earlier blocks run, a notice says why, the stream ends', async () => {
    const { gates, session } = await setup();
    openGate(gates, 'A');
    async function* blocks(): AsyncGenerator<ToolUseBlock> {
      yield use('a', 'Gate', { gate: 'A' });
      throw new Error('connection reset by the model API');
    }
    const events: SessionEvent[] = [];
    for await (const event of session.stream(blocks())) events.push(event);
    expect(events.filter((e) => e.type === 'result').map((e) => (e as { toolUseId: string }).toolUseId)).toEqual(['a']);
    expect(events.filter((e) => e.type === 'notice')).toEqual([
      {
        type: 'notice',
        level: 'error',
        message:
          'The stream of tool_use blocks failed after 1 block(s): connection reset by the model API. The blocks received before it were run; no later block was.',
      },
    ]);
  });

  test('a null or string block in an async iterable gets an error result in its place', async () => {
    const { gates, session } = await setup();
    openGate(gates, 'A');
    async function* blocks(): AsyncGenerator<unknown> {
      yield null;
      yield use('a', 'Gate', { gate: 'A' });
      yield 'Gate';
    }
    const results: { toolUseId: string; content: unknown; isError: boolean }[] = [];
    for await (const event of session.stream(blocks() as AsyncIterable<ToolUseBlock>)) {
      if (event.type === 'result')
        results.push({
          toolUseId: event.toolUseId,
          content: event.result.content,
          isError: event.result.is_error === true,
        });
    }
    expect(results.map((r) => [r.toolUseId, r.isError])).toEqual([
      ['invalid_0', true],
      ['a', false],
      ['invalid_2', true],
    ]);
    expect(results[0]!.content).toContain('No such tool available: null');
  });
});

describe('the per-turn aggregate budget', () => {
  const fixed = buildTool({
    name: 'Sized',
    description: 'Returns `size` copies of its letter.',
    inputSchema: z.strictObject({ letter: z.string().length(1), size: z.number().int() }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call({ letter, size }) {
      return { data: letter.repeat(size) };
    },
  });
  // 35 000 characters in all against a budget of 30 000.
  const turn = [
    use('l', 'Sized', { letter: 'l', size: 20_000 }),
    use('s', 'Sized', { letter: 's', size: 5_000 }),
    use('m', 'Sized', { letter: 'm', size: 10_000 }),
  ];
  const shape = (content: unknown) => ((content as string).length >= 5_000 ? 'whole' : 'preview');

  test('run persists the largest results first until the turn fits', async () => {
    const session = await createSession({
      cwd: dir,
      tools: [fixed],
      stateDir: `${dir}/state`,
      turnBudgetChars: 30_000,
    });
    const results = await session.run(turn);
    // The 20 000 one, the largest, goes; a preview plus 15 000 fits.
    expect(results.map((r) => shape(r.content))).toEqual(['preview', 'whole', 'whole']);
    expect(unfold(await readFile(`${dir}/state/tool-results/l.txt`, 'utf8'))).toBe('l'.repeat(20_000));
  });

  test('stream is greedy, in block order: the result that would take the turn past the budget is persisted', async () => {
    const session = await createSession({
      cwd: dir,
      tools: [fixed],
      stateDir: `${dir}/state`,
      turnBudgetChars: 30_000,
    });
    const shapes: string[] = [];
    for await (const event of session.stream(turn)) {
      if (event.type === 'result')
        shapes.push(`${shape(event.result.content)}${event.persistedPath ? ' persisted' : ''}`);
    }
    // Results are delivered as they come, so an earlier one cannot be taken back: 20 000 + 5 000
    // fit, the third would pass 30 000.
    expect(shapes).toEqual(['whole', 'whole', 'preview persisted']);
  });
});

test('an abort while canUseTool is pending ends the call as cancelled, even if the prompt ignores the signal', async () => {
  const log: string[] = [];
  let asked = false;
  const session = await createSession({
    cwd: dir,
    tools: [writerTool(log)],
    canUseTool: () => {
      asked = true;
      return new Promise(() => {}); // a prompt nobody answers
    },
  });
  const controller = new AbortController();
  const running = session.run([use('w', 'Writer', { line: 'x' })], { signal: controller.signal });
  await until(() => asked);
  controller.abort();
  const [result] = await running;
  expect(result).toMatchObject({
    is_error: true,
    content:
      'Writer was cancelled while it waited for permission: the run was aborted. Nothing further was done for this call.',
  });
  expect(log).toEqual([]);
});

test('leaving a stream early aborts the calls still running and ends the turn', async () => {
  const { log, session } = await setup();
  const seen: string[] = [];
  for await (const event of session.stream([use('a', 'Gate', { gate: 'A' }), use('w', 'Writer', { line: 'W' })])) {
    seen.push(event.type);
    if (event.type === 'tool_start') break;
  }
  // Gate is cancellable: it was given up; the writer behind it never started.
  await until(() => session.metrics().total.calls === 2);
  expect(seen).toEqual(['permission_decision', 'tool_start']);
  expect(log).toEqual(['start A']);
  expect(session.metrics().total.errors).toBe(2);
});
