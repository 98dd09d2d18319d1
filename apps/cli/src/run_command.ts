import { contentToText, type ToolResultBlock } from '@toolshed/core';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { readJsonSource } from './_read_input.ts';
import { runTurn, type TurnResult } from './_run_turn.ts';
import { withSession } from './session_from_args.ts';
import { parseTranscript } from './transcript.ts';

/** Options of {@linkcode runCommand}. */
export interface RunCommandOptions {
  /** What a relative transcript path resolves against. @default process.cwd() */
  baseDir?: string;
}

/**
 * `toolshed run <file|-> [--json]`: replays a transcript — a JSON array of turns, each an array
 * of `tool_use` blocks — through one session, turn after turn, so that state carries over (a
 * Read in turn 1 counts for an Edit in turn 2). Prints each turn's results with tool name,
 * ok/error and duration, or with `--json` `{ "turns": [[tool_result, ...], ...], "metrics": {...} }`.
 *
 * @param invocation The transcript path (or `-` for stdin) and the flags.
 * @param io The CLI's streams.
 * @param options Where a relative path starts.
 * @returns 0 when every result is ok, 1 when any is an error.
 * @throws {UsageError} When the file cannot be read, is not JSON, or is not a transcript (naming the turn).
 *
 * @example
 * ```ts
 * import { runCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await runCommand({ positionals: ['transcript.json'], args }, io);
 * ```
 */
export async function runCommand(
  invocation: CommandInvocation,
  io: CliIo,
  options: RunCommandOptions = {},
): Promise<number> {
  const { positionals, args } = invocation;
  const { value, name } = await readJsonSource(positionals[0]!, {
    command: 'run',
    io,
    baseDir: options.baseDir ?? process.cwd(),
  });
  const turns = parseTranscript(value, name);
  return withSession(args, io, {
    run: async (session) => {
      // Each turn is written as it ends and let go: a long transcript holds one turn's results.
      const json = args.json ? jsonTurnsWriter(io) : undefined;
      let failed = 0;
      let calls = 0;
      let totalMs = 0;
      for (const [i, turn] of turns.entries()) {
        const started = performance.now();
        const outcomes = await runTurn(session, turn, { io });
        const turnMs = performance.now() - started;
        totalMs += turnMs;
        calls += outcomes.length;
        failed += outcomes.filter((o) => o.result.is_error).length;
        if (json) json.turn(outcomes.map((o) => o.result));
        else io.stdout.write(formatTurn(i, outcomes, turnMs));
      }
      if (json) {
        json.end(session.metrics());
      } else {
        io.stdout.write(
          `${plural(turns.length, 'turn')}, ${plural(calls, 'call')}, ${plural(failed, 'error')}, ${ms(totalMs)}\n`,
        );
      }
      return failed > 0 ? 1 : 0;
    },
  });
}

/**
 * Writes `{ turns, metrics }` as `JSON.stringify(…, null, 2)` would, byte for byte, one turn at a
 * time, so that the turns need not all be held until the end.
 */
function jsonTurnsWriter(io: Pick<CliIo, 'stdout'>): {
  turn(results: ToolResultBlock[]): void;
  end(metrics: unknown): void;
} {
  let turns = 0;
  const nested = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
  return {
    turn(results) {
      io.stdout.write(`${turns++ === 0 ? '{\n  "turns": [\n' : ',\n'}    ${nested(results, '    ')}`);
    },
    end(metrics) {
      const head = turns === 0 ? '{\n  "turns": []' : '\n  ]';
      const tail = metrics === undefined ? '' : `,\n  "metrics": ${nested(metrics, '  ')}`;
      io.stdout.write(`${head}${tail}\n}\n`);
    },
  };
}

function formatTurn(index: number, outcomes: readonly TurnResult[], turnMs: number): string {
  const lines = [`Turn ${index + 1}: ${plural(outcomes.length, 'call')} in ${ms(turnMs)}`];
  const nameWidth = Math.max(0, ...outcomes.map((o) => o.toolName.length));
  const idWidth = Math.max(0, ...outcomes.map((o) => o.result.tool_use_id.length));
  for (const o of outcomes) {
    const status = o.result.is_error ? 'error' : 'ok   ';
    const head = `  ${status}  ${o.toolName.padEnd(nameWidth)}  ${o.result.tool_use_id.padEnd(idWidth)}  ${ms(o.durationMs).padStart(8)}`;
    // The whole result: on the call's line when it is one line, else indented below it.
    const text = contentToText(o.result.content).replace(/\s+$/, '');
    if (!text.includes('\n')) lines.push(`${head}  ${text}`);
    else lines.push(head, ...text.split('\n').map((line) => `      ${line}`));
  }
  return `${lines.join('\n')}\n`;
}

function ms(value: number): string {
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
