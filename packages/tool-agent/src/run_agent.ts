import type { Session, SessionEvent, TextBlock, ToolResultBlock, ToolUseBlock } from '@toolshed/core';
import {
  textOf,
  type AgentMessage,
  type MessageBlock,
  type ModelAdapter,
  type ModelTurn,
  type ModelUsage,
  type StopReason,
} from './model_adapter.ts';
import { BlockQueue } from './_block_queue.ts';
import { activeModels } from './_active_models.ts';
import { UniqueIds } from './_unique_ids.ts';

/** Why {@linkcode runAgent} stopped. */
export type AgentStopReason =
  | 'end_turn'
  | 'max_turns'
  | 'max_tokens'
  | 'aborted'
  | 'model_error'
  | 'refusal'
  | (string & {});

/** An event of a run, for a UI or a log. */
export type AgentEvent =
  | { type: 'turn_start'; turn: number }
  /** A piece of the model's text as it streams (the whole text of the turn when not streaming). */
  | { type: 'text'; turn: number; text: string }
  /** The model finished a `tool_use` block (its call starts now). */
  | { type: 'tool_use'; turn: number; block: ToolUseBlock }
  /** What the session reported: `tool_start`, `progress`, `permission_request`, `result`, … */
  | { type: 'session'; turn: number; event: SessionEvent }
  | { type: 'turn_end'; turn: number; stopReason: StopReason; usage: ModelUsage }
  /** Messages queued from outside (SendMessage) that joined the conversation. */
  | { type: 'inbox'; turn: number; messages: readonly string[] };

/** What {@linkcode runAgent} takes. */
export interface RunAgentOptions {
  /** The session whose tools the model calls. */
  session: Pick<Session, 'id' | 'toolsFor' | 'stream' | 'deferredNotice'>;
  model: ModelAdapter;
  system?: string | undefined;
  /** The user's request; or give `messages`. */
  prompt?: string | undefined;
  /** A conversation to continue (it is not changed; the result has the new list). */
  messages?: readonly AgentMessage[] | undefined;
  /** @default 100 */
  maxTurns?: number | undefined;
  /** Max tokens per model turn. @default the adapter's */
  maxTokens?: number | undefined;
  /** Ends the run: the model request and the running calls are aborted. */
  signal?: AbortSignal | undefined;
  onEvent?: ((event: AgentEvent) => void) | undefined;
  /**
   * Stream the model's turns, so each call starts as soon as its `tool_use` is written.
   * @default true
   */
  stream?: boolean | undefined;
  /** Messages queued from outside, read before every model turn (SendMessage's inbox). */
  inbox?: (() => readonly string[]) | undefined;
}

/** One model turn of a run. */
export interface AgentTurn {
  stopReason: StopReason;
  usage: ModelUsage;
  toolCalls: number;
}

/** What {@linkcode runAgent} returns. */
export interface RunAgentResult {
  /** The whole conversation, the given messages included. */
  messages: AgentMessage[];
  /** The model's last text. */
  text: string;
  turns: AgentTurn[];
  /** Summed over the turns. */
  usage: ModelUsage;
  /** Calls per tool name. */
  toolCalls: Record<string, number>;
  stopReason: AgentStopReason;
  /** What went wrong, when the model failed. */
  error?: string;
  durationMs: number;
}

const isMessage = (m: unknown): m is AgentMessage =>
  typeof m === 'object' &&
  m !== null &&
  ((m as AgentMessage).role === 'user' || (m as AgentMessage).role === 'assistant') &&
  (typeof (m as AgentMessage).content === 'string' || Array.isArray((m as AgentMessage).content));

/**
 * The agent loop: request → tool calls → results → request, until the model stops calling
 * tools, `maxTurns` is reached or the signal aborts. The tool list is taken again every turn
 * (ToolSearch loads tools mid-run; the request prefix stays byte-stable while the pool does not
 * change); results go back in the order of the calls and a tool's `newMessages` follow them. A
 * model error (after the SDK's own retries) ends the run with the reason and every message so
 * far.
 *
 * @param options The session, the model, the prompt and the limits.
 * @returns The messages, the final text, per-turn usage, tool-call counts and why it stopped.
 * @throws {TypeError} When neither `prompt` nor `messages` is given.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { anthropicModel, runAgent } from '@toolshed/tool-agent';
 * import Anthropic from '@anthropic-ai/sdk';
 * declare const session: Session;
 *
 * const model = anthropicModel({ client: new Anthropic(), model: 'claude-sonnet-5-5' });
 * const result = await runAgent({ session, model, prompt: 'Fix the typo in src/greeting.ts' });
 * console.log(result.text, result.stopReason, result.usage);
 * ```
 */
