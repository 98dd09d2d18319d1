import type { ObjectJsonSchema, ToolDefinition } from './tool.ts';

/** The request formats {@linkcode Session.toolsFor} can produce. */
export type ProviderFormat = 'anthropic' | 'openai' | 'openai-responses';

/** Every provider format. */
export const PROVIDER_FORMATS: readonly ProviderFormat[] = ['anthropic', 'openai', 'openai-responses'];

/** Options of `toolsFor`; families such as toolsearch read their own keys. */
export interface ProviderToolsOptions {
  /** Anthropic only: mark deferred tools `defer_loading` and add the server-side search tool. */
  nativeToolSearch?: 'bm25' | 'regex';
}

/** Anthropic Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: ObjectJsonSchema;
  defer_loading?: boolean;
}

/** OpenAI Chat Completions tool definition. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: ObjectJsonSchema };
}

/** OpenAI Responses API tool definition. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: ObjectJsonSchema;
  strict: false;
}

/**
 * One tool definition in a provider's request shape.
 *
 * @param def Name, description and JSON Schema.
 * @param format The provider.
 * @returns The provider's object.
 * @throws {RangeError} For an unknown format.
 *
 * @example
 * ```ts
 * import { formatToolDefinition } from '@toolshed/core/internal';
 *
 * formatToolDefinition({ name: 'Read', description: 'Reads a file.', inputSchema: { type: 'object' } }, 'openai');
 * // { type: 'function', function: { name: 'Read', description: 'Reads a file.', parameters: { type: 'object' } } }
 * ```
 */
export function formatToolDefinition(
  def: ToolDefinition,
  format: ProviderFormat,
): AnthropicTool | OpenAIChatTool | OpenAIResponsesTool {
  switch (format) {
    case 'anthropic':
      return { name: def.name, description: def.description, input_schema: def.inputSchema };
    case 'openai':
      return {
        type: 'function',
        function: { name: def.name, description: def.description, parameters: def.inputSchema },
      };
    case 'openai-responses':
      return {
        type: 'function',
        name: def.name,
        description: def.description,
        parameters: def.inputSchema,
        strict: false,
      };
    default:
      throw new RangeError(
        `Unknown provider format ${JSON.stringify(format)}: use one of ${PROVIDER_FORMATS.join(', ')}`,
      );
  }
}
