import type { CliIo } from '../cli_io.ts';
import { runDemo, type DemoCall, type DemoReport } from './run_demo.ts';

/**
 * `toolshed demo` (what `pnpm start` runs): replays the bundled agent session on a copy of the
 * bundled sample repository and prints each turn as it runs, then a summary table. With
 * `--json` it prints the {@linkcode DemoReport} instead.
 *
 * @param invocation The parsed command line; only `args.json` is read.
 * @param io The CLI's streams.
 * @returns 0 when the demo behaved as scripted (the edit landed, the forbidden calls were
 *   denied, a result was persisted), 1 otherwise.
 *
 * @example
 * ```ts
 * import type { CliIo } from '@toolshed/cli';
 * import { demoCommand } from './demo_command.ts';
 * declare const io: CliIo;
 *
 * process.exitCode = await demoCommand({ args: { json: false } }, io);
 * ```
 */
export async function demoCommand(invocation: { args: { json: boolean } }, io: CliIo): Promise<number> {
  const json = invocation.args.json;
  const write = (line = '') => io.stdout.write(`${line}\n`);
  if (!json) {
    write('toolshed demo: a scripted agent fixes a typo in a copy of a sample repository.');
    write('No network and no API key: the "web" is a server on 127.0.0.1, the model is a script.');
  }
  const report = await runDemo({
    onTurn: (event) => {
      if (json) return;
      if (event.kind === 'start') {
        write();
        write(`Turn ${event.index + 1}: ${event.narration}`);
        return;
      }
      for (const call of event.calls)
        write(
          `  ${call.ok ? 'ok ' : 'ERR'} ${clip(call.call, 58).padEnd(58)} ${decisionText(call).padEnd(30)} ${ms(call.durationMs).padStart(8)}`,
        );
      for (const call of event.calls) {
        write(`      ${call.tool}: ${clip(call.firstLine, 100)}`);
        if (call.persisted)
          write(
            `      (whole output, ${call.persisted.bytes} bytes, saved to ${call.persisted.path}; the model got a preview)`,
          );
      }
      if (event.peakParallel > 1) write(`  ${event.peakParallel} calls ran in parallel (all concurrency-safe).`);
    },
  });
  const problems = check(report);
  if (json) {
    io.stdout.write(`${JSON.stringify({ ...report, problems }, null, 2)}\n`);
    return problems.length ? 1 : 0;
  }
  write();
  write(
    `First request: ${report.requestTools.join(', ')}; deferred behind ToolSearch: ${report.deferredTools.join(', ')}.`,
  );
  write(`The greeting now reads: ${report.greetingAfter.trim()}`);
  write();
  write(summaryTable(report));
  if (problems.length) {
    io.stderr.write(
      `toolshed demo: the session did not go as scripted:\n${problems.map((p) => `- ${p}`).join('\n')}\n`,
    );
    return 1;
  }
  return 0;
}

/** What the demo promises to show; a regression in any family makes the demo exit 1. */
function check(report: DemoReport): string[] {
  const calls = report.turns.flatMap((t) => t.calls);
  const problems: string[] = [];
  if (!report.greetingAfter.includes('Hello,')) problems.push(`the Edit did not land: ${report.greetingAfter.trim()}`);
  for (const call of calls.filter((c) => /\.env|rm -rf/.test(c.call))) {
    if (call.ok || call.decision !== 'deny') problems.push(`${call.call} was not denied`);
  }
  if (!calls.some((c) => c.persisted)) problems.push('no result was persisted by the result budget');
  if (!calls.some((c) => c.tool === 'WebFetch' && c.ok))
    problems.push('WebFetch (found through ToolSearch) did not succeed');
  if (!calls.some((c) => c.tool === 'mcp__tracker__get_issue' && c.ok))
    problems.push("the issue tracker's MCP tool (loaded through ToolSearch) did not succeed");
  if (!report.turns.some((t) => t.peakParallel > 1)) problems.push('no calls ran in parallel');
  return problems;
}

function summaryTable(report: DemoReport): string {
  const calls = report.turns.flatMap((t) => t.calls);
  const rows = [
    ['turn', 'tool', 'decision', 'result', 'ms'],
    ...calls.map((c) => [String(c.turn), c.tool, decisionText(c), resultText(c), ms(c.durationMs)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    `  ${r.map((cell, i) => (i === r.length - 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ')}`;
  const { total } = report.metrics;
  return [
    'Summary',
    line(rows[0]!),
    ...rows.slice(1).map(line),
    '',
    `  ${total.calls} calls, ${total.errors} errors (the denials are meant), ${calls.filter((c) => c.persisted).length} result persisted, mean ${ms(total.meanMs)} ms, p95 ${ms(total.p95Ms)} ms per call.`,
  ].join('\n');
}

function decisionText(call: DemoCall): string {
  return call.decision ? `${call.decision} (${call.why})` : call.why;
}

function resultText(call: DemoCall): string {
  if (call.persisted) return 'ok, persisted';
  if (call.ok) return 'ok';
  return call.decision === 'deny' ? 'denied' : 'error';
}

function ms(value: number): string {
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}