export async function runAgent(options: RunAgentOptions): Promise<RunAgentResult> {
  const started = performance.now();
  const { session, model, signal } = options;
  if (options.prompt === undefined && !options.messages?.length)
    throw new TypeError('runAgent needs a prompt or messages, got neither');
  const messages: AgentMessage[] = [...(options.messages ?? [])];
  if (options.prompt !== undefined) messages.push({ role: 'user', content: options.prompt });
  const maxTurns = options.maxTurns ?? 100;
  if (!(maxTurns >= 1)) throw new RangeError(`maxTurns must be at least 1, got ${maxTurns}`);
  const emit = (event: AgentEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A broken listener must not end the run.
    }
  };
  const turns: AgentTurn[] = [];
  const usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  const toolCalls: Record<string, number> = {};
  let text = '';
  let pending: string[] = [];
  const finish = (stopReason: AgentStopReason, error?: string): RunAgentResult => {
    const result: RunAgentResult = {
      messages,
      text,
      turns,
      usage,
      toolCalls,
      stopReason,
      durationMs: performance.now() - started,
    };
    if (error !== undefined) result.error = error;
    return result;
  };
  const ids = new UniqueIds(messages);
  const previousModel = activeModels.get(session.id);
  activeModels.set(session.id, model);
  try {
    for (let turnNo = 1; ; turnNo++) {
      readInbox(turnNo);
      if (signal?.aborted) return finish('aborted');
      if (turnNo > maxTurns) return finish('max_turns');
      emit({ type: 'turn_start', turn: turnNo });
      const notice = session.deferredNotice();
      const system = [options.system, notice].filter((s) => s).join('\n\n') || undefined;
      const request = {
        system,
        messages: [...messages],
        tools: session.toolsFor(model.format),
        maxTokens: options.maxTokens,
        signal,
      };
      const { turn, failure, sent, streamedText, results, extra } = await modelAndTools({
        model,
        request,
        session,
        streaming: options.stream ?? true,
        signal,
        turnNo,
        emit,
        toolCalls,
        ids,
      });
      if (failure !== undefined || !turn) {
        // Keep what the model finished before it failed, answered, so the conversation stays valid.
        const partial: MessageBlock[] = [];
        if (streamedText) partial.push({ type: 'text', text: streamedText } satisfies TextBlock);
        partial.push(...sent.map(forHistory));
        if (partial.length) messages.push({ role: 'assistant', content: partial });
        if (results.length) messages.push({ role: 'user', content: results });
        if (streamedText) text = streamedText;
        if (signal?.aborted) return finish('aborted');
        return finish(
          'model_error',
          failure instanceof Error
            ? failure.message
            : `The model returned no turn${failure === undefined ? '' : `: ${String(failure)}`}`,
        );
      }
      usage.inputTokens += turn.usage.inputTokens;
      usage.outputTokens += turn.usage.outputTokens;
      const uses = sent;
      turns.push({ stopReason: turn.stopReason, usage: turn.usage, toolCalls: uses.length });
      emit({ type: 'turn_end', turn: turnNo, stopReason: turn.stopReason, usage: turn.usage });
      const turnText = textOf(turn.content);
      if (turnText) text = turnText;
      const content = historyContent(turn.content, sent);
      if (content.length) messages.push({ role: 'assistant', content });
      if (uses.length) {
        messages.push({ role: 'user', content: results });
        messages.push(...extra);
        if (signal?.aborted) return finish('aborted');
        continue;
      }
      if (signal?.aborted) return finish('aborted');
      // A message that arrived while the model answered is read at a next turn.
      if (hasInbox()) continue;
      if (turn.stopReason === 'max_tokens' || turn.stopReason === 'refusal') return finish(turn.stopReason);
      return finish('end_turn');
    }
  } finally {
    if (activeModels.get(session.id) === model) {
      if (previousModel) activeModels.set(session.id, previousModel);
      else activeModels.delete(session.id);
    }
  }

  function hasInbox(): boolean {
    pending = [...pending, ...(options.inbox?.() ?? [])];
    return pending.length > 0;
  }

  function readInbox(turnNo: number): void {
    const incoming = [...pending, ...(options.inbox?.() ?? [])];
    pending = [];
    if (!incoming.length) return;
    emit({ type: 'inbox', turn: turnNo, messages: incoming });
    const blocks: MessageBlock[] = incoming.map((m) => ({ type: 'text', text: m }));
    const last = messages[messages.length - 1];
    if (last?.role === 'user')
      messages[messages.length - 1] = {
        role: 'user',
        content: [
          ...(typeof last.content === 'string' ? [{ type: 'text', text: last.content } as TextBlock] : last.content),
          ...blocks,
        ],
      };
    else messages.push({ role: 'user', content: blocks });
  }
}

