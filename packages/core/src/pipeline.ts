import type { AnyTool, ToolCallResult, ToolContext } from './tool.ts';
import { contentToText, type ToolResultBlock, type ToolResultContent, type ToolUseBlock } from './blocks.ts';
import type { HooksConfig, HooksOutcome, HookEvent } from './hooks/types.ts';
import type { CanUseTool, PermissionDecision } from './permissions/types.ts';
import type { SessionEvent } from './session_types.ts';
import type { ToolPool } from './pool.ts';
import type { MetricsRecorder } from './results/metrics.ts';
import { noSuchToolText } from './_no_such_tool.ts';
import { toolSavedResult } from './results/_tool_saved_result.ts';
import { formatInputError } from './input_errors.ts';
import { hookConditionMatcher } from './hooks/hook_condition.ts';
import { runHooks } from './hooks/run_hooks.ts';
import { decidePermission, denialMessage } from './permissions/decide_permission.ts';
import { fitsResultLimit, persistLargeResult, type PersistLargeResultOutcome } from './results/result_budget.ts';
import { deniedQuoteGuard } from './results/denied_quote_guard.ts';
import type { SavedFileStats } from './results/saved_results.ts';
import { savedOutputReaders } from './results/saved_output_hint.ts';
import { describeError } from './describe_error.ts';
import { isThenable } from './_maybe_async.ts';
import { cannotAbort } from './never_aborts.ts';

/** What the pipeline needs from its session. */
export interface PipelineEnv {
  sessionId: string;
  pool: ToolPool;
  hooks: HooksConfig | undefined;
  canUseTool: CanUseTool | undefined;
  /** The context of a call, from the session's current context. */
  makeContext(toolUseId: string, signal: AbortSignal): ToolContext;
  /** The turn's events; undefined when nobody reads them, and then none is made. */
  emit: ((event: SessionEvent) => void) | undefined;
  /** Caps every tool's `maxResultSizeChars`. */
  maxResultSizeChars: number;
  metrics: MetricsRecorder;
}

/** What one call produced. */
export interface CallOutcome {
  toolName: string;
  result: ToolResultBlock;
  durationMs: number;
  persistedPath?: string;
  /** The saved file as written (from the writing handle): what the session records as its own. */
  persistedStats?: SavedFileStats;
  /** Applied by the orchestrator, in order, after the call's batch. */
  contextModifier?: ToolCallResult<unknown>['contextModifier'];
  /** Messages the tool asks the loop to append after the results. */
  newMessages?: unknown[];
}

/** Options of {@linkcode runToolUse}. */
export interface RunToolUseOptions {
  /** Aborts the call. */
  signal: AbortSignal;
}

/**
 * Runs one `tool_use` through the seven steps of docs/architecture.md — 1. find, 2. parse,
 * 3. validate, 4. PreToolUse hooks, 5. permission, 6. call, 7. post (numbered so in `runSteps`
 * and in the helpers below, and in pipeline_test.ts's `describe` blocks) — and
 * returns its `tool_result`. Every failure is an `is_error` result in words a model can act on;
 * this function does not throw.
 *
 * @param block The model's `tool_use` block.
 * @param env The session's internals.
 * @param options The call's abort `signal`.
 * @returns The result and what the orchestrator needs.
 *
 * @example
 * ```ts
 * import { type PipelineEnv, runToolUse } from './pipeline.ts';
 * declare const env: PipelineEnv;
 * const signal = AbortSignal.timeout(30_000);
 *
 * const outcome = await runToolUse({ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }, env, { signal });
 * outcome.result.is_error; // undefined when the call succeeded
 * ```
 */
export function runToolUse(block: ToolUseBlock, env: PipelineEnv, { signal }: RunToolUseOptions): Promise<CallOutcome> {
  const call: Call = {
    env,
    signal,
    started: performance.now(),
    id: typeof block.id === 'string' ? block.id : String(block.id),
    name: typeof block.name === 'string' ? block.name : String(block.name),
  };
  // A bug in a tool's hook, matcher or renderer must still end as a result, never a throw.
  return runSteps(call, block).catch((e: unknown) => finish(call, `${call.name} failed: ${describeError(e)}`, true));
}

/** One call on its way through the steps: who asked, and when it started. */
interface Call {
  env: PipelineEnv;
  signal: AbortSignal;
  started: number;
  /** The block's id and tool name, as strings whatever the model sent. */
  id: string;
  name: string;
}

