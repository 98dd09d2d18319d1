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
import { toResponsesInput } from './_openai_messages.ts';

/** The body the adapter sends to `responses.create`; loose so the real SDK's params fit it. */
export interface OpenAIResponsesCreateBody {
  model?: string | undefined;
  input?: unknown;
  instructions?: string | null | undefined;
  tools?: unknown[] | undefined;
  max_output_tokens?: number | null | undefined;
  stream?: boolean | null | undefined;
}

/** What the adapter needs of an OpenAI client: `new OpenAI()` of `openai` fits. Typed structurally. */
export interface OpenAIResponsesClientLike {
  responses: { create(body: OpenAIResponsesCreateBody, options?: { signal?: AbortSignal }): PromiseLike<unknown> };
}

/** Options of {@linkcode openaiResponsesModel}. */
export interface OpenAIResponsesModelOptions {
  /** The client (`new OpenAI()`); its retry settings apply. */
  client: OpenAIResponsesClientLike;
  /** The model id, e.g. `gpt-5`. */
  model: string;
  /** @default 8192 */
  maxTokens?: number;
  /**
   * Milliseconds a streamed turn may go without an event before the request is closed as
   * stuck; 0 waits forever.
   * @default 300000
   */
  idleTimeoutMs?: number;
}

interface ResponseItem {
  type: string;
  content?: { type: string; text?: string }[];
  call_id?: string;
  id?: string;
  name?: string;
  arguments?: string;
}
interface ResponseObject {
  output?: ResponseItem[];
  status?: string;
  incomplete_details?: { reason?: string } | null;
  error?: { message?: string } | null;
  usage?: { input_tokens?: number; output_tokens?: number } | null;
}
interface ResponseEvent {
  type: string;
  delta?: string;
  item?: ResponseItem;
  response?: ResponseObject;
  message?: string;
}

function toolUseOf(item: ResponseItem): ToolUseBlock {
  return {
    type: 'tool_use',
    id: String(item.call_id ?? item.id),
    name: String(item.name),
    input: parseToolArguments(item.arguments),
  };
}

function turnOf(response: ResponseObject): ModelTurn {
  const content: (TextBlock | ToolUseBlock)[] = [];
  for (const item of response.output ?? []) {
    if (item.type === 'message') {
      const text = (item.content ?? [])
        .filter((c) => c.type === 'output_text')
        .map((c) => c.text ?? '')
        .join('');
      if (text) content.push({ type: 'text', text });
    } else if (item.type === 'function_call') content.push(toolUseOf(item));
  }
  const cut = response.status === 'incomplete' && response.incomplete_details?.reason === 'max_output_tokens';
  return {
    content,
    stopReason: cut
      ? 'max_tokens'
      : content.some((b) => b.type === 'tool_use')
        ? 'tool_use'
        : response.status === 'incomplete'
          ? String(response.incomplete_details?.reason ?? 'incomplete')
          : 'end_turn',
    usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 },
  };
}

/**
 * A {@linkcode ModelAdapter} for the OpenAI Responses API, whole or streamed (each
 * `function_call` is yielded at its `response.output_item.done`).
 *
 * @param options The client, the model and the max tokens.
 * @returns The adapter.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { openaiResponsesModel, runAgent } from '@toolshed/tool-agent';
 * import OpenAI from 'openai';
 * declare const session: Session;
 *
 * const model = openaiResponsesModel({ client: new OpenAI(), model: 'gpt-5' });
 * await runAgent({ session, model, prompt: 'Fix the failing test' });
 * ```
 */
export function openaiResponsesModel(options: OpenAIResponsesModelOptions): ModelAdapter {
  const { client, model } = options;
  const body = (request: ModelTurnRequest, stream: boolean): OpenAIResponsesCreateBody => {
    const out: OpenAIResponsesCreateBody = {
      model,
      input: toResponsesInput(request.messages),
      max_output_tokens: request.maxTokens ?? options.maxTokens ?? 8192,
    };
    if (request.system) out.instructions = request.system;
    if (request.tools.length) out.tools = [...request.tools];
    if (stream) out.stream = true;
    return out;
  };
  const requestOptions = (request: ModelTurnRequest) => (request.signal ? { signal: request.signal } : {});
  return {
    format: 'openai-responses',
    model,
    provider: 'openai-responses',
    withModel: (id) => openaiResponsesModel({ ...options, model: id }),
    async turn(request) {
      let reply: ResponseObject;
      try {
        reply = (await client.responses.create(body(request, false), requestOptions(request))) as ResponseObject;
      } catch (e) {
        // The SDK reads `output` of what came before returning it: a body without it fails there.
        if (e instanceof TypeError && !request.signal?.aborted)
          throw new ModelError(
            `The openai-responses model "${model}" answered HTTP 200 with a body the SDK could not read (${e.message}): not what the openai-responses API replies. Check the base URL (a proxy or another API may be answering).`,
          );
        throw modelErrorOf(e, { provider: 'openai-responses', model, signal: request.signal });
      }
      assertReplyShape(reply, { provider: 'openai-responses', model, field: 'output' });
      if (reply.status === 'failed')
        throw modelErrorOf(new Error(reply.error?.message ?? 'the response failed'), {
          provider: 'openai-responses',
          model,
          signal: request.signal,
        });
      return turnOf(reply);
    },
    async *stream(request): AsyncGenerator<ModelStreamEvent> {
      const events = guardedStream(
        (signal) =>
          client.responses.create(body(request, true), { signal }) as PromiseLike<AsyncIterable<ResponseEvent>>,
        {
          provider: 'openai-responses',
          model,
          signal: request.signal,
          idleTimeoutMs: options.idleTimeoutMs,
          output: {
            maxTokens: request.maxTokens ?? options.maxTokens ?? 8192,
            // Text and arguments both come as `delta` strings (the finished items repeat them).
            charsOf: (e) =>
              typeof (e as { delta?: unknown }).delta === 'string' ? (e as { delta: string }).delta.length : 0,
          },
        },
      );
      let final: ResponseObject | undefined;
      try {
        for await (const event of events) {
          if (event.type === 'response.output_text.delta' && event.delta) yield { type: 'text', text: event.delta };
          else if (event.type === 'response.output_item.done' && event.item?.type === 'function_call') {
            const block = toolUseOf(event.item);
            yield { type: 'tool_use', block };
          } else if (event.type === 'response.completed' || event.type === 'response.incomplete')
            final = event.response;
          else if (event.type === 'response.failed')
            throw new Error(event.response?.error?.message ?? 'the response failed');
          else if (event.type === 'error') throw new Error(event.message ?? 'the stream reported an error');
        }
        // A connection cut short ends the SDK's stream as if it were complete.
        if (!final)
          throw new ModelError(incompleteStream({ provider: 'openai-responses', model }, 'response.completed'));
      } catch (e) {
        throw modelErrorOf(e, { provider: 'openai-responses', model, signal: request.signal });
      }
      yield { type: 'done', turn: turnOf(final) };
    },
  };
}
