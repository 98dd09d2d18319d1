import { contentToText, type ToolUseBlock } from '@toolshed/core';
import type { CommandInvocation } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { readJsonInput } from './_read_input.ts';
import { readBeforeEdit } from './_read_first.ts';
import { runTurn } from './_run_turn.ts';
import { withSession } from './session_from_args.ts';

/**
 * `toolshed call <Tool> <json|-> [--json]`: one call through the whole pipeline. Prints the
 * result text (an error result on stderr), or with `--json` the `tool_result` block.
 *
 * @param invocation The tool name, the input (or `-` for stdin) and the flags.
 * @param io The CLI's streams.
 * @returns 0 when the result is ok; 1 when it is an error, or a Bash command that exited
 *   non-zero, timed out or was killed (its result is printed all the same).
 * @throws {UsageError} When the input is not a JSON object.
 *
 * @example
 * ```ts
 * import { callCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await callCommand({ positionals: ['Read', '{"file_path":"a.ts"}'], args }, io);
 * ```
 */
export async function callCommand(invocation: CommandInvocation, io: CliIo): Promise<number> {
  const { positionals, args } = invocation;
  const name = positionals[0]!;
  const input = await readJsonInput(positionals[1]!, { command: 'call', position: 2, io });
  return withSession(args, io, {
    run: async (session) => {
      // A person at the shell has seen the file: Read it first (through the rules), so Edit and
      // Write of an existing file can succeed. `--no-read-first` turns this off.
      if (!args.noReadFirst) {
        const read = await readBeforeEdit(session, { name, input, io });
        if (read?.result.is_error) {
          io.stderr.write(
            `toolshed: ${name} needs the file read first, and the Read failed (pass --no-read-first to skip it):\n${contentToText(read.result.content)}\n`,
          );
          return 1;
        }
      }
      const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_cli_call', name, input };
      const [outcome] = await runTurn(session, [block], { io });
      const result = outcome!.result;
      if (args.json) {
        io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } else {
        const text = contentToText(result.content);
        const out = text.endsWith('\n') || text === '' ? text : `${text}\n`;
        (result.is_error ? io.stderr : io.stdout).write(out);
      }
      // tool-shell is loaded already when Bash ran; importing it up front would load it for `call Read` too.
      const commandFailed =
        outcome!.toolName === 'Bash' &&
        (await import('@toolshed/tool-shell')).bashResultFailed(contentToText(result.content));
      return result.is_error || commandFailed ? 1 : 0;
    },
  });
}