/** A step's verdict: go on with the (possibly rewritten) value, or end the call with an error result. */
type Step<T> = ({ ok: true } & T) | { ok: false; message: string };

/** The outcome of a call, its metrics recorded. */
function finish(
  call: Call,
  content: ToolResultContent,
  isError: boolean,
  extra: Partial<CallOutcome> = {},
): CallOutcome {
  const durationMs = performance.now() - call.started;
  call.env.metrics.record(call.name, { durationMs, isError, persisted: extra.persistedPath !== undefined });
  const result: ToolResultBlock = { type: 'tool_result', tool_use_id: call.id, content };
  if (isError) result.is_error = true;
  return { toolName: call.name, result, durationMs, ...extra };
}

/**
 * The seven steps in order. The awaits stay here and the helpers are synchronous, so that a call
 * goes through no more promise hops than the steps themselves need (the pipeline runs per call).
 */
async function runSteps(call: Call, block: ToolUseBlock): Promise<CallOutcome> {
  const { env, id, signal } = call;
  const rawInput: unknown = block.input;
  // 1. Find, by exact name then alias; a lazy family is imported here (only then awaited).
  const tool = env.pool.loadedTool(call.name) ?? (await env.pool.resolve(call.name));
  if (!tool) return finish(call, noSuchToolMessage(call), true);
  // A deferred tool called before ToolSearch loaded it: the model wrote its input without the
  // schema. It is loaded here, so the next request carries the schema.
  const unseen = env.pool.isDeferred(tool.name) && !env.pool.isVisible(tool.name);
  if (unseen) await env.pool.load([tool.name]);
  if (signal.aborted) return finish(call, cancelledMessage(tool, 'before it started'), true);
  const ctx = env.makeContext(id, signal);

  // 2. Parse, and 3. validate (awaited only when the tool's own check is asynchronous).
  const checked = parseAndValidate(tool, rawInput, ctx);
  const parsed = isThenable(checked) ? await checked : checked;
  if (!parsed.ok) return finish(call, unseen ? `${parsed.message}\n\n${schemaNotSent(tool)}` : parsed.message, true);
  let input = parsed.input;

  // 4. PreToolUse hooks: block, rewrite the input, or decide the permission. With none set for
  //    the event, nothing is built or awaited (this runs per call).
  const pre = hasHooks(env, 'PreToolUse')
    ? await runEventHooks(call, tool, { event: 'PreToolUse', input, ctx })
    : NO_HOOKS;
  if (pre.blocked) return finish(call, preToolUseBlockedMessage(tool, pre.blocked), true);
  if (pre.updatedInput) {
    const reparsed = await parseAndValidate(tool, pre.updatedInput, ctx);
    if (!reparsed.ok)
      return finish(call, `The input that a PreToolUse hook rewrote is not valid. ${reparsed.message}`, true);
    input = reparsed.input;
  }

  // 5. Permission.
  const permitted = await resolvePermission(call, tool, input, { ctx, pre });
  if (!permitted.ok) return finish(call, permitted.message, true);
  input = permitted.input;

  // 6. Call.
  env.emit?.({ type: 'tool_start', toolUseId: id, toolName: tool.name, input });
  let output: ToolCallResult<unknown>;
  try {
    const emit = env.emit;
    output = await callWithInterrupt(tool, input, ctx, {
      signal,
      // A signal that never aborts needs no listener (this runs per call).
      abortable: !cannotAbort(signal),
      onProgress: emit
        ? (progress) => emit({ type: 'progress', toolUseId: id, toolName: tool.name, progress })
        : ignoreProgress,
    });
  } catch (e) {
    const message = signal.aborted
      ? cancelledMessage(tool, 'while it was running')
      : `${tool.name} failed: ${describeError(e)}`;
    const failure = hasHooks(env, 'PostToolUseFailure')
      ? await runEventHooks(call, tool, { event: 'PostToolUseFailure', input, ctx, extra: { error: message } })
      : NO_HOOKS;
    return finish(call, appendText(message, failure.additionalContext), true);
  }

  // 7. Post: map, apply the result budget (a result within it, most, is taken as it is), PostToolUse hooks.
  const mapped = tool.mapResult(output.data, id);
  const maxChars = resultLimit(call, tool);
  const budget: Pick<PersistLargeResultOutcome, 'content' | 'persistedPath' | 'persistedStats' | 'persistError'> =
    fitsResultLimit(mapped, maxChars)
      ? { content: mapped }
      : await persistLargeResult(mapped, resultBudget(call, ctx, maxChars));
  if (budget.persistError) env.emit?.(notSavedNotice(call, tool, budget.persistError));
  const isError = output.isError === true;
  const postEvent = isError ? 'PostToolUseFailure' : 'PostToolUse';
  const post = hasHooks(env, postEvent)
    ? await runEventHooks(call, tool, {
        event: postEvent,
        input,
        ctx,
        extra: isError ? { error: contentToText(budget.content) } : { tool_response: output.data },
      })
    : NO_HOOKS;
  return finish(
    call,
    appendText(budget.content, postNotes(pre, post, isError)),
    isError,
    postExtra(budget, output, ctx),
  );
}

