import type { TextBlock, ToolUseBlock } from '@toolshed/core';
import { assertReplyShape } from './_reply_shape.ts';
import { guardedStream, incompleteStream } from './_stream_guard.ts';
import {
  ModelError,
  modelErrorOf,
  parseToolArguments,
  type ModelAdapter,
  type ModelStreamEvent,
  type ModelTurn,
  type ModelTurnRequest,
} from './model_adapter.ts';

/** The body the adapter sends to `messages.create`; loose so the real SDK's params fit it. */
export interface AnthropicCreateBody {
  model: string;
  max_tokens: number;
  messages: unknown[];
  system?: unknown;
  tools?: unknown[];
  stream?: boolean;
}

/**
 * What the adapter needs of an Anthropic client: `new Anthropic()` of `@anthropic-ai/sdk` fits,
 * and so does anything with the same `messages.create`. Typed structurally, so tool-agent does
 * not depend on the SDK at run time.
 */
export interface AnthropicClientLike {
  messages: {
    create(body: AnthropicCreateBody, options?: { signal?: AbortSignal }): PromiseLike<unknown>;
  };
}

/** Options of {@linkcode anthropicModel}. */
export interface AnthropicModelOptions {
  /** The client (`new Anthropic()`); its retry settings (`maxRetries`) apply. */
  client: AnthropicClientLike;
  /** The model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** @default 8192 */
  maxTokens?: number;
  /**
   * Milliseconds a streamed turn may go without an event (Anthropic sends pings while the
   * model thinks) before the request is closed as stuck; 0 waits forever.
   * @default 300000
   */
  idleTimeoutMs?: number;
}

interface AnthropicMessage {
  content?: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
}

interface AnthropicEvent {
  type: string;
  index?: number;
  message?: AnthropicMessage;
  content_block?: { type: string; text?: string; id?: string; name?: string; input?: unknown };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { input_tokens?: number | null; output_tokens?: number | null };
}

/**
 * A {@linkcode ModelAdapter} for the Anthropic Messages API, whole (`turn`) or streamed
 * (`stream`, which yields each `tool_use` at its `content_block_stop`).
 *
 * @param options The client, the model and the default max tokens.
 * @returns The adapter.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { anthropicModel, runAgent } from '@toolshed/tool-agent';
 * import Anthropic from '@anthropic-ai/sdk';
 * declare const session: Session;
 *
 * const model = anthropicModel({ client: new Anthropic(), model: 'claude-sonnet-5-5' });
 * const result = await runAgent({ session, model, prompt: 'Fix the typo in src/a.ts' });
 * ```
 */
