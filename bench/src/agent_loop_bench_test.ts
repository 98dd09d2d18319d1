import { expect, test } from 'vitest';
import { agentLoopSuite } from './agent_loop_bench.ts';

test('agent_loop measures the loop by hand, runAgent whole and streamed, and the first tool start both ways', async () => {
  // The model writes on for 300 ms after its call: a streamed run starts the call long before.
  const { results, summary, failures } = await agentLoopSuite.run({
    quick: true,
    params: { timeMs: 5, iterations: 2, tailMs: 300, firstToolRuns: 2 },
  });
  expect(failures).toEqual([]);
  expect(results.map((r) => r.task)).toEqual([
    'by hand: messages.create + session.run',
    'runAgent (whole turns)',
    'runAgent (streamed)',
    'first tool start, streamed',
    'first tool start, whole turn',
  ]);
  for (const key of [
    'loopOverheadMsPerTurn',
    'loopOverheadRatio',
    'firstToolStreamedP50Ms',
    'firstToolWholeP50Ms',
    'firstToolSpeedup',
  ])
    expect(summary[key], key).toEqual(expect.any(Number));
  expect(summary.firstToolWholeP50Ms as number).toBeGreaterThanOrEqual(300);
}, 60_000);