/** 1. The result for a name no tool has, with the closest names the pool has. */
function noSuchToolMessage({ env, name }: Call): string {
  return noSuchToolText(name, env.pool.names());
}

/**
 * 2. Parse, and 3. validate: the input against the tool's schema, then the tool's own check. A
 * promise only when the tool's check is asynchronous: most are not, and this runs per call.
 */
function parseAndValidate(
  tool: AnyTool,
  raw: unknown,
  ctx: ToolContext,
): Step<{ input: unknown }> | Promise<Step<{ input: unknown }>> {
  const parsed = parseInput(tool, raw);
  if (!parsed.ok) return parsed;
  let checked;
  try {
    checked = tool.validateInput(parsed.input, ctx);
  } catch (e) {
    return cannotCheck(tool, e);
  }
  if (!isThenable(checked)) return validated(parsed, checked);
  return Promise.resolve(checked).then(
    (validation) => validated(parsed, validation),
    (e: unknown) => cannotCheck(tool, e),
  );
}

/** 3. The parsed input, or the tool's own check's message. */
function validated(
  parsed: Step<{ input: unknown }>,
  validation: Awaited<ReturnType<AnyTool['validateInput']>>,
): Step<{ input: unknown }> {
  return validation.result ? parsed : { ok: false, message: validation.message };
}

/** 2. Why a deferred tool's input may be wrong: the model had not seen its schema. */
function schemaNotSent(tool: AnyTool): string {
  return `${tool.name}'s schema was not in your request (the tool was deferred); it is loaded now and in your next request: retry the call following it.`;
}

/** 3. A tool's own check that threw. */
function cannotCheck(tool: AnyTool, e: unknown): Step<{ input: unknown }> {
  return { ok: false, message: `${tool.name} could not check its input: ${describeError(e)}` };
}

/** 2. Parse the input with the tool's schema. */
function parseInput(tool: AnyTool, raw: unknown): Step<{ input: unknown }> {
  const parsed = tool.inputSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: formatInputError(parsed.error, { toolName: tool.name, input: raw }) };
  return { ok: true, input: parsed.data };
}

/** 4. The result of a call a PreToolUse hook blocked. */
function preToolUseBlockedMessage(tool: AnyTool, blocked: NonNullable<HooksOutcome['blocked']>): string {
  return `${tool.name} was blocked by PreToolUse hook "${blocked.hook}": ${blocked.reason}`;
}

/** 7. The result limit of a call: the tool's own, capped by the session's (unless the tool has none). */
function resultLimit(call: Call, tool: AnyTool): number {
  return Math.min(
    tool.maxResultSizeChars,
    tool.maxResultSizeChars === Infinity ? Infinity : call.env.maxResultSizeChars,
  );
}

/** 7. The result budget of a call whose result is over its limit. */
function resultBudget(call: Call, ctx: ToolContext, maxChars: number): Parameters<typeof persistLargeResult>[1] {
  return {
    toolUseId: call.id,
    stateDir: ctx.stateDir,
    maxChars,
    refuseToSave: deniedQuoteGuard(ctx),
    readers: savedOutputReaders(ctx.tools),
  };
}

/** 7. The notice for an output over the budget that could not be saved (it is returned whole). */
function notSavedNotice(call: Call, tool: AnyTool, persistError: string): SessionEvent {
  return {
    type: 'notice',
    level: 'warn',
    message: `The output of ${tool.name} (${call.id}) could not be saved to disk (${persistError}); it is returned whole.`,
  };
}

