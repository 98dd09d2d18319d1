import type { ToolContext } from '../tool.ts';
import { createServices } from '../services.ts';
import type { PermissionContext } from './types.ts';

/**
 * A minimal {@linkcode ToolContext} for the permission tests: real cwd and permissions,
 * stubs for everything the permission layer does not read.
 *
 * @param options `cwd` (default `/tmp/toolshed-test`) and any part of the permission context.
 * @returns The context.
 *
 * @example
 * ```ts
 * const ctx = testContext({ permissions: { mode: 'plan' } });
 * ```
 */
export function testContext(options: { cwd?: string; permissions?: Partial<PermissionContext> } = {}): ToolContext {
  const cwd = options.cwd ?? '/tmp/toolshed-test';
  const permissions: PermissionContext = {
    mode: 'default',
    rules: { allow: [], deny: [], ask: [] },
    workingDirectories: [cwd],
    ...options.permissions,
  };
  return {
    sessionId: 'test-session',
    cwd,
    stateDir: `${cwd}/.state`,
    toolUseId: 'toolu_test',
    signal: new AbortController().signal,
    fileState: {} as unknown as ToolContext['fileState'],
    permissions,
    tools: { list: () => [], get: () => undefined, load: async () => [] },
    services: createServices(),
    onClose: () => {},
  };
}
