/** A text block of `tool_result` content. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** An image block of `tool_result` content (Anthropic's shape). */
export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string };
}

/** A document block (a PDF, for instance), Anthropic's shape. */
export interface DocumentBlock {
  type: 'document';
  source:
    | { type: 'base64'; media_type: 'application/pdf'; data: string }
    | { type: 'text'; media_type: 'text/plain'; data: string };
  title?: string;
}

/** One block of `tool_result` content. */
export type ContentBlock = TextBlock | ImageBlock | DocumentBlock;

/** What a `tool_result` carries: plain text or a list of blocks. */
export type ToolResultContent = string | ContentBlock[];

/**
 * A model's request to run a tool, in Anthropic's shape (`id`, `name`, `input`).
 *
 * @example
 * ```ts
 * import type { ToolUseBlock } from '@toolshed/core';
 *
 * const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } };
 * ```
 */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/**
 * The answer to one {@linkcode ToolUseBlock}, in Anthropic's shape.
 *
 * @example
 * ```ts
 * import type { ToolResultBlock } from '@toolshed/core';
 *
 * const result: ToolResultBlock = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' };
 * ```
 */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
}

/**
 * The text of a `tool_result` content; non-text blocks are shown as `[image]`, `[document]`.
 *
 * @param content A string or a list of content blocks.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { contentToText } from '@toolshed/core';
 *
 * contentToText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // "a\nb"
 * ```
 */
export function contentToText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}
