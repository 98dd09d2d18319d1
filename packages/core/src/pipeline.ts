import type { AnyTool, ToolCallResult, ToolContext } from './tool.ts';
import { contentToText, type ToolResultBlock, type ToolResultContent, type ToolUseBlock } from './blocks.ts';
import type { HooksConfig, HooksOutcome, HookEvent } from './hooks/types.ts';
import type { CanUseTool } from './permissions/types.ts';
import type { SessionEvent } from './session_types.ts';
import type { ToolPool } from './pool.ts';
import type { MetricsRecorder } from './results/metrics.ts';
import { closestNames } from './closest_names.ts';
import { formatInputError } from './input_errors.ts';
import { runHooks } from './hooks/run_hooks.ts';
import { decidePermission, denialMessage } from './permissions/decide_permission.ts';
import { persistLargeResult } from './results/result_budget.ts';
import { deniedQuoteGuard } from './results/denied_quote_guard.ts';
import { describeError } from './describe_error.ts';

/** What the pipeline needs from its session. */
export interface PipelineEnv {
  sessionId: string;
  pool: ToolPool;
  hooks: HooksConfig | undefined;
  canUseTool: CanUseTool | undefined;
  /** The context of a call, from the session's current context. */
  makeContext(toolUseId: string, signal: AbortSignal): ToolContext;
  emit(event: SessionEvent): void;
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
 * 3. validate, 4. PreToolUse hooks, 5. permission, 6. call, 7. post (one helper below each) — and
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
export async function runToolUse(
  block: ToolUseBlock,
  env: PipelineEnv,
  { signal }: RunToolUseOptions,
): Promise<CallOutcome> {
  const call: Call = {
    env,
    signal,
    started: performance.now(),
    id: typeof block.id === 'string' ? block.id : String(block.id),
    name: typeof block.name === 'string' ? block.name : String(block.name),
  };
  try {
    return await runSteps(call, block.input);
  } catch (e) {
    // A bug in a tool's hook, matcher or renderer must still end as a result, never a throw.
    return finish(call, `${call.name} failed: ${describeError(e)}`, true);
  }
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

/** The seven steps in order; each helper's verdict either goes on or ends the call. */
async function runSteps(call: Call, rawInput: unknown): Promise<CallOutcome> {
  const found = await findTool(call);
  if (!found.ok) return finish(call, found.message, true);
  const { tool } = found;
  const ctx = call.env.makeContext(call.id, call.signal);
  const parsed = await parseAndValidate(tool, rawInput, ctx);
  if (!parsed.ok) return finish(call, parsed.message, true);
  const pre = await preToolUse(call, tool, parsed.input, ctx);
  if (!pre.ok) return finish(call, pre.message, true);
  const permitted = await resolvePermission(call, tool, pre.input, { ctx, pre: pre.outcome });
  if (!permitted.ok) return finish(call, permitted.message, true);
  const called = await callTool(call, tool, permitted.input, ctx);
  if (!called.ok) return finish(call, called.message, true);
  return post(call, tool, permitted.input, { ctx, pre: pre.outcome, output: called.output });
}

/** 1. Find, by exact name then alias; a lazy family is imported here. */
async function findTool(call: Call): Promise<Step<{ tool: AnyTool }>> {
  const { env, name } = call;
  const tool = await env.pool.resolve(name);
  if (!tool) {
    const near = closestNames(name, env.pool.names());
    return {
      ok: false,
      message: `No such tool available: ${name}.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
    };
  }
  if (env.pool.isDeferred(tool.name) && !env.pool.isVisible(tool.name)) await env.pool.load([tool.name]);
  if (call.signal.aborted) return { ok: false, message: cancelledMessage(tool, 'before it started') };
  return { ok: true, tool };
}

/** 2. Parse, and 3. validate: the input against the tool's schema, then the tool's own check. */
async function parseAndValidate(tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<Step<{ input: unknown }>> {
  const parsed = parseInput(tool, raw);
  if (!parsed.ok) return parsed;
  return validateParsed(tool, parsed.input, ctx);
}

/** 2. Parse the input with the tool's schema. */
function parseInput(tool: AnyTool, raw: unknown): Step<{ input: unknown }> {
  const parsed = tool.inputSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, message: formatInputError(parsed.error, { toolName: tool.name, input: raw }) };
  return { ok: true, input: parsed.data };
}

/** 3. Validate the parsed input with the tool's `validateInput`. */
async function validateParsed(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<Step<{ input: unknown }>> {
  let validation;
  try {
    validation = await tool.validateInput(input, ctx);
  } catch (e) {
    return { ok: false, message: `${tool.name} could not check its input: ${describeError(e)}` };
  }
  if (!validation.result) return { ok: false, message: validation.message };
  return { ok: true, input };
}

/** 4. PreToolUse hooks: block, rewrite the input, or decide the permission. */
async function preToolUse(
  call: Call,
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
): Promise<Step<{ input: unknown; outcome: HooksOutcome }>> {
  const outcome = await runEventHooks(call, tool, { event: 'PreToolUse', input, ctx });
  if (outcome.blocked)
    return {
      ok: false,
      message: `${tool.name} was blocked by PreToolUse hook "${outcome.blocked.hook}": ${outcome.blocked.reason}`,
    };
  if (!outcome.updatedInput) return { ok: true, input, outcome };
  const reparsed = await parseAndValidate(tool, outcome.updatedInput, ctx);
  if (!reparsed.ok)
    return { ok: false, message: `The input that a PreToolUse hook rewrote is not valid. ${reparsed.message}` };
  return { ok: true, input: reparsed.input, outcome };
}

/** 5. Permission: the rules, the hooks' decision, and when it asks, the session's prompt. */
async function resolvePermission(
  call: Call,
  tool: AnyTool,
  input: unknown,
  { ctx, pre }: { ctx: ToolContext; pre: HooksOutcome },
): Promise<Step<{ input: unknown }>> {
  const { env, id, signal } = call;
  const hookDecision = pre.permissionDecision;
  let decision = await decidePermission(tool, input, hookDecision ? { ctx, hookDecision } : { ctx });
  env.emit({ type: 'permission_decision', toolUseId: id, toolName: tool.name, decision });
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
  env.emit({
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

/** 6. Call; a throw (or an abort of a `'cancel'` tool) ends as an error, after the PostToolUseFailure hooks. */
async function callTool(
  call: Call,
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
): Promise<Step<{ output: ToolCallResult<unknown> }>> {
  const { env, id, signal } = call;
  env.emit({ type: 'tool_start', toolUseId: id, toolName: tool.name, input });
  try {
    const output = await callWithInterrupt(tool, input, ctx, signal, (progress) =>
      env.emit({ type: 'progress', toolUseId: id, toolName: tool.name, progress }),
    );
    return { ok: true, output };
  } catch (e) {
    const message = signal.aborted
      ? cancelledMessage(tool, 'while it was running')
      : `${tool.name} failed: ${describeError(e)}`;
    const failure = await runEventHooks(call, tool, {
      event: 'PostToolUseFailure',
      input,
      ctx,
      extra: { error: message },
    });
    return { ok: false, message: appendText(message, failure.additionalContext) };
  }
}

/** 7. Post: map, apply the result budget, PostToolUse hooks. */
async function post(
  call: Call,
  tool: AnyTool,
  input: unknown,
  { ctx, pre, output }: { ctx: ToolContext; pre: HooksOutcome; output: ToolCallResult<unknown> },
): Promise<CallOutcome> {
  const { env, id } = call;
  let content = tool.mapResult(output.data, id);
  const maxChars = Math.min(
    tool.maxResultSizeChars,
    tool.maxResultSizeChars === Infinity ? Infinity : env.maxResultSizeChars,
  );
  const budget = await persistLargeResult(content, {
    toolUseId: id,
    stateDir: ctx.stateDir,
    maxChars,
    refuseToSave: deniedQuoteGuard(ctx),
  });
  content = budget.content;
  if (budget.persistError)
    env.emit({
      type: 'notice',
      level: 'warn',
      message: `The output of ${tool.name} (${id}) could not be saved to disk (${budget.persistError}); it is returned whole.`,
    });
  const isError = output.isError === true;
  const postOutcome = isError
    ? await runEventHooks(call, tool, {
        event: 'PostToolUseFailure',
        input,
        ctx,
        extra: { error: contentToText(content) },
      })
    : await runEventHooks(call, tool, { event: 'PostToolUse', input, ctx, extra: { tool_response: output.data } });
  const notes = [...pre.additionalContext, ...postOutcome.additionalContext];
  if (postOutcome.blocked)
    notes.unshift(
      `${isError ? 'PostToolUseFailure' : 'PostToolUse'} hook "${postOutcome.blocked.hook}" flagged this result: ${postOutcome.blocked.reason}`,
    );
  const extra: Partial<CallOutcome> = {};
  if (budget.persistedPath) extra.persistedPath = budget.persistedPath;
  if (output.contextModifier) extra.contextModifier = output.contextModifier;
  if (output.newMessages?.length) extra.newMessages = output.newMessages;
  return finish(call, appendText(content, notes), isError, extra);
}

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
      hook_event_name: event,
      tool_name: tool.name,
      tool_input: input,
      tool_use_id: id,
      ...extra,
    },
    { signal, cwd: ctx.cwd },
  );
  for (const error of outcome.errors) {
    env.emit({
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
  signal: AbortSignal,
  onProgress: (p: Record<string, unknown>) => void,
): Promise<ToolCallResult<unknown>> {
  // Through a promise, so a tool whose `call` throws synchronously still ends as a rejection.
  const running = Promise.resolve().then(() => tool.call(input, ctx, { signal, onProgress }));
  return tool.interruptBehavior === 'cancel' ? untilAborted(running, signal) : running;
}

/** `work`, or a rejection as soon as `signal` aborts (the work itself goes on unobserved). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
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