/** What one turn's model call and tool calls produced. */
interface TurnOutcome {
  turn: ModelTurn | undefined;
  failure: unknown;
  /** The tool uses handed to the session (ids made unique), in the order they were sent. */
  sent: ToolUseBlock[];
  streamedText: string;
  results: ToolResultBlock[];
  /** Messages tools asked to append after the results. */
  extra: AgentMessage[];
}

/**
 * One turn's model call and the tool calls it asks for: streamed (each tool use runs as soon
 * as the model finishes writing it) or whole (the tools run after the model's turn).
 */
async function modelAndTools(how: {
  model: ModelAdapter;
  request: Parameters<ModelAdapter['turn']>[0];
  session: Pick<Session, 'stream'>;
  streaming: boolean;
  signal: AbortSignal | undefined;
  turnNo: number;
  emit: (event: AgentEvent) => void;
  toolCalls: Record<string, number>;
  ids: UniqueIds;
}): Promise<TurnOutcome> {
  const { model, request, session, streaming, signal, turnNo, emit, toolCalls, ids } = how;
  const results: ToolResultBlock[] = [];
  const extra: AgentMessage[] = [];
  const onSession = (event: SessionEvent) => {
    emit({ type: 'session', turn: turnNo, event });
    if (event.type !== 'result') return;
    results.push(event.result);
    toolCalls[event.toolName] = (toolCalls[event.toolName] ?? 0) + 1;
    for (const m of event.newMessages ?? []) if (isMessage(m)) extra.push(m);
  };
  let turn: ModelTurn | undefined;
  let failure: unknown;
  const sent: ToolUseBlock[] = [];
  let streamedText = '';
  if (streaming) {
    const blocks = new BlockQueue<ToolUseBlock>();
    const modelDone = (async () => {
      try {
        for await (const event of model.stream(request)) {
          if (event.type === 'text') {
            streamedText += event.text;
            emit({ type: 'text', turn: turnNo, text: event.text });
          } else if (event.type === 'tool_use') {
            const block = ids.claim(event.block);
            sent.push(block);
            emit({ type: 'tool_use', turn: turnNo, block });
            blocks.push(block);
          } else turn = event.turn;
        }
      } catch (e) {
        failure = e;
      } finally {
        blocks.end();
      }
    })();
    for await (const event of session.stream(blocks, signal ? { signal } : {})) onSession(event);
    await modelDone;
  } else {
    try {
      turn = await model.turn(request);
      const turnText = textOf(turn.content);
      if (turnText) emit({ type: 'text', turn: turnNo, text: turnText });
      for (const use of turn.content)
        if (use.type === 'tool_use') {
          const block = ids.claim(use);
          sent.push(block);
          emit({ type: 'tool_use', turn: turnNo, block });
        }
    } catch (e) {
      failure = e;
    }
    if (sent.length) for await (const event of session.stream(sent, signal ? { signal } : {})) onSession(event);
  }
  return { turn, failure, sent, streamedText, results, extra };
}

/**
 * A call as the conversation keeps it: the API takes only an object as a `tool_use` input, so
 * one the model wrote as an array, a number or cut-off JSON (the call got an input error) is
 * kept as `{}` — else every later request of the run would be refused.
 */
function forHistory(block: ToolUseBlock): ToolUseBlock {
  const { input } = block;
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? block : { ...block, input: {} };
}

/**
 * The assistant message of a turn: its text in place, and exactly the calls that were sent to
 * the session (the k-th `tool_use` of the turn is the k-th call sent), so every `tool_use` has
 * its result under the same id.
 */
function historyContent(content: readonly (TextBlock | ToolUseBlock)[], sent: readonly ToolUseBlock[]): MessageBlock[] {
  const out: MessageBlock[] = [];
  let next = 0;
  for (const block of content) {
    if (block.type !== 'tool_use') out.push(block);
    else if (next < sent.length) out.push(forHistory(sent[next++]!));
  }
  for (const block of sent.slice(next)) out.push(forHistory(block));
  return out;
}
