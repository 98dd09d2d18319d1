import { statSync } from 'node:fs';
import path from 'node:path';
import type { Session, ToolUseBlock } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import { runTurn, type TurnResult } from './_run_turn.ts';

/** The tools that refuse to change a file the session has not read, and the field naming it. */
const PATH_FIELDS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', NotebookEdit: 'notebook_path' };

/**
 * Before `toolshed call Edit|Write|NotebookEdit` of a file that exists, a Read of it through the
 * same session and pipeline: a person at the shell has seen the file, and the edit tools refuse
 * a file the session has not read. The Read goes through the permission rules like any call, so
 * a `Read(…)` deny still stops it. Nothing happens for another tool, a missing file or a folder.
 *
 * @param session The call's session.
 * @param options The tool called (`name`), the call's `input`, and the CLI's streams (`io`).
 * @returns The Read's result when one ran, undefined otherwise.
 *
 * @example
 * ```ts
 * import type { CliIo } from '@toolshed/cli';
 * import type { Session } from '@toolshed/core';
 * import { readBeforeEdit } from './_read_first.ts';
 * declare const session: Session;
 * declare const io: CliIo;
 *
 * const read = await readBeforeEdit(session, {
 *   name: 'Edit',
 *   input: { file_path: 'a.ts', old_string: 'x', new_string: 'y' },
 *   io,
 * });
 * if (read?.result.is_error) io.stderr.write('could not read a.ts first\n');
 * ```
 */
export async function readBeforeEdit(
  session: Session,
  { name, input, io }: { name: string; input: Record<string, unknown>; io: CliIo },
): Promise<TurnResult | undefined> {
  const field = PATH_FIELDS[name];
  const file = field ? input[field] : undefined;
  if (typeof file !== 'string' || file === '') return undefined;
  const absolute = path.resolve(session.cwd, file);
  try {
    if (!statSync(absolute).isFile()) return undefined;
  } catch {
    return undefined; // a new file needs no read
  }
  const block: ToolUseBlock = {
    type: 'tool_use',
    id: 'toolu_cli_read_first',
    name: 'Read',
    input: { file_path: absolute },
  };
  const [outcome] = await runTurn(session, [block], { io });
  return outcome;
}