/** 7. What the hooks add to the result: their context, and first what a PostToolUse* hook flagged. */
function postNotes(pre: HooksOutcome, post: HooksOutcome, isError: boolean): readonly string[] {
  if (pre === NO_HOOKS && post === NO_HOOKS) return NO_HOOKS.additionalContext;
  const notes = [...pre.additionalContext, ...post.additionalContext];
  if (post.blocked)
    notes.unshift(
      `${isError ? 'PostToolUseFailure' : 'PostToolUse'} hook "${post.blocked.hook}" flagged this result: ${post.blocked.reason}`,
    );
  return notes;
}

/** 7. What the orchestrator needs besides the result: the saved file, the context change, new messages. */
function postExtra(
  budget: { persistedPath?: string | undefined; persistedStats?: SavedFileStats | undefined },
  output: ToolCallResult<unknown>,
  ctx: ToolContext,
): Partial<CallOutcome> {
  const extra: Partial<CallOutcome> = {};
  if (budget.persistedPath) {
    extra.persistedPath = budget.persistedPath;
    if (budget.persistedStats) extra.persistedStats = budget.persistedStats;
  } else if (output.persistedPath) {
    // Only a file in the session's own results folder: the session removes these on close().
    const saved = toolSavedResult(output.persistedPath, ctx.stateDir);
    if (saved) extra.persistedPath = saved;
    if (saved && output.persistedStats) extra.persistedStats = output.persistedStats;
  }
  if (output.contextModifier) extra.contextModifier = output.contextModifier;
  if (output.newMessages?.length) extra.newMessages = output.newMessages;
  return extra;
}

/** 5. Permission: the rules, the hooks' decision, and when it asks, the session's prompt. */
async function resolvePermission(
  call: Call,
  tool: AnyTool,
  input: unknown,
  { ctx, pre }: { ctx: ToolContext; pre: HooksOutcome },
): Promise<Step<{ input: unknown }>> {
  const hookDecision = pre.permissionDecision;
  const decision = await decidePermission(tool, input, hookDecision ? { ctx, hookDecision } : { ctx });
  call.env.emit?.({ type: 'permission_decision', toolUseId: call.id, toolName: tool.name, decision });
  // An allow that keeps the input (most calls) ends here; the rest has a function of its own, so
  // that this one, which runs per call, stays small.
  if (decision.behavior === 'allow' && decision.updatedInput === undefined) return { ok: true, input };
  return await settlePermission(call, tool, input, { ctx, decision });
}

/** 5. A decision that rewrote the input, denied, or asks: the input checked again, or the session's prompt. */
async function settlePermission(
  call: Call,
  tool: AnyTool,
  input: unknown,
  { ctx, decision }: { ctx: ToolContext; decision: PermissionDecision },
): Promise<Step<{ input: unknown }>> {
  const { env, id, signal } = call;
  if (decision.updatedInput !== undefined) {
    const reparsed = await parseAndValidate(tool, decision.updatedInput, ctx);
    if (!reparsed.ok)
      return {
        ok: false,
        message: `The permission check of ${tool.name} rewrote the input into an invalid one. ${reparsed.message}`,
      };
    input = reparsed.input;
  }
  if (decision.behavior === 'allow') return { ok: true, input };
  if (decision.behavior === 'deny' || !env.canUseTool)
    return { ok: false, message: denialMessage(tool.name, decision) };

  const suggestions = decision.suggestions ?? [];
  env.emit?.({
    type: 'permission_request',
    toolUseId: id,
    toolName: tool.name,
    input,
    reason: decision.reason,
    suggestions,
  });
  let answer;
  try {
    // A prompt that ignores the signal must not hold an aborted turn open.
    answer = await untilAborted(
      Promise.resolve().then(() =>
        env.canUseTool!(tool.name, input, { signal, suggestions, toolUseId: id, reason: decision.reason }),
      ),
      signal,
    );
  } catch (e) {
    if (signal.aborted) return { ok: false, message: cancelledMessage(tool, 'while it waited for permission') };
    return {
      ok: false,
      message: `Permission to use ${tool.name} was not granted: the permission prompt failed (${describeError(e)}).`,
    };
  }
  if (answer?.behavior !== 'allow') {
    const why = answer?.behavior === 'deny' && answer.message ? answer.message : 'the user declined';
    return { ok: false, message: `Permission to use ${tool.name} was denied: ${why}` };
  }
  if (answer.updatedInput === undefined) return { ok: true, input };
  // An input rewritten at the prompt is parsed and checked against the deny rules again.
  const reparsed = await parseAndValidate(tool, answer.updatedInput, ctx);
  if (!reparsed.ok)
    return { ok: false, message: `The input approved at the permission prompt is not valid. ${reparsed.message}` };
  decision = await decidePermission(tool, reparsed.input, {
    ctx,
    hookDecision: { behavior: 'allow', hook: 'canUseTool' },
  });
  if (decision.behavior === 'deny') return { ok: false, message: denialMessage(tool.name, decision) };
  return { ok: true, input: reparsed.input };
}

