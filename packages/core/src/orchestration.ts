import type { ToolUseBlock } from './blocks.ts';
import type { CallOutcome } from './pipeline.ts';
import type { ToolContext } from './tool.ts';
import { describeError } from './describe_error.ts';

/** What {@linkcode executeTurn} needs from the session. */
export interface TurnEnv {
  /** How many concurrency-safe calls may run at once. */
  concurrency: number;
  /** Whether a block may run in parallel with other safe calls (false when unknown or invalid). */
  isConcurrencySafe(block: ToolUseBlock): Promise<boolean>;
  /** Runs one call through the pipeline. */
  runCall(block: ToolUseBlock, signal: AbortSignal): Promise<CallOutcome>;
  /** Makes a modifier's context the session's context. */
  applyContextModifier(modifier: (ctx: ToolContext) => ToolContext): void;
  /** Reports a problem with the input stream itself. */
  notice(message: string): void;
}

interface Task {
  index: number;
  block: ToolUseBlock;
  safe: boolean | undefined;
  outcome: CallOutcome | undefined;
}

/** Options of {@linkcode executeTurn}. */
export interface ExecuteTurnOptions {
  /** Aborts the turn: calls not started yet end as cancelled. */
  signal: AbortSignal;
  /** Called once per block, in block order. */
  onOutcome: (outcome: CallOutcome) => void;
}

/**
 * Runs one turn's calls as Claude Code does: consecutive concurrency-safe calls run in
 * parallel (at most `concurrency` at once), any other call runs alone, in order. Blocks may
 * arrive over time (an async iterable fed while the model streams); each starts as soon as
 * the rules allow. Outcomes are delivered in the order of the blocks, through `onOutcome`.
 * `contextModifier`s of a parallel batch are applied in block order once the batch ends; a
 * lone call's modifier right after it.
 *
 * @param blocks The turn's `tool_use` blocks, at once or streamed.
 * @param env The session's scheduler hooks.
 * @param options `signal` aborts the turn (calls not started yet end as cancelled); `onOutcome`
 *   is called once per block, in block order.
 * @returns Resolves when every call has finished and been delivered.
 *
 * @example
 * ```ts
 * import type { ToolResultBlock, ToolUseBlock } from '@toolshed/core';
 * import { executeTurn, type TurnEnv } from './orchestration.ts';
 * const signal = AbortSignal.timeout(30_000);
 * declare const blocks: ToolUseBlock[];
 * declare const env: TurnEnv;
 * const results: ToolResultBlock[] = [];
 *
 * await executeTurn(blocks, env, { signal, onOutcome: (outcome) => results.push(outcome.result) });
 * ```
 */
export function executeTurn(
  blocks: Iterable<ToolUseBlock> | AsyncIterable<ToolUseBlock>,
  env: TurnEnv,
  { signal, onOutcome }: ExecuteTurnOptions,
): Promise<void> {
  // A list of one block (most turns of session.run) runs it at once: none of the bookkeeping below.
  if (Array.isArray(blocks) && blocks.length === 1)
    return runAlone(toToolUse(blocks[0], 0), env, { signal, onOutcome });
  const limit = Math.max(1, env.concurrency);
  const tasks: Task[] = [];
  const modifiers: { index: number; modifier: (ctx: ToolContext) => ToolContext }[] = [];
  let running = 0;
  let runningUnsafe = false;
  let nextStart = 0;
  let nextDeliver = 0;
  let inputDone = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const pump = () => {
    while (nextStart < tasks.length) {
      const task = tasks[nextStart]!;
      if (task.safe === undefined) break;
      if (task.safe ? runningUnsafe || running >= limit : running > 0) break;
      nextStart++;
      start(task);
    }
    if (inputDone && nextDeliver === tasks.length) finish();
  };

  const start = (task: Task) => {
    running++;
    if (!task.safe) runningUnsafe = true;
    // runCall does not reject; should it ever, the call still ends as an error result, or
    // the turn would never finish.
    void env
      .runCall(task.block, signal)
      .catch((e) => failedOutcome(task.block, e))
      .then((outcome) => {
        task.outcome = outcome;
        running--;
        if (!task.safe) runningUnsafe = false;
        if (outcome.contextModifier) modifiers.push({ index: task.index, modifier: outcome.contextModifier });
        if (running === 0 && modifiers.length) {
          modifiers.sort((a, b) => a.index - b.index);
          for (const { modifier } of modifiers.splice(0)) env.applyContextModifier(modifier);
        }
        while (tasks[nextDeliver]?.outcome) onOutcome(tasks[nextDeliver++]!.outcome!);
        pump();
      });
  };

  const add = (raw: unknown, alone: boolean) => {
    const task: Task = {
      index: tasks.length,
      block: toToolUse(raw, tasks.length),
      safe: undefined,
      outcome: undefined,
    };
    tasks.push(task);
    // A turn of one block runs it at once whatever its concurrency: nothing to ask.
    if (alone) {
      task.safe = false;
      return;
    }
    void env
      .isConcurrencySafe(task.block)
      .then(
        (safe) => (task.safe = safe),
        () => (task.safe = false),
      )
      .then(pump);
  };

  if (Array.isArray(blocks)) {
    // A list is taken whole at once: no promise per block, as `for await` would make.
    for (const raw of blocks) add(raw, blocks.length === 1);
    inputDone = true;
    pump();
    return done;
  }
  void (async () => {
    try {
      for await (const raw of blocks) add(raw, false);
    } catch (e) {
      env.notice(
        `The stream of tool_use blocks failed after ${tasks.length} block(s): ${describeError(e)}. The blocks received before it were run; no later block was.`,
      );
    }
    inputDone = true;
    pump();
  })();
  return done;
}

/** The turn of one block: its call, its context change applied after it, its outcome delivered. */
function runAlone(block: ToolUseBlock, env: TurnEnv, { signal, onOutcome }: ExecuteTurnOptions): Promise<void> {
  // runCall does not reject; should it ever, the call still ends as an error result.
  return env
    .runCall(block, signal)
    .catch((e) => failedOutcome(block, e))
    .then((outcome) => {
      if (outcome.contextModifier) env.applyContextModifier(outcome.contextModifier);
      onOutcome(outcome);
    });
}

// A block that is not an object (`null`, a string a buggy loop sent) becomes a `tool_use` of
// that name, so it gets its own error result instead of breaking the turn.
function toToolUse(raw: unknown, index: number): ToolUseBlock {
  if (raw !== null && typeof raw === 'object') return raw as ToolUseBlock;
  return { type: 'tool_use', id: `invalid_${index}`, name: String(raw), input: undefined };
}

function failedOutcome(block: ToolUseBlock, error: unknown): CallOutcome {
  const name = String(block.name);
  return {
    toolName: name,
    durationMs: 0,
    result: {
      type: 'tool_result',
      tool_use_id: String(block.id),
      content: `${name} failed: ${describeError(error)}`,
      is_error: true,
    },
  };
}
