import type { ToolPool } from './pool.ts';
import { formatToolDefinition, type ProviderFormat, type ProviderToolsOptions } from './provider_format.ts';

/**
 * `session.toolsFor`: the request's tool definitions in a provider's format, cached per format
 * until the pool changes (so a loop that asks every turn gets the same array, and a provider's
 * prompt cache keeps hitting).
 *
 * @param pool The session's pool.
 * @returns The `toolsFor` function.
 *
 * @example
 * ```ts
 * import { createToolsFor } from './_request_tools.ts';
 * import type { ToolPool } from './pool.ts';
 *
 * declare const pool: ToolPool;
 * const toolsFor = createToolsFor(pool);
 * toolsFor('anthropic') === toolsFor('anthropic'); // true until the pool changes
 * ```
 */
export function createToolsFor(pool: ToolPool): (format: ProviderFormat, options?: ProviderToolsOptions) => unknown[] {
  const cache = new Map<string, unknown[]>();
  let cachedVersion = -1;
  return (format, options = {}) => {
    if (pool.version !== cachedVersion) {
      cache.clear();
      cachedVersion = pool.version;
    }
    const key = `${format}|${options.nativeToolSearch ?? ''}`;
    let tools = cache.get(key);
    if (!tools) {
      tools = definitionsFor(pool, format, options);
      cache.set(key, tools);
    }
    return tools;
  };
}

function definitionsFor(pool: ToolPool, format: ProviderFormat, options: ProviderToolsOptions): unknown[] {
  const tools = pool.visibleDefinitions().map((def) => formatToolDefinition(def, format));
  if (!options.nativeToolSearch) return tools;
  if (format !== 'anthropic')
    throw new RangeError(`nativeToolSearch is an Anthropic API feature; format "${format}" does not support it`);
  const deferred = pool
    .deferredDefinitions()
    .map((def) => ({ ...formatToolDefinition(def, format), defer_loading: true }));
  const variant = options.nativeToolSearch;
  return [
    { type: `tool_search_tool_${variant}_20251119`, name: `tool_search_tool_${variant}` },
    ...tools,
    ...deferred,
  ].sort((a, b) => ((a as { name: string }).name < (b as { name: string }).name ? -1 : 1));
}
