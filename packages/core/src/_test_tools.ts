// Small real tools and helpers shared by core's tests (not exported from mod.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildTool } from './tool.ts';
import type { ToolUseBlock } from './blocks.ts';

/** A read-only, concurrency-safe tool that echoes its text. */
export const echoTool = buildTool({
  name: 'Echo',
  aliases: ['Say'],
  description: 'Returns the text it is given.',
  inputSchema: z.strictObject({ text: z.string(), times: z.number().int().min(1).optional() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  validateInput: ({ text }) =>
    text === 'forbidden'
      ? { result: false, message: 'The text "forbidden" is not allowed; send another text.' }
      : { result: true },
  async call({ text, times }) {
    return { data: text.repeat(times ?? 1) };
  },
});

/**
 * A concurrency-safe tool that waits for a named gate to open, logging start and end, so
 * tests can prove overlap by event order rather than by timing.
 */
export function gatedTool(log: string[], gates: Map<string, Deferred>) {
  return buildTool({
    name: 'Gate',
    description: 'Waits until its gate opens, then returns.',
    inputSchema: z.strictObject({ gate: z.string(), safe: z.boolean().default(true) }),
    isReadOnly: ({ safe }) => safe,
    isConcurrencySafe: ({ safe }) => safe,
    interruptBehavior: 'cancel',
    async call({ gate }) {
      log.push(`start ${gate}`);
      let g = gates.get(gate);
      if (!g) gates.set(gate, (g = deferred()));
      await g.promise;
      log.push(`end ${gate}`);
      return { data: `opened ${gate}` };
    },
  });
}

/** A tool that writes (not read-only, not concurrency-safe) to a log. */
export function writerTool(log: string[]) {
  return buildTool({
    name: 'Writer',
    description: 'Appends a line to the log.',
    inputSchema: z.strictObject({ line: z.string() }),
    async call({ line }, ctx) {
      log.push(`write ${line} in ${ctx.cwd}`);
      return { data: `wrote ${line}` };
    },
  });
}

/** A tool that returns a large output (for the result budget). */
export const bigTool = buildTool({
  name: 'Big',
  description: 'Returns `size` characters of numbered lines.',
  inputSchema: z.strictObject({ size: z.number().int().min(0) }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ size }) {
    let out = '';
    for (let i = 0; out.length < size; i++) out += `line ${i} ${'x'.repeat(60)}\n`;
    return { data: out.slice(0, size) };
  },
});

/** A tool whose call throws. */
export const failingTool = buildTool({
  name: 'Fail',
  description: 'Always fails with an ENOENT-like error.',
  inputSchema: z.strictObject({ path: z.string() }),
  isReadOnly: () => true,
  async call({ path: p }) {
    const error = new Error(`no such file or directory, open '${p}'\n    at fake (stack.js:1:1)`) as Error & {
      code: string;
    };
    error.code = 'ENOENT';
    throw error;
  },
});

/** A `tool_use` block. */
export function use(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

/** A temp directory removed by the returned cleanup. */
export async function tempDir(prefix = 'toolshed-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A promise with its resolve function (Node 20 has no Promise.withResolvers). */
export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

/** Makes a {@linkcode Deferred}. */
export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Opens a gate of {@linkcode gatedTool}, creating it if the tool has not reached it yet. */
export function openGate(gates: Map<string, Deferred>, gate: string): void {
  let g = gates.get(gate);
  if (!g) gates.set(gate, (g = deferred()));
  g.resolve();
}

/**
 * How many turns of the microtask queue `work` takes to settle: a count of the promise hops on
 * its way, for tests that keep a per-call path from growing (timing would be too noisy).
 */
export async function microtaskTurns(work: Promise<unknown>): Promise<number> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  let turns = 0;
  while (!settled && turns < 10_000) {
    await Promise.resolve();
    turns++;
  }
  return turns;
}
