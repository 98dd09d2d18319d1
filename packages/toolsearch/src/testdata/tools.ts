// Test tools without zod (this package cannot import it): a JSON Schema for the request and a
// schema object that accepts any object, which is all these tests need of a tool's input.
import { buildTool, type AnyTool } from '@toolshed/core';

/** What {@linkcode makeTool} takes besides the name. */
export interface MakeToolOptions {
  description?: string;
  searchHint?: string;
  searchGroup?: string;
  shouldDefer?: boolean;
  alwaysLoad?: boolean;
  isMcp?: boolean;
  properties?: Record<string, { type: string; description?: string }>;
}

const anyObject = {
  safeParse(input: unknown) {
    if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { success: true, data: input };
    return {
      success: false,
      error: {
        issues: [{ code: 'invalid_type', path: [], expected: 'object', message: 'Invalid input: expected object' }],
      },
    };
  },
};

/** A tool that answers `ran <name>`. */
export function makeTool(name: string, options: MakeToolOptions = {}): AnyTool {
  return buildTool({
    name,
    description: options.description ?? `The ${name} tool, for tests.`,
    ...(options.searchHint ? { searchHint: options.searchHint } : {}),
    ...(options.searchGroup ? { searchGroup: options.searchGroup } : {}),
    inputSchema: anyObject as AnyTool['inputSchema'],
    inputJSONSchema: { type: 'object', properties: options.properties ?? {} },
    shouldDefer: options.shouldDefer ?? false,
    alwaysLoad: options.alwaysLoad ?? false,
    isMcp: options.isMcp ?? false,
    // An MCP tool's read-only flag does not allow it by itself: these stand for tools of a server
    // whose config trusts its readOnlyHint, which allow through their own check.
    ...(options.isMcp ? { checkPermissions: () => ({ behavior: 'allow' as const }) } : {}),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call() {
      return { data: `ran ${name}` };
    },
  });
}
