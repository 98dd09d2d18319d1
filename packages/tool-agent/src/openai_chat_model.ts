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
import { stopReasonOfChat, toChatMessages } from './_openai_messages.ts';

/** The body the adapter sends to `chat.completions.create`; loose so the real SDK's params fit it. */
export interface OpenAIChatCreateBody {
  model: string;
  messages: unknown[];
  tools?: unknown[] | undefined;
  max_tokens?: number | null | undefined;
  max_completion_tokens?: number | null | undefined;
  stream?: boolean | null | undefined;
  stream_options?: unknown;
}

/**
 * What the adapter needs of an OpenAI client: `new OpenAI()` of `openai` fits (with `baseURL`
 * for llama.cpp, Ollama, vLLM and other compatible servers). Typed structurally.
 */
export interface OpenAIChatClientLike {
  chat: {
    completions: { create(body: OpenAIChatCreateBody, options?: { signal?: AbortSignal }): PromiseLike<unknown> };
  };
}

/** Options of {@linkcode openaiChatModel}. */
export interface OpenAIChatModelOptions {
  /** The client (`new OpenAI({ baseURL })`); its retry settings apply. */
  client: OpenAIChatClientLike;
  /** The model id, e.g. `gpt-4.1` or a local server's model name. */
  model: string;
  /** @default 8192 */
  maxTokens?: number;
  /**
   * Milliseconds a streamed turn may go without an event before the request is closed as
   * stuck; 0 waits forever.
   * @default 300000
   */
  idleTimeoutMs?: number;
  /**
   * Which field carries the cap: `max_tokens` (what compatible servers read) or
   * `max_completion_tokens` (what OpenAI's reasoning models require).
   * @default 'max_tokens'
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

interface ChatToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface ChatCompletion {
  choices?: { message?: { content?: string | null; tool_calls?: ChatToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}
interface ChatChunk {
  choices?: { delta?: { content?: string | null; tool_calls?: ChatToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

function complete(args: string): boolean {
  if (!args.trimEnd().endsWith('}')) return false;
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

let fallbackIds = 0;
const callId = (id: string | undefined) => id || `call_${Date.now().toString(36)}_${fallbackIds++}`;

/**
 * A {@linkcode ModelAdapter} for OpenAI Chat Completions and compatible servers, whole or
 * streamed (a tool call is yielded once its arguments form a whole JSON object, the next one
 * starts or the turn ends).
 *
 * @param options The client, the model and the max tokens.
 * @returns The adapter.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { openaiChatModel, runAgent } from '@toolshed/tool-agent';
 * import OpenAI from 'openai';
 * declare const session: Session;
 *
 * const model = openaiChatModel({ client: new OpenAI({ baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'local' }), model: 'qwen3' });
 * await runAgent({ session, model, prompt: 'List the TODOs in src' });
 * ```
 */
export function openaiChatModel(options: OpenAIChatModelOptions): ModelAdapter {
  const { client, model } = options;
  const body = (request: ModelTurnRequest, stream: boolean): OpenAIChatCreateBody => {
    const out: OpenAIChatCreateBody = { model, messages: toChatMessages(request.system, request.messages) };
    if (request.tools.length) out.tools = [...request.tools];
    out[options.maxTokensField ?? 'max_tokens'] = request.maxTokens ?? options.maxTokens ?? 8192;
    if (stream) {
      out.stream = true;
      out.stream_options = { include_usage: true };
    }
    return out;
  };
  const requestOptions = (request: ModelTurnRequest) => (request.signal ? { signal: request.signal } : {});
  return {
    format: 'openai',
    model,
    provider: 'openai-chat',
    withModel: (id) => openaiChatModel({ ...options, model: id }),
    async turn(request) {
      let reply: ChatCompletion;
      try {
        reply = (await client.chat.completions.create(body(request, false), requestOptions(request))) as ChatCompletion;
      } catch (e) {
        throw modelErrorOf(e, { provider: 'openai-chat', model, signal: request.signal });
      }
      assertReplyShape(reply, { provider: 'openai-chat', model, field: 'choices' });
      const choice = reply.choices?.[0];
      const content: (TextBlock | ToolUseBlock)[] = [];
      if (choice?.message?.content) content.push({ type: 'text', text: choice.message.content });
      for (const call of choice?.message?.tool_calls ?? []) {
        content.push({
          type: 'tool_use',
          id: callId(call.id),
          name: call.function?.name ?? '',
          input: parseToolArguments(call.function?.arguments),
        });
      }
      return {
        content,
        stopReason: stopReasonOfChat(
          choice?.finish_reason,
          content.some((b) => b.type === 'tool_use'),
        ),
        usage: { inputTokens: reply.usage?.prompt_tokens ?? 0, outputTokens: reply.usage?.completion_tokens ?? 0 },
      };
    },
    async *stream(request): AsyncGenerator<ModelStreamEvent> {
      const chunks = guardedStream(
        (signal) =>
          client.chat.completions.create(body(request, true), { signal }) as PromiseLike<AsyncIterable<ChatChunk>>,
        {
          provider: 'openai-chat',
          model,
          signal: request.signal,
          idleTimeoutMs: options.idleTimeoutMs,
          output: {
            maxTokens: request.maxTokens ?? options.maxTokens ?? 8192,
            charsOf: (c) => {
              const delta = c.choices?.[0]?.delta;
              let n = delta?.content?.length ?? 0;
              for (const call of delta?.tool_calls ?? []) n += call.function?.arguments?.length ?? 0;
              return n;
            },
          },
        },
      );
      const turn: ModelTurn = { content: [], stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 } };
      let text = '';
      const calls = new Map<number, { id: string | undefined; name: string; args: string }>();
      const done: ToolUseBlock[] = [];
      let finishReason: string | null | undefined;
      const finish = (index: number): ToolUseBlock => {
        const call = calls.get(index)!;
        calls.delete(index);
        const block: ToolUseBlock = {
          type: 'tool_use',
          id: callId(call.id),
          name: call.name,
          input: parseToolArguments(call.args),
        };
        done.push(block);
        return block;
      };
      try {
        for await (const chunk of chunks) {
          if (chunk.usage) {
            turn.usage.inputTokens = chunk.usage.prompt_tokens ?? turn.usage.inputTokens;
            turn.usage.outputTokens = chunk.usage.completion_tokens ?? turn.usage.outputTokens;
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          if (choice.delta?.content) {
            text += choice.delta.content;
            yield { type: 'text', text: choice.delta.content };
          }
          for (const delta of choice.delta?.tool_calls ?? []) {
            const index = delta.index ?? 0;
            // A new call means every earlier one is complete.
            for (const open of [...calls.keys()].filter((i) => i < index))
              yield { type: 'tool_use', block: finish(open) };
            const call = calls.get(index) ?? { id: undefined, name: '', args: '' };
            if (delta.id) call.id = delta.id;
            if (delta.function?.name) call.name += delta.function.name;
            if (delta.function?.arguments) call.args += delta.function.arguments;
            calls.set(index, call);
            // Chat Completions never says a call is done; arguments that parse as a whole
            // object are (no longer prefix of an object parses), so the call can start now.
            if (call.name && complete(call.args)) yield { type: 'tool_use', block: finish(index) };
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        // A connection cut short ends the SDK's stream as if it were complete.
        if (!finishReason) throw new ModelError(incompleteStream({ provider: 'openai-chat', model }, 'finish_reason'));
      } catch (e) {
        throw modelErrorOf(e, { provider: 'openai-chat', model, signal: request.signal });
      }
      // Cut off at max tokens, the open call is incomplete: it is left out.
      if (finishReason !== 'length') {
        for (const open of [...calls.keys()].sort((a, b) => a - b)) yield { type: 'tool_use', block: finish(open) };
      }
      if (text) turn.content.push({ type: 'text', text });
      turn.content.push(...done);
      turn.stopReason = stopReasonOfChat(finishReason, done.length > 0);
      yield { type: 'done', turn };
    },
  };
}