/** Whether the session has hooks for an event: with none, the step is skipped (its outcome is empty). */
function hasHooks(env: PipelineEnv, event: HookEvent): boolean {
  const groups = env.hooks?.[event];
  return groups !== undefined && groups.length > 0;
}

/** The outcome of an event with no hooks, as `runHooks` gives it: one, read only (this runs per call). */
const NO_HOOKS: HooksOutcome = Object.freeze({
  additionalContext: Object.freeze([]) as unknown as string[],
  errors: Object.freeze([]) as unknown as HooksOutcome['errors'],
  ran: 0,
});

/** The hooks of one event for this call; their errors are emitted as `hook_error` events. */
async function runEventHooks(
  call: Call,
  tool: AnyTool,
  {
    event,
    input,
    ctx,
    extra = {},
  }: { event: HookEvent; input: unknown; ctx: ToolContext; extra?: { tool_response?: unknown; error?: string } },
): Promise<HooksOutcome> {
  const { env, id, signal } = call;
  const outcome = await runHooks(
    env.hooks,
    {
      session_id: env.sessionId,
      cwd: ctx.cwd,
      // Claude Code sends it, and a guard may read it (stricter in bypassPermissions, say).
      permission_mode: ctx.permissions.mode,
      hook_event_name: event,
      tool_name: tool.name,
      tool_input: input,
      tool_use_id: id,
      ...extra,
    },
    {
      signal,
      cwd: ctx.cwd,
      // Settings' `env` reaches hooks as it reaches the tools' processes: in Claude Code it is
      // the environment of the whole session, hooks included.
      ...(ctx.env === undefined ? {} : { env: { ...ctx.env } }),
      aliases: tool.aliases,
      condition: hookConditionMatcher(tool, input, { cwd: ctx.cwd, homeDir: ctx.permissions.homeDir }),
    },
  );
  for (const error of outcome.errors) {
    env.emit?.({
      type: 'hook_error',
      toolUseId: id,
      toolName: tool.name,
      event,
      hook: error.hook,
      message: error.message,
    });
  }
  return outcome;
}

/**
 * Runs `call`, honouring the tool's `interruptBehavior`: on abort a `'cancel'` tool's result is
 * given up at once (the tool also sees the signal), a `'block'` tool is waited for.
 */
function callWithInterrupt(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  {
    signal,
    abortable,
    onProgress,
  }: { signal: AbortSignal; abortable: boolean; onProgress: (p: Record<string, unknown>) => void },
): Promise<ToolCallResult<unknown>> {
  // A tool whose `call` throws synchronously still ends as a rejection.
  let running: Promise<ToolCallResult<unknown>>;
  try {
    running = Promise.resolve(tool.call(input, ctx, { signal, onProgress }));
  } catch (e) {
    running = Promise.reject(e);
  }
  return tool.interruptBehavior === 'cancel' && abortable ? untilAborted(running, signal) : running;
}

/** The progress callback of a call whose events nobody reads. */
function ignoreProgress(): void {}

/** `work`, or a rejection as soon as `signal` aborts (the work itself goes on unobserved). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function cancelledMessage(tool: AnyTool, when: string): string {
  return `${tool.name} was cancelled ${when}: the run was aborted. Nothing further was done for this call.`;
}

function appendText(content: string, notes: readonly string[]): string;
function appendText(content: ToolResultContent, notes: readonly string[]): ToolResultContent;
function appendText(content: ToolResultContent, notes: readonly string[]): ToolResultContent {
  if (notes.length === 0) return content;
  const text = notes.join('\n');
  if (typeof content === 'string') return content ? `${content}\n\n${text}` : text;
  return [...content, { type: 'text', text }];
}