export function anthropicModel(options: AnthropicModelOptions): ModelAdapter {
  const { client, model } = options;
  const body = (request: ModelTurnRequest, stream: boolean): AnthropicCreateBody => {
    const out: AnthropicCreateBody = {
      model,
      max_tokens: request.maxTokens ?? options.maxTokens ?? 8192,
      messages: [...request.messages],
    };
    if (request.system) out.system = request.system;
    if (request.tools.length) out.tools = [...request.tools];
    if (stream) out.stream = true;
    return out;
  };
  const requestOptions = (request: ModelTurnRequest) => (request.signal ? { signal: request.signal } : {});
  return {
    format: 'anthropic',
    model,
    provider: 'anthropic',
    withModel: (id) => anthropicModel({ ...options, model: id }),
    async turn(request) {
      let reply: AnthropicMessage;
      try {
        reply = (await client.messages.create(body(request, false), requestOptions(request))) as AnthropicMessage;
      } catch (e) {
        throw modelErrorOf(e, { provider: 'anthropic', model, signal: request.signal });
      }
      assertReplyShape(reply, { provider: 'anthropic', model, field: 'content' });
      const content: (TextBlock | ToolUseBlock)[] = [];
      for (const block of reply.content ?? []) {
        if (block.type === 'text') content.push({ type: 'text', text: block.text ?? '' });
        else if (block.type === 'tool_use')
          content.push({ type: 'tool_use', id: String(block.id), name: String(block.name), input: block.input ?? {} });
      }
      return {
        content,
        stopReason: reply.stop_reason ?? 'end_turn',
        usage: { inputTokens: reply.usage?.input_tokens ?? 0, outputTokens: reply.usage?.output_tokens ?? 0 },
      };
    },
    async *stream(request): AsyncGenerator<ModelStreamEvent> {
      const events = guardedStream(
        (signal) =>
          client.messages.create(body(request, true), { signal }) as PromiseLike<AsyncIterable<AnthropicEvent>>,
        {
          provider: 'anthropic',
          model,
          signal: request.signal,
          idleTimeoutMs: options.idleTimeoutMs,
          output: {
            maxTokens: body(request, true).max_tokens,
            charsOf: (e) => (e.delta?.text?.length ?? 0) + (e.delta?.partial_json?.length ?? 0),
          },
        },
      );
      const blocks = new Map<
        number,
        { kind: 'text'; text: string } | { kind: 'tool_use'; id: string; name: string; json: string; input: unknown }
      >();
      const turn: ModelTurn = { content: [], stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 } };
      const finished: (TextBlock | ToolUseBlock | undefined)[] = [];
      let stopped = false;
      try {
        for await (const event of events) {
          const index = event.index ?? 0;
          switch (event.type) {
            case 'message_start':
              turn.usage.inputTokens = event.message?.usage?.input_tokens ?? 0;
              turn.usage.outputTokens = event.message?.usage?.output_tokens ?? 0;
              break;
            case 'content_block_start': {
              const block = event.content_block;
              if (block?.type === 'text') blocks.set(index, { kind: 'text', text: block.text ?? '' });
              else if (block?.type === 'tool_use')
                blocks.set(index, {
                  kind: 'tool_use',
                  id: String(block.id),
                  name: String(block.name),
                  json: '',
                  input: block.input,
                });
              break;
            }
            case 'content_block_delta': {
              const block = blocks.get(index);
              if (block?.kind === 'text' && event.delta?.type === 'text_delta') {
                block.text += event.delta.text ?? '';
                if (event.delta.text) yield { type: 'text', text: event.delta.text };
              } else if (block?.kind === 'tool_use' && event.delta?.type === 'input_json_delta') {
                block.json += event.delta.partial_json ?? '';
              }
              break;
            }
            case 'content_block_stop': {
              const block = blocks.get(index);
              if (block?.kind === 'text') finished[index] = { type: 'text', text: block.text };
              else if (block?.kind === 'tool_use') {
                const input = block.json ? parseToolArguments(block.json) : (block.input ?? {});
                const done: ToolUseBlock = { type: 'tool_use', id: block.id, name: block.name, input };
                finished[index] = done;
                yield { type: 'tool_use', block: done };
              }
              blocks.delete(index);
              break;
            }
            case 'message_delta':
              if (event.delta?.stop_reason) turn.stopReason = event.delta.stop_reason;
              if (typeof event.usage?.output_tokens === 'number') turn.usage.outputTokens = event.usage.output_tokens;
              if (typeof event.usage?.input_tokens === 'number') turn.usage.inputTokens = event.usage.input_tokens;
              break;
            case 'message_stop':
              stopped = true;
              break;
            case 'error':
              throw new Error(JSON.stringify((event as { error?: unknown }).error ?? event));
          }
        }
        // A connection cut short ends the SDK's stream as if it were complete.
        if (!stopped) throw new ModelError(incompleteStream({ provider: 'anthropic', model }, 'message_stop'));
      } catch (e) {
        throw modelErrorOf(e, { provider: 'anthropic', model, signal: request.signal });
      }
      // A block the stream never closed (cut off) is left out: its input is incomplete.
      turn.content = finished.filter((b): b is TextBlock | ToolUseBlock => b !== undefined);
      yield { type: 'done', turn };
    },
  };
}
