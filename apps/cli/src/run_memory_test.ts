import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { rssGrowth } from '@toolshed/core/testing';
import { fakeIo, tempDir } from './_test_io.ts';
import { bigTool, testTools } from './_test_tools.ts';

const tools = [...testTools, bigTool];
import { runCli } from './run_cli.ts';

// What `toolshed run` holds follows the turn it prints, not the whole transcript's results: each
// turn's results are written and let go, with or without --json (whose output is unchanged).

async function measuredRun(flags: string[]): Promise<{ code: number; growthMb: number; out: string[] }> {
  const cwd = await tempDir();
  const file = path.join(cwd, 'transcript.json');
  // 4 000 turns of a 40 000-character result (under the 50 000 that would persist it): 160 MB of results.
  const turns = Array.from({ length: 4000 }, (_, i) => [
    { type: 'tool_use', id: `b${i}`, name: 'Big', input: { chars: 40_000 } },
  ]);
  await writeFile(file, JSON.stringify(turns));
  const { io } = fakeIo({ tools });
  // What is printed is only sampled: the test must not hold it either.
  const out: string[] = [];
  let last = '';
  io.stdout = {
    write: (s: string) => {
      if (out.length < 3) out.push(s.slice(0, 300));
      last = s.slice(-2000);
    },
  };
  const { value: code, growthMb } = await rssGrowth(() => runCli(['run', file, ...flags, '--cwd', cwd], io));
  return { code, growthMb, out: [...out, last] };
}

describe('toolshed run of a long transcript', () => {
  test.each([[[]], [['--json']]])(
    'holds one turn of results at a time (flags %j)',
    async (flags) => {
      const run = await measuredRun(flags);
      expect(run.code).toBe(0);
      expect(run.out.join('')).toContain(flags.length ? '"metrics"' : '4000 turns, 4000 calls, 0 errors');
      expect(run.growthMb).toBeLessThan(100);
    },
    60_000,
  );

  test('--json still prints what JSON.stringify(…, null, 2) prints, byte for byte, for no turns, empty turns and a few', async () => {
    const cwd = await tempDir();
    for (const turns of [
      [],
      [[]],
      [
        [{ type: 'tool_use', id: 'e1', name: 'Echo', input: { text: 'one\ntwo "quoted"' } }],
        [],
        [{ type: 'tool_use', id: 'b1', name: 'Boom', input: {} }],
      ],
    ]) {
      const file = path.join(cwd, 'transcript.json');
      await writeFile(file, JSON.stringify(turns));
      const { io, stdout } = fakeIo({ tools });
      await runCli(['run', file, '--json', '--cwd', cwd], io);
      const out = stdout();
      expect(out).toBe(`${JSON.stringify(JSON.parse(out), null, 2)}\n`);
      expect(JSON.parse(out).turns).toHaveLength(turns.length);
    }
  });
});
