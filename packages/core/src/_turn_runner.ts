import type { ToolUseBlock } from './blocks.ts';
import { describeError } from './describe_error.ts';
import { neverAbortingSignal } from './never_aborts.ts';
import type { NoticeHub } from './_notice_hub.ts';
import type { HooksConfig } from './hooks/types.ts';
import { executeTurn, type TurnEnv } from './orchestration.ts';
import { type CallOutcome, type PipelineEnv, runToolUse } from './pipeline.ts';
import type { ToolPool } from './pool.ts';
import type { MetricsRecorder } from './results/metrics.ts';
import type { SavedResults } from './results/saved_results.ts';
import type { RunOptions, SessionEvent, SessionOptions } from './session_types.ts';
import type { ToolContext } from './tool.ts';

/** What a session keeps between turns and changes: read and written by the turns. */
export interface SessionState {
  /** The context between calls; a tool's `contextModifier` replaces it. */
  context: ToolContext;
  /** Set by `close()`: later calls are refused with a result. */
  closed: boolean;
}

/** What {@linkcode createTurnRunner} needs of its session. */
export interface TurnRunnerParts {
  options: Pick<SessionOptions, 'signal' | 'concurrency' | 'canUseTool'>;
  sessionId: string;
  pool: ToolPool;
  hooks: HooksConfig | undefined;
  metrics: MetricsRecorder;
  notices: NoticeHub;
  /** The largest result any tool may give (`SessionOptions.maxResultSizeChars`). */
  maxResultSizeChars: number;
  /** Where each persisted result is recorded, for `close()` and as the session's own. */
  persisted: Pick<SavedResults, 'record'>;
  state: SessionState;
}

/** Runs one turn's blocks: what `run` and `stream` share. */
export type TurnRunner = (
  blocks: Iterable<ToolUseBlock> | AsyncIterable<ToolUseBlock>,
  runOptions: RunOptions | undefined,
  /** The turn's events; undefined when nobody reads them (`run`): none is then made. */
  emit: ((event: SessionEvent) => void) | undefined,
  onOutcome: (outcome: CallOutcome) => void,
) => Promise<void>;

/**
 * The turn runner of a session: each block through the pipeline, concurrency-safe calls in
 * parallel batches, context changes applied in order, the session's and the run's signals
 * both aborting it, and the session's notices raised meanwhile sent to its events.
 *
 * @param parts The session's pool, hooks, options and state.
 * @returns The runner.
 *
 * @example
 * ```ts
 * import { createTurnRunner, type TurnRunnerParts } from './_turn_runner.ts';
 *
 * declare const parts: TurnRunnerParts;
 * const runTurn = createTurnRunner(parts);
 * await runTurn([], undefined, () => {}, () => {});
 * ```
 */
export function createTurnRunner(parts: TurnRunnerParts): TurnRunner {
  const { options, pool, state, notices } = parts;
  const isConcurrencySafe = async (block: ToolUseBlock): Promise<boolean> => {
    const tool = await pool.resolve(block.name);
    if (!tool) return true; // an unknown tool's error result touches nothing
    const parsed = tool.inputSchema.safeParse(block.input);
    if (!parsed.success) return true; // an invalid input ends at the parse step, touching nothing
    try {
      return tool.isConcurrencySafe(parsed.data) === true;
    } catch {
      return false;
    }
  };
  // Made once: every AbortSignal costs microseconds to make in Node 20 (its prototype is set
  // after construction), AbortSignal.any of one signal three times that, and this runs per turn.
  const never = neverAbortingSignal();
  const applyContextModifier = (modifier: (ctx: ToolContext) => ToolContext) => {
    try {
      const next = modifier(state.context);
      // Per-call fields are not the modifier's to keep.
      state.context = { ...next, toolUseId: '', signal: state.context.signal };
    } catch (e) {
      notices.notice('warn', `A tool's context change failed and was skipped: ${describeError(e)}`);
    }
  };
  const notice = (message: string) => notices.notice('error', message);
  const turnEnv = (emit: ((event: SessionEvent) => void) | undefined): TurnEnv => {
    const env: PipelineEnv = {
      sessionId: parts.sessionId,
      pool,
      hooks: parts.hooks,
      canUseTool: options.canUseTool,
      makeContext: (toolUseId, callSignal) => ({ ...state.context, toolUseId, signal: callSignal }),
      emit,
      maxResultSizeChars: parts.maxResultSizeChars,
      metrics: parts.metrics,
    };
    return {
      concurrency: options.concurrency ?? 10,
      isConcurrencySafe,
      runCall: (block, callSignal) =>
        state.closed ? Promise.resolve(closedOutcome(block)) : runToolUse(block, env, { signal: callSignal }),
      applyContextModifier,
      notice,
    };
  };
  // A turn whose events nobody reads (`run`) shares one environment: nothing is made per turn.
  const quiet = turnEnv(undefined);
  return (blocks, runOptions, emit, onOutcome) => {
    const signal = turnSignal(never, options.signal, runOptions?.signal);
    const detach = emit && notices.attach(emit);
    const done = executeTurn(blocks, emit ? turnEnv(emit) : quiet, {
      signal,
      onOutcome: (outcome) => {
        if (outcome.persistedPath) parts.persisted.record(outcome.persistedPath, outcome.persistedStats);
        onOutcome(outcome);
      },
    });
    return detach ? done.finally(detach) : done;
  };
}

/**
 * The signal of a turn, which follows the session's and the run's: with neither, one that never
 * aborts (made once); with one, that one itself; with both, a signal that follows both.
 */
function turnSignal(never: AbortSignal, session: AbortSignal | undefined, run: AbortSignal | undefined): AbortSignal {
  if (session && run) return AbortSignal.any([session, run]);
  return session ?? run ?? never;
}

function closedOutcome(block: ToolUseBlock): CallOutcome {
  return {
    toolName: String(block.name),
    durationMs: 0,
    result: {
      type: 'tool_result',
      tool_use_id: String(block.id),
      content: `${String(block.name)} was not run: the session is closed.`,
      is_error: true,
    },
  };
}
