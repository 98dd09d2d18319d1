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

/**
 * Runs one `tool_use` through the seven steps of docs/architecture.md — find, parse, validate,
 * PreToolUse hooks, permission, call, post — and returns its `tool_result`. Every failure is
 * an `is_error` result in words a model can act on; this function does not throw.
 *
 * @param block The model's `tool_use` block.
 * @param env The session's internals.
 * @param signal Aborts the call.
 * @returns The result and what the orchestrator needs.
 *
 * @example
 * ```ts
 * import { type PipelineEnv, runToolUse } from './pipeline.ts';
 * declare const env: PipelineEnv;
 * const signal = AbortSignal.timeout(30_000);
 *
 * const outcome = await runToolUse({ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }, env, signal);
 * outcome.result.is_error; // undefined when the call succeeded
 * ```
 */
export async function runToolUse(block: ToolUseBlock, env: PipelineEnv, signal: AbortSignal): Promise<CallOutcome> {
  const started = performance.now();
  const id = typeof block.id === 'string' ? block.id : String(block.id);
  const name = typeof block.name === 'string' ? block.name : String(block.name);
  const finish = (content: ToolResultContent, isError: boolean, extra: Partial<CallOutcome> = {}): CallOutcome => {
    const durationMs = performance.now() - started;
    env.metrics.record(name, { durationMs, isError, persisted: extra.persistedPath !== undefined });
    const result: ToolResultBlock = { type: 'tool_result', tool_use_id: id, content };
    if (isError) result.is_error = true;
    return { toolName: name, result, durationMs, ...extra };
  };
  try {
    return await runSteps();
  } catch (e) {
    // A bug in a tool's hook, matcher or renderer must still end as a result, never a throw.
    return finish(`${name} failed: ${describeError(e)}`, true);
  }

  async function runSteps(): Promise<CallOutcome> {
    // 1. Find, by exact name then alias; a lazy family is imported here.
    const tool = await env.pool.resolve(name);
    if (!tool) {
      const near = closestNames(name, env.pool.names());
      return finish(
        `No such tool available: ${name}.${near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : ''}`,
        true,
      );
    }
    if (env.pool.isDeferred(tool.name) && !env.pool.isVisible(tool.name)) await env.pool.load([tool.name]);
    if (signal.aborted) return finish(cancelledMessage(tool, 'before it started'), true);
    const ctx = env.makeContext(id, signal);

    // 2. Parse, and 3. validate.
    const parsed = await parseAndValidate(tool, block.input, ctx);
    if (!parsed.ok) return finish(parsed.message, true);
    let input = parsed.input;

    // 4. PreToolUse hooks: block, rewrite the input, or decide the permission.
    const pre = await runEventHooks('PreToolUse', tool, input, ctx);
    if (pre.blocked)
      return finish(`${tool.name} was blocked by PreToolUse hook "${pre.blocked.hook}": ${pre.blocked.reason}`, true);
    if (pre.updatedInput) {
      const reparsed = await parseAndValidate(tool, pre.updatedInput, ctx);
      if (!reparsed.ok)
        return finish(`The input that a PreToolUse hook rewrote is not valid. ${reparsed.message}`, true);
      input = reparsed.input;
    }

    // 5. Permission.
    const permitted = await resolvePermission(tool, input, ctx, pre);
    if (!permitted.ok) return finish(permitted.message, true);
    input = permitted.input;

    // 6. Call.
    env.emit({ type: 'tool_start', toolUseId: id, toolName: tool.name, input });
    let output: ToolCallResult<unknown>;
    try {
      output = await callWithInterrupt(tool, input, ctx, signal, (progress) =>
        env.emit({ type: 'progress', toolUseId: id, toolName: tool.name, progress }),
      );
    } catch (e) {
      const message = signal.aborted
        ? cancelledMessage(tool, 'while it was running')
        : `${tool.name} failed: ${describeError(e)}`;
      const failure = await runEventHooks('PostToolUseFailure', tool, input, ctx, { error: message });
      return finish(appendText(message, failure.additionalContext), true);
    }

    // 7. Post: map, apply the result budget, PostToolUse hooks.
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
    const post = isError
      ? await runEventHooks('PostToolUseFailure', tool, input, ctx, { error: contentToText(content) })
      : await runEventHooks('PostToolUse', tool, input, ctx, { tool_response: output.data });
    const notes = [...pre.additionalContext, ...post.additionalContext];
    if (post.blocked)
      notes.unshift(
        `${isError ? 'PostToolUseFailure' : 'PostToolUse'} hook "${post.blocked.hook}" flagged this result: ${post.blocked.reason}`,
      );
    const extra: Partial<CallOutcome> = {};
    if (budget.persistedPath) extra.persistedPath = budget.persistedPath;
    if (output.contextModifier) extra.contextModifier = output.contextModifier;
    if (output.newMessages?.length) extra.newMessages = output.newMessages;
    return finish(appendText(content, notes), isError, extra);
  }

  async function runEventHooks(
    event: HookEvent,
    tool: AnyTool,
    input: unknown,
    ctx: ToolContext,
    extra: { tool_response?: unknown; error?: string } = {},
  ): Promise<HooksOutcome> {
    const outcome = await runHooks(
      env.hooks,
      event,
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

  async function resolvePermission(
    tool: AnyTool,
    input: unknown,
    ctx: ToolContext,
    pre: HooksOutcome,
  ): Promise<{ ok: true; input: unknown } | { ok: false; message: string }> {
    const hookDecision = pre.permissionDecision;
    let decision = await decidePermission(tool, input, { ctx, ...(hookDecision ? { hookDecision } : {}) });
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
}

async function parseAndValidate(
  tool: AnyTool,
  raw: unknown,
  ctx: ToolContext,
): Promise<{ ok: true; input: unknown } | { ok: false; message: string }> {
  const parsed = tool.inputSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: formatInputError(tool.name, parsed.error, raw) };
  let validation;
  try {
    validation = await tool.validateInput(parsed.data, ctx);
  } catch (e) {
    return { ok: false, message: `${tool.name} could not check its input: ${describeError(e)}` };
  }
  if (!validation.result) return { ok: false, message: validation.message };
  return { ok: true, input: parsed.data };
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

function appendText(content: ToolResultContent, notes: readonly string[]): ToolResultContent {
  if (notes.length === 0) return content;
  const text = notes.join('\n');
  if (typeof content === 'string') return content ? `${content}\n\n${text}` : text;
  return [...content, { type: 'text', text }];
}
