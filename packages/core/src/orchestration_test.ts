import { afterEach, beforeEach, describe, expect, test } from 'vitest';
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
    const running = session.run([use('a', 'Gate', { gate: 'A' }), use('b', 'Gate', { gate: 'B' }), use('c', 'Gate', { gate: 'C' })]);
    await until(() => log.length === 3);
    expect(log).toEqual(['start A', 'start B', 'start C']);
    openGate(gates, 'C');
    await until(() => log.length === 4);
    openGate(gates, 'B');
    await until(() => log.length === 5);
    openGate(gates, 'A');
    const results = await running;
    expect(log.slice(3)).toEqual(['end C', 'end B', 'end A']);
    expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([['a', 'opened A'], ['b', 'opened B'], ['c', 'opened C']]);
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
    const running = session.run([use('a', 'Gate', { gate: 'A' }), use('b', 'Gate', { gate: 'B' }), use('c', 'Gate', { gate: 'C' })]);
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
    const running = session.run([use('a', 'Gate', { gate: 'A' }), use('w', 'Writer', { line: 'W' })], { signal: controller.signal });
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
    expect(events.filter((e) => e.type === 'result').map((e) => (e as { toolUseId: string }).toolUseId)).toEqual(['a', 'b']);
  });

  test('events come in order: start, permission decision, result', async () => {
    const { gates, session } = await setup();
    openGate(gates, 'A');
    const types: string[] = [];
    for await (const event of session.stream([use('a', 'Gate', { gate: 'A' })])) types.push(event.type);
    expect(types).toEqual(['permission_decision', 'tool_start', 'result']);
  });
});
