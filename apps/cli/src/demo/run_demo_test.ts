import { expect, test } from 'vitest';
import { runDemo } from './run_demo.ts';

test('the demo fixes the typo, calls a deferred MCP tool, denies what the rules forbid, persists a large result and runs a parallel batch', async () => {
  const starts: number[] = [];
  const report = await runDemo({ logLines: 3_000, onTurn: (e) => void (e.kind === 'start' && starts.push(e.index)) });
  const calls = report.turns.flatMap((t) => t.calls);
  expect(starts).toEqual(report.turns.map((_, i) => i));
  expect(report.greetingAfter).toContain('Hello, ${name}!');
  expect(report.deferredTools).toContain('WebFetch');
  expect(report.requestTools).not.toContain('WebFetch');
  expect(report.docsServerHits).toBe(1);
  const byCall = (pattern: RegExp) => calls.find((c) => pattern.test(c.call))!;
  expect(byCall(/^Read\(\.env\)/)).toMatchObject({ ok: false, decision: 'deny', why: 'rule Read(./.env)' });
  expect(byCall(/cat \.env/)).toMatchObject({ ok: false, decision: 'deny', why: 'rule Read(./.env)' });
  expect(byCall(/rm -rf/)).toMatchObject({ ok: false, decision: 'deny', why: 'rule Bash(rm:*)' });
  expect(byCall(/^Edit/)).toMatchObject({ ok: true, decision: 'allow', why: 'rule Edit(./src/**)' });
  expect(calls.find((c) => c.tool === 'WebFetch')).toMatchObject({ ok: true, decision: 'allow' });
  // The tracker's MCP tool was deferred, loaded by ToolSearch, and answered over stdio.
  expect(report.deferredTools).toContain('mcp__tracker__get_issue');
  expect(calls.find((c) => c.tool === 'mcp__tracker__get_issue')).toMatchObject({
    ok: true,
    decision: 'allow',
    firstLine: '#42 The greeting has a typo [bug, good first issue]',
  });
  // The plan, and an Explore sub-agent that found the typo with its own Grep in a child session.
  expect(calls.find((c) => c.tool === 'TodoWrite')).toMatchObject({ ok: true, decision: 'allow' });
  expect(calls.find((c) => c.tool === 'Agent')).toMatchObject({ ok: true, decision: 'allow' });
  expect(calls.find((c) => c.tool === 'Agent')!.firstLine).toContain('The typo is here: ');
  expect(calls.find((c) => c.tool === 'Agent')!.firstLine).toContain('Helo');
  expect(report.turns[3]!.peakParallel).toBe(2);
  const persisted = calls.find((c) => c.persisted);
  // 3 000 lines, every third a warning: the saved file holds all 1 000 of them.
  expect(persisted?.tool).toBe('Grep');
  expect(persisted!.persisted!.bytes).toBeGreaterThan(50_000);
  expect(report.turns[0]!.peakParallel).toBe(3);
  expect(report.metrics.total.calls).toBe(calls.length);
});
