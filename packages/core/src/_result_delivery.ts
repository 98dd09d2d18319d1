import type { ToolResultBlock } from './blocks.ts';
import type { CallOutcome } from './pipeline.ts';
import { applyTurnBudget, fitsTurnBudget } from './results/result_budget.ts';
import type { SessionEvent } from './session_types.ts';
import type { MaybePromise } from './_maybe_async.ts';
import type { SavedFileStats } from './results/saved_results.ts';
import type { SavedOutputReaders } from './results/saved_output_hint.ts';

/** What the turn budget of `run` and `stream` works with. */
export interface DeliveryOptions {
  stateDir: string;
  /** Characters all of a turn's results may take before the largest are saved to files. */
  budgetChars: number;
  /** The largest result a call's tool allows (its `maxResultSizeChars`, else the session's). */
  maxCharsOf: (outcome: CallOutcome) => number;
  /** Refuses to save a text that quotes a file a deny rule covers (see `deniedQuoteGuard`). */
  refuseToSave: () => ((text: string) => string | undefined) | undefined;
  /** The tools the session has to read a saved file with; previews name only these. */
  readers: () => SavedOutputReaders;
  /** Where each saved file is recorded, for `close()` and as the session's own. */
  persisted: { record(file: string, stats: SavedFileStats | undefined): unknown };
}

/**
 * `session.run`'s turn budget: once every call of the turn has its result, the largest are
 * saved to files (each leaving a preview and the path) until the turn fits.
 *
 * @param outcomes The turn's outcomes, in the order of the blocks.
 * @param options The budget, where to save, and what each tool allows.
 * @returns The results to send back, in the same order.
 *
 * @example
 * ```ts
 * import { budgetRunResults } from './_result_delivery.ts';
 * import { savedOutputReaders } from './results/saved_output_hint.ts';
 * import type { CallOutcome } from './pipeline.ts';
 *
 * declare const outcomes: CallOutcome[];
 * const results = await budgetRunResults(outcomes, {
 *   stateDir: '/tmp/state', budgetChars: 200_000, maxCharsOf: () => 50_000, refuseToSave: () => undefined, readers: () => savedOutputReaders(undefined), persisted: { record: () => undefined },
 * });
 * ```
 */
export function budgetRunResults(
  outcomes: readonly CallOutcome[],
  options: DeliveryOptions,
): MaybePromise<ToolResultBlock[]> {
  // Within the budget (most turns), every result goes back as it is, at once: nothing to look up or save.
  if (
    fitsTurnBudget(
      outcomes.map((o) => o.result.content),
      options.budgetChars,
    )
  )
    return outcomes.map((o) => o.result);
  return budgetOverflow(outcomes, options);
}

/** {@linkcode budgetRunResults} of a turn over its budget: the largest results saved until it fits. */
async function budgetOverflow(outcomes: readonly CallOutcome[], options: DeliveryOptions): Promise<ToolResultBlock[]> {
  const refuseToSave = options.refuseToSave();
  const budgeted = await applyTurnBudget(
    outcomes.map((o) => ({
      content: o.result.content,
      toolUseId: o.result.tool_use_id,
      maxChars: options.maxCharsOf(o),
      refuseToSave,
    })),
    { stateDir: options.stateDir, budgetChars: options.budgetChars, readers: options.readers() },
  );
  for (const b of budgeted) if (b.persistedPath) options.persisted.record(b.persistedPath, b.persistedStats);
  return outcomes.map((o, i) => ({ ...o.result, content: budgeted[i]!.content }));
}

/**
 * `session.stream`'s turn budget. Results are delivered in order while the turn still runs,
 * so the budget is greedy: a result that would take the turn past it is saved to a file.
 *
 * @param options The budget, where to save, and what each tool allows.
 * @param push Where each `result` event goes.
 * @returns `deliver` for each outcome as it comes, and `drained`, which settles once every
 *   delivered outcome's event is pushed.
 *
 * @example
 * ```ts
 * import { createStreamDelivery } from './_result_delivery.ts';
 * import { savedOutputReaders } from './results/saved_output_hint.ts';
 *
 * const delivery = createStreamDelivery(
 *   { stateDir: '/tmp/state', budgetChars: 200_000, maxCharsOf: () => 50_000, refuseToSave: () => undefined, readers: () => savedOutputReaders(undefined), persisted: { record: () => undefined } },
 *   (event) => console.log(event.type),
 * );
 * await delivery.drained();
 * ```
 */
export function createStreamDelivery(
  options: DeliveryOptions,
  push: (event: SessionEvent) => void,
): { deliver: (outcome: CallOutcome) => void; drained: () => Promise<void> } {
  let total = 0;
  let delivering = Promise.resolve();
  const withinBudget = async (outcome: CallOutcome) => {
    let result = outcome.result;
    let persistedPath = outcome.persistedPath;
    // Recorded (with its stats) by the turn runner as the call finished; only a file saved here is recorded here.
    const size = textSize(result.content);
    if (total + size > options.budgetChars) {
      const item = {
        content: result.content,
        toolUseId: result.tool_use_id,
        maxChars: options.maxCharsOf(outcome),
        refuseToSave: options.refuseToSave(),
      };
      const [budgeted] = await applyTurnBudget([item], {
        stateDir: options.stateDir,
        budgetChars: Math.max(0, options.budgetChars - total),
        readers: options.readers(),
      });
      if (budgeted!.persistedPath) {
        result = { ...result, content: budgeted!.content };
        persistedPath = budgeted!.persistedPath;
        options.persisted.record(persistedPath, budgeted!.persistedStats);
      } else if (budgeted!.notSavedReason) {
        result = { ...result, content: budgeted!.content };
      }
    }
    total += textSize(result.content);
    return { result, persistedPath };
  };
  return {
    deliver(outcome) {
      delivering = delivering.then(async () => {
        const { result, persistedPath } = await withinBudget(outcome);
        const event: SessionEvent = {
          type: 'result',
          toolUseId: result.tool_use_id,
          toolName: outcome.toolName,
          result,
          durationMs: outcome.durationMs,
        };
        if (persistedPath) event.persistedPath = persistedPath;
        if (outcome.newMessages) event.newMessages = outcome.newMessages;
        push(event);
      });
    },
    drained: () => delivering,
  };
}

function textSize(content: ToolResultBlock['content']): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const block of content) if (block.type === 'text') n += block.text.length;
  return n;
}
