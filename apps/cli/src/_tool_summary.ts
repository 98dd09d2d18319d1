import type { Session } from '@toolshed/core';

/**
 * The tool's one-line summary of a call (`npm test` for Bash, the path for Read), or '' when the
 * session has no such tool, the input does not parse, or the tool's summary throws.
 *
 * @param session The session whose catalog holds the tool (undefined before it exists).
 * @param call The tool's `name` and the call's `input`.
 * @returns The summary, or ''.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { toolUseSummary } from './_tool_summary.ts';
 * declare const session: Session;
 *
 * toolUseSummary(session, { name: 'Bash', input: { command: 'npm test' } }); // 'npm test'
 * ```
 */
export function toolUseSummary(
  session: Session | undefined,
  { name, input }: { name: string; input: unknown },
): string {
  const tool = session?.catalog().find((e) => e.name === name)?.tool;
  if (!tool) return '';
  try {
    const parsed = tool.inputSchema.safeParse(input);
    return parsed.success ? tool.getToolUseSummary(parsed.data) : '';
  } catch {
    return ''; // a summary is a courtesy; a tool's broken renderer must not break the prompt
  }
}
