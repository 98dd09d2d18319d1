import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { z } from 'zod';
import { buildTool, createSession, type Session, type ToolUseBlock } from '@toolshed/core';
import { anthropicModel, runAgent, type AgentMessage } from '@toolshed/tool-agent';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '@toolshed/tool-agent/testing';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { rowOf, taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode agentLoopSuite}. */
export interface AgentLoopParams {
  /** Measuring time per loop task, in milliseconds. */
  timeMs: number;
  /** Minimum measured iterations per loop task. */
  iterations: number;
  /** How long the fake model keeps writing after its tool call, in milliseconds. */
  tailMs: number;
  /** Runs of each time-to-first-tool variant. */
  firstToolRuns: number;
}

const TASK_HAND = 'by hand: messages.create + session.run';
const TASK_LOOP = 'runAgent (whole turns)';
const TASK_LOOP_STREAM = 'runAgent (streamed)';
const TASK_FIRST_STREAM = 'first tool start, streamed';
const TASK_FIRST_WHOLE = 'first tool start, whole turn';

const noop = buildTool({
  name: 'Noop',
  description: 'Returns its text.',
  inputSchema: z.object({ text: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call({ text }) {
    return { data: text };
  },
});

const hasToolResult = (r: FakeRequest) => JSON.stringify((r.body.messages as unknown[]).at(-1)).includes('tool_result');

/**
 * The agent loop: what `runAgent` adds per turn over calling the model (the real Anthropic SDK
 * against a loopback fake) and `session.run` by hand, and how much sooner the first call starts
 * when the turn is streamed than when it is awaited whole (the model writes on after the call).
 *
 * @example
 * ```ts
 * const { summary } = await agentLoopSuite.run({ quick: true });
 * summary.loopOverheadMsPerTurn;
 * ```
 */
export const agentLoopSuite: BenchSuite<AgentLoopParams> = {
  name: 'agent_loop',
  description:
    'runAgent against the same two turns done by hand (messages.create + session.run, the real SDK and a loopback fake model), and the time to the first tool start with streaming against without.',
  defaults: {
    full: { timeMs: 1500, iterations: 30, tailMs: 100, firstToolRuns: 15 },
    quick: { timeMs: 300, iterations: 8, tailMs: 40, firstToolRuns: 5 },
  },
  run: runAgentLoop,
};

async function runAgentLoop(options: SuiteRunOptions<AgentLoopParams>): Promise<SuiteOutcome> {
  const params = resolveParams(agentLoopSuite, options);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-agent-'));
  let tail: { until: Promise<unknown> } | undefined;
  const server = await startFakeModelServer((r): FakeReply => {
    if (hasToolResult(r)) return { content: [{ type: 'text', text: 'done' }] };
    const reply: FakeReply = {
      content: [
        { type: 'tool_use', id: `t${r.index}`, name: 'Noop', input: { text: 'ok' } },
        { type: 'text', text: 'and more words after the call' },
      ],
    };
    if (tail) reply.pause = { afterBlock: 0, until: tail.until };
    return reply;
  });
  let session: Session | undefined;
  try {
    session = await createSession({ cwd: dir, stateDir: dir, tools: [noop] });
    const client = new Anthropic({ apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
    const model = anthropicModel({ client, model: 'claude-bench' });
    const s = session;
    const byHand = async () => {
      const messages: AgentMessage[] = [{ role: 'user', content: 'go' }];
      for (;;) {
        const reply = (await client.messages.create({
          model: 'claude-bench',
          max_tokens: 8192,
          messages: messages as Anthropic.MessageParam[],
          tools: s.toolsFor('anthropic') as Anthropic.Tool[],
        })) as Anthropic.Message;
        messages.push({ role: 'assistant', content: reply.content as AgentMessage['content'] });
        const uses = reply.content.filter((b) => b.type === 'tool_use') as ToolUseBlock[];
        if (!uses.length) return;
        messages.push({ role: 'user', content: await s.run(uses) });
      }
    };
    const failures: string[] = [];
    const check = await runAgent({ session: s, model, prompt: 'go', stream: false });
    if (check.stopReason !== 'end_turn' || check.toolCalls['Noop'] !== 1)
      failures.push(
        `runAgent did not run the scripted two turns: ${check.stopReason}, ${JSON.stringify(check.toolCalls)}`,
      );
    if (failures.length) return { results: [], summary: {}, failures };

    const bench = new Bench({
      name: agentLoopSuite.name,
      time: params.timeMs,
      iterations: params.iterations,
      warmup: true,
      warmupIterations: 3,
      throws: true,
    });
    // Warm both paths first (connections, JIT), so the first task measured is not the cold one.
    for (let i = 0; i < 5; i++) {
      await byHand();
      await runAgent({ session: s, model, prompt: 'go', stream: false });
    }
    bench
      .add(TASK_HAND, byHand, { async: true })
      .add(TASK_LOOP, async () => void (await runAgent({ session: s, model, prompt: 'go', stream: false })), {
        async: true,
      })
      .add(TASK_LOOP_STREAM, async () => void (await runAgent({ session: s, model, prompt: 'go' })), { async: true });
    const rows: ResultRow[] = (await bench.run()).map((task) => taskRow(task));

    // Time to the first tool start: the model pauses `tailMs` after writing its call.
    const firstTool = async (stream: boolean): Promise<number> => {
      let release!: () => void;
      tail = { until: new Promise<void>((resolve) => (release = resolve)) };
      const timer = setTimeout(() => release(), params.tailMs);
      const started = performance.now();
      let at = Number.NaN;
      await runAgent({
        session: s,
        model,
        prompt: 'go',
        stream,
        onEvent: (e) => {
          if (e.type === 'session' && e.event.type === 'tool_start' && Number.isNaN(at))
            at = performance.now() - started;
        },
      });
      clearTimeout(timer);
      tail = undefined;
      return at;
    };
    for (const [task, stream] of [
      [TASK_FIRST_STREAM, true],
      [TASK_FIRST_WHOLE, false],
    ] as const) {
      const samples: number[] = [];
      for (let i = 0; i < params.firstToolRuns; i++) samples.push(await firstTool(stream));
      rows.push(sampleRow(task, samples));
    }
    const [hand, loop, streamed, first, whole] = [
      TASK_HAND,
      TASK_LOOP,
      TASK_LOOP_STREAM,
      TASK_FIRST_STREAM,
      TASK_FIRST_WHOLE,
    ].map((t) => rowOf(rows, t)) as [ResultRow, ResultRow, ResultRow, ResultRow, ResultRow];
    if (!(first.p50Ms < whole.p50Ms))
      failures.push(
        `Streaming did not start the first tool sooner (p50 ${first.p50Ms.toFixed(1)} ms streamed, ${whole.p50Ms.toFixed(1)} ms whole)`,
      );
    const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
    return {
      results: rows,
      summary: {
        turnsPerRun: 2,
        byHandMeanMs: round(hand.meanMs),
        runAgentMeanMs: round(loop.meanMs),
        runAgentStreamedMeanMs: round(streamed.meanMs),
        // What the loop adds to each model turn, over the same work done by hand.
        loopOverheadMsPerTurn: round((loop.p50Ms - hand.p50Ms) / 2),
        loopOverheadRatio: round(loop.p50Ms / hand.p50Ms, 2),
        streamedOverheadRatio: round(streamed.p50Ms / hand.p50Ms, 2),
        tailMs: params.tailMs,
        firstToolStreamedP50Ms: round(first.p50Ms, 1),
        firstToolWholeP50Ms: round(whole.p50Ms, 1),
        // How many times sooner the first call starts when the turn is streamed.
        firstToolSpeedup: round(whole.p50Ms / first.p50Ms, 1),
      },
      failures,
    };
  } finally {
    await session?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function sampleRow(task: string, samples: number[]): ResultRow {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    task,
    opsPerSec: mean > 0 ? 1000 / mean : 0,
    meanMs: mean,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    rmePercent: 0,
    samples: samples.length,
    opsPerSample: 1,
  };
}
