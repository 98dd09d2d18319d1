import { contentToText, type ToolResultBlock, type ToolUseBlock } from '@toolshed/core';
import type { AgentMessage, MessageBlock } from './model_adapter.ts';

const blocksOf = (content: AgentMessage['content']): MessageBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

function resultText(result: ToolResultBlock): string {
  const text = contentToText(result.content);
  return result.is_error ? `Error: ${text}` : text;
}

function plainText(blocks: readonly MessageBlock[]): string {
  return blocks
    .map((b) =>
      b.type === 'text' ? b.text : b.type === 'image' ? '[image]' : b.type === 'document' ? '[document]' : '',
    )
    .join('');
}

/** Anthropic-shaped messages as Chat Completions messages (system first, tool results as `tool` messages). */
export function toChatMessages(system: string | undefined, messages: readonly AgentMessage[]): unknown[] {
  const out: unknown[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const message of messages) {
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') {
      const calls = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      const text = plainText(blocks);
      const entry: Record<string, unknown> = { role: 'assistant', content: text || null };
      if (calls.length)
        entry.tool_calls = calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}) },
        }));
      out.push(entry);
      continue;
    }
    for (const block of blocks)
      if (block.type === 'tool_result')
        out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: resultText(block) });
    const text = plainText(blocks.filter((b) => b.type !== 'tool_result'));
    if (text) out.push({ role: 'user', content: text });
  }
  return out;
}

/** Anthropic-shaped messages as Responses API input items. */
export function toResponsesInput(messages: readonly AgentMessage[]): unknown[] {
  const out: unknown[] = [];
  for (const message of messages) {
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') {
      const text = plainText(blocks);
      if (text) out.push({ role: 'assistant', content: text });
      for (const b of blocks) {
        if (b.type === 'tool_use')
          out.push({
            type: 'function_call',
            call_id: b.id,
            name: b.name,
            arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}),
          });
      }
      continue;
    }
    for (const block of blocks)
      if (block.type === 'tool_result')
        out.push({ type: 'function_call_output', call_id: block.tool_use_id, output: resultText(block) });
    const text = plainText(blocks.filter((b) => b.type !== 'tool_result'));
    if (text) out.push({ role: 'user', content: text });
  }
  return out;
}

/** OpenAI's finish reasons in Anthropic's words. */
export function stopReasonOfChat(reason: string | null | undefined, hasCalls: boolean): string {
  if (reason === 'length') return 'max_tokens';
  if (reason === 'tool_calls' || reason === 'function_call') return 'tool_use';
  if (reason === 'content_filter') return 'refusal';
  return hasCalls ? 'tool_use' : 'end_turn';
}
