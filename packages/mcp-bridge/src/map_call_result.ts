import type { ContentBlock, ImageBlock, ToolResultContent } from '@toolshed/core';

/** One block of an MCP `CallToolResult`'s `content` (the kinds of the 2025-06-18 spec). */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

/** What an MCP server answers to `tools/call`, as far as the bridge reads it. */
export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Maps an MCP tool result to `tool_result` content: text as text, images the model can see as
 * image blocks, PDFs as documents, and what a model cannot take in (audio, other binaries) as a
 * line that says what was there. A resource link names the URI to read with `ReadMcpResource`.
 * `structuredContent` is added as JSON when no text block carries the result (the spec asks servers
 * to send its serialized form as text too; adding it again would double the tokens).
 * All-text results become one string, so the result budget measures and previews them as text.
 *
 * @param result The server's result.
 * @param server The server's name, for the resource-link hint.
 * @returns The content for the `tool_result`.
 *
 * @example
 * ```ts
 * import { mapCallResult } from '@toolshed/mcp-bridge';
 *
 * mapCallResult({ content: [{ type: 'text', text: 'hi' }] }, 'everything'); // 'hi'
 * ```
 */
export function mapCallResult(result: McpCallResult, server: string): ToolResultContent {
  // One text block and nothing else (most results): its text, with nothing to build.
  const only = result.content?.length === 1 ? result.content[0] : undefined;
  if (only?.type === 'text' && result.structuredContent === undefined) return String(only.text);
  const blocks: ContentBlock[] = [];
  const text = (t: string) => blocks.push({ type: 'text', text: t });
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        text(String(block.text));
        break;
      case 'image': {
        const { data, mimeType } = block as { data: string; mimeType: string };
        if (IMAGE_TYPES.has(mimeType)) blocks.push(imageBlock(mimeType, data));
        else text(`[image of type ${mimeType}, ${base64Bytes(data)} bytes: not a type the model can view]`);
        break;
      }
      case 'audio': {
        const { data, mimeType } = block as { data: string; mimeType: string };
        text(`[audio of type ${mimeType}, ${base64Bytes(data)} bytes: not shown to the model]`);
        break;
      }
      case 'resource': {
        const resource = (block as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } })
          .resource;
        const mime = resource.mimeType ?? 'unknown type';
        if (typeof resource.text === 'string') {
          text(`[resource ${resource.uri} (${mime})]\n${resource.text}`);
        } else if (typeof resource.blob === 'string') {
          if (resource.mimeType && isTextType(resource.mimeType))
            text(`[resource ${resource.uri} (${mime})]\n${Buffer.from(resource.blob, 'base64').toString('utf8')}`);
          else if (resource.mimeType && IMAGE_TYPES.has(resource.mimeType))
            blocks.push(imageBlock(resource.mimeType, resource.blob));
          else if (resource.mimeType === 'application/pdf')
            blocks.push({
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: resource.blob },
              title: resource.uri,
            });
          else
            text(
              `[resource ${resource.uri} (${mime}), ${base64Bytes(resource.blob)} bytes of binary data: not shown to the model]`,
            );
        } else {
          text(`[resource ${resource.uri} (${mime}) with no content]`);
        }
        break;
      }
      case 'resource_link': {
        const link = block as { uri: string; name: string; mimeType?: string; description?: string };
        const details = [link.mimeType, link.description].filter(Boolean).join('; ');
        text(
          `[resource link] ${link.name}: ${link.uri}${details ? ` (${details})` : ''}. Read it with ReadMcpResource {"server": "${server}", "uri": "${link.uri}"}.`,
        );
        break;
      }
      default:
        text(`[content of type "${block.type}" that Toolshed does not know how to show]`);
    }
  }
  if (result.structuredContent !== undefined && !blocks.some((b) => b.type === 'text')) {
    text(JSON.stringify(result.structuredContent, null, 2));
  }
  if (blocks.every((b) => b.type === 'text')) return blocks.map((b) => (b as { text: string }).text).join('\n');
  return blocks;
}

/** Text sent as a blob (`text/*`, JSON, XML, YAML…) is shown as the text it is. */
function isTextType(mimeType: string): boolean {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || /^application\/(?:[\w.-]+\+)?(?:json|xml|yaml|javascript|x-sh|toml)$/.test(type);
}

function imageBlock(mimeType: string, data: string): ImageBlock {
  return {
    type: 'image',
    source: { type: 'base64', media_type: mimeType as ImageBlock['source']['media_type'], data },
  };
}

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}
