import type { ToolResultBlock, ToolUseBlock } from './blocks.ts';
import { contentToText } from './blocks.ts';

/** A tool call of an OpenAI Chat Completions assistant message (`message.tool_calls[i]`). */
export interface OpenAIChatToolCall {
  id: string;
  type?: 'function';
  function: { name: string; arguments: string };
}

/** A `function_call` output item of the OpenAI Responses API. */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** The `role: "tool"` message that answers one Chat Completions tool call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** The `function_call_output` input item that answers one Responses API function call. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /** Text, or — when the result holds images or PDFs — the Responses API's list of input items. */
  output: string | OpenAIResponsesOutputItem[];
}

/** One item of a `function_call_output`'s list form (the Responses API takes text, images and files). */
export type OpenAIResponsesOutputItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string };

/**
 * Turns the tool calls of an OpenAI Chat Completions message into `tool_use` blocks for
 * `session.run`. Arguments that are not valid JSON are passed on as the raw string, so the
 * pipeline answers that call with an input error the model can act on instead of throwing.
 *
 * @param toolCalls `message.tool_calls` (undefined or empty gives no blocks).
 * @returns One block per call, in order.
 *
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import { type Session, toolMessagesForOpenAIChat, toolUsesFromOpenAIChat } from '@toolshed/core';
 * declare const session: Session;
 * declare const completion: OpenAI.Chat.ChatCompletion;
 * declare const messages: OpenAI.Chat.ChatCompletionMessageParam[];
 *
 * const message = completion.choices[0]!.message;
 * const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
 * const results = await session.run(toolUsesFromOpenAIChat(calls));
 * messages.push(message, ...toolMessagesForOpenAIChat(results));
 * ```
 */
export function toolUsesFromOpenAIChat(toolCalls: readonly OpenAIChatToolCall[] | null | undefined): ToolUseBlock[] {
  return (toolCalls ?? []).map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: parseArguments(call.function.arguments),
  }));
}

/**
 * Turns the `function_call` items of an OpenAI Responses API output into `tool_use` blocks;
 * other items (messages, reasoning) are skipped.
 *
 * @param output `response.output`.
 * @returns One block per function call, in order.
 *
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import { functionCallOutputsForOpenAIResponses, type Session, toolUsesFromOpenAIResponses } from '@toolshed/core';
 * declare const session: Session;
 * declare const response: OpenAI.Responses.Response;
 *
 * // With `previous_response_id: response.id` the next request sends only the outputs
 * // (examples/src/openai_responses_loop.ts is the whole loop, type-checked against openai 6):
 * const results = await session.run(toolUsesFromOpenAIResponses(response.output));
 * const input = functionCallOutputsForOpenAIResponses(results);
 * ```
 */
export function toolUsesFromOpenAIResponses(output: readonly { type: string }[]): ToolUseBlock[] {
  return output
    .filter((item): item is OpenAIResponsesFunctionCall => item.type === 'function_call')
    .map((call) => ({ type: 'tool_use', id: call.call_id, name: call.name, input: parseArguments(call.arguments) }));
}

/**
 * The Chat Completions `role: "tool"` messages for a turn's results. OpenAI tool messages
 * carry text only: an image block becomes `[image]` (send images in a user message if the
 * model needs them), and an error result is prefixed with `Error:` since there is no
 * `is_error` flag.
 *
 * @param results What `session.run` returned.
 * @returns One message per result, in order.
 *
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import { type Session, type ToolUseBlock, toolMessagesForOpenAIChat } from '@toolshed/core';
 * declare const session: Session;
 * declare const messages: OpenAI.Chat.ChatCompletionMessageParam[];
 * declare const blocks: ToolUseBlock[];
 *
 * messages.push(...toolMessagesForOpenAIChat(await session.run(blocks)));
 * ```
 */
export function toolMessagesForOpenAIChat(results: readonly ToolResultBlock[]): OpenAIChatToolMessage[] {
  return results.map((r) => ({ role: 'tool', tool_call_id: r.tool_use_id, content: resultText(r) }));
}

/**
 * The Responses API `function_call_output` items for a turn's results. A text result is a
 * string; a result with images or PDFs is the API's list form, so the model sees them
 * (`input_image` / `input_file` as base64 data URLs). An error result is prefixed with `Error:`.
 *
 * @param results What `session.run` returned.
 * @returns One item per result, in order.
 *
 * @example
 * ```ts
 * import type OpenAI from 'openai';
 * import { functionCallOutputsForOpenAIResponses, type Session, type ToolUseBlock } from '@toolshed/core';
 * declare const session: Session;
 * declare const input: OpenAI.Responses.ResponseInputItem[];
 * declare const blocks: ToolUseBlock[];
 *
 * input.push(...functionCallOutputsForOpenAIResponses(await session.run(blocks)));
 * ```
 */
export function functionCallOutputsForOpenAIResponses(
  results: readonly ToolResultBlock[],
): OpenAIResponsesFunctionCallOutput[] {
  return results.map((r) => ({ type: 'function_call_output', call_id: r.tool_use_id, output: responsesOutput(r) }));
}

function responsesOutput(result: ToolResultBlock): string | OpenAIResponsesOutputItem[] {
  const { content } = result;
  const hasMedia =
    typeof content !== 'string' &&
    content.some((b) => b.type === 'image' || (b.type === 'document' && b.source.type === 'base64'));
  if (!hasMedia) return resultText(result);
  const items: OpenAIResponsesOutputItem[] = result.is_error ? [{ type: 'input_text', text: 'Error:' }] : [];
  for (const [i, block] of content.entries()) {
    if (block.type === 'text') items.push({ type: 'input_text', text: block.text });
    else if (block.type === 'image')
      items.push({
        type: 'input_image',
        image_url: `data:${block.source.media_type};base64,${block.source.data}`,
        detail: 'auto',
      });
    else if (block.source.type === 'base64') {
      items.push({
        type: 'input_file',
        filename: block.title ?? `document-${i + 1}.pdf`,
        file_data: `data:${block.source.media_type};base64,${block.source.data}`,
      });
    } else items.push({ type: 'input_text', text: block.source.data });
  }
  return items;
}

function parseArguments(text: string): unknown {
  if (text === '' || text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function resultText(result: ToolResultBlock): string {
  const text = contentToText(result.content);
  return result.is_error ? `Error: ${text}` : text;
}
