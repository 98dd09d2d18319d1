import type { Session, SessionEvent, ToolResultBlock, ToolUseBlock } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import { progressLines } from './_progress_lines.ts';
import { toolUseSummary } from './_tool_summary.ts';
import { levelWord } from './_style.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

/** One call's outcome as the commands print it. */
export interface TurnResult {
  toolName: string;
  result: ToolResultBlock;
  durationMs: number;
}

/**
 * Runs one turn through `session.stream`, writing what a person should see while it runs to
 * stderr (the spinner and progress in a TTY, hook failures and notices always), and returns the
 * results in the order of the blocks.
 *
 * @param session The session.
 * @param blocks The turn's `tool_use` blocks; their ids are unique.
 * @param options The CLI's streams (`io`).
 * @returns One result per block, in order.
 */
export async function runTurn(
  session: Session,
  blocks: readonly ToolUseBlock[],
  { io }: { io: CliIo },
): Promise<TurnResult[]> {
  const byId = new Map<string, TurnResult>();
  const progress = new Map<string, ReturnType<typeof progressLines>>();
  const spinning = () =>
    blocks.length === 1
      ? `${blocks[0]!.name} ${toolUseSummary(session, blocks[0]!)}`.trimEnd()
      : `${byId.size} of ${blocks.length} calls done`;
  io.spinner?.start(spinning());
  try {
    for await (const event of session.stream(blocks)) show(event);
  } finally {
    io.spinner?.stop();
  }
  function show(event: SessionEvent): void {
    if (event.type === 'result') {
      byId.set(event.toolUseId, { toolName: event.toolName, result: event.result, durationMs: event.durationMs });
      io.spinner?.start(spinning());
    } else if (event.type === 'progress' && io.isTTY) {
      // Each new line once, in order (a timer-driven report repeats the last line until more output comes).
      let lines = progress.get(event.toolUseId);
      if (!lines) progress.set(event.toolUseId, (lines = progressLines()));
      // A tool's progress (an MCP server's words) is shown with its escape codes escaped.
      for (const line of lines(event.progress))
        io.stderr.write(`toolshed: ${event.toolName}: ${escapeUnprintable(line)}\n`);
    } else if (event.type === 'hook_error') {
      io.stderr.write(
        `toolshed: ${levelWord('warn', io)}: ${printableMessage(`${event.event} hook "${event.hook}" of ${event.toolName} failed: ${event.message}`)}\n`,
      );
    } else if (event.type === 'notice') {
      io.stderr.write(`toolshed: ${levelWord(event.level, io)}: ${printableMessage(event.message)}\n`);
    }
  }
  return blocks.map((block) => {
    const found = byId.get(block.id);
    if (found) return found;
    // The session promises one result per block; if it ever breaks that, say so in the transcript.
    return {
      toolName: block.name,
      durationMs: 0,
      result: {
        type: 'tool_result',
        tool_use_id: block.id,
        content: `${block.name} returned no result (toolshed internal error).`,
        is_error: true,
      },
    };
  });
}
