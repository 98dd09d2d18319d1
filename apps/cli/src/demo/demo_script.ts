import type { ToolUseBlock } from '@toolshed/core';

/** One turn of the scripted agent: what it says it is doing, and its tool calls. */
export interface DemoTurn {
  /** One line, as an agent would narrate it. */
  narration: string;
  blocks: ToolUseBlock[];
}

/**
 * The bundled agent session: the turns a model would send to fix the greeting's typo in the
 * sample repository. It touches the fs, shell, web, search and MCP families, meets allow and
 * deny rules, finds deferred tools with ToolSearch, produces a result too large to send, and runs a parallel batch.
 *
 * @param docsUrl The style guide's URL on the loopback docs server.
 * @returns The turns, in order.
 *
 * @example
 * ```ts
 * for (const turn of demoScript(server.url('/guide.html'))) await session.run(turn.blocks);
 * ```
 */
export function demoScript(docsUrl: string): DemoTurn[] {
  let n = 0;
  const use = (name: string, input: Record<string, unknown>): ToolUseBlock => ({ type: 'tool_use', id: `toolu_demo_${String(++n).padStart(2, '0')}`, name, input });
  return [
    {
      narration: 'Look around: list the sources, find TODOs and read the README, all at once.',
      blocks: [use('Glob', { pattern: '**/*.ts' }), use('Grep', { pattern: 'TODO', output_mode: 'content' }), use('Read', { file_path: 'README.md' })],
    },
    {
      narration: 'Load deferred tools with ToolSearch: the issue tracker (an MCP server) by name, a web fetcher by query.',
      blocks: [
        use('ToolSearch', { query: 'select:mcp__tracker__get_issue' }),
        use('ToolSearch', { query: 'fetch a web page and read it as markdown', max_results: 1 }),
      ],
    },
    {
      narration: 'Read the bug report and the style guide it points to, in parallel (a WebFetch(domain:…) rule allows the docs host).',
      blocks: [
        use('mcp__tracker__get_issue', { id: 42 }),
        use('WebFetch', { url: docsUrl, prompt: 'How must a greeting start?' }),
      ],
    },
    {
      narration: 'Read the greeting, then fix "Helo" (an Edit rule allows edits under src/).',
      blocks: [use('Read', { file_path: 'src/greeting.ts' })],
    },
    {
      narration: 'Edit the greeting.',
      blocks: [use('Edit', { file_path: 'src/greeting.ts', old_string: 'Helo,', new_string: 'Hello,' })],
    },
    {
      narration: 'Check the fix with a read-only command (auto-allowed), then look at the build warnings.',
      blocks: [
        use('Bash', { command: 'grep -n Hello src/greeting.ts && wc -l src/greeting.ts src/math.ts', description: 'Check the greeting' }),
        use('Grep', { pattern: 'WARN', path: 'build.log', output_mode: 'content', head_limit: 0 }),
      ],
    },
    {
      narration: 'Try things the rules forbid: read the secrets, and clean up with rm.',
      blocks: [
        use('Read', { file_path: '.env' }),
        use('Bash', { command: 'cat .env', description: 'Show the secrets' }),
        use('Bash', { command: 'rm -rf build.log', description: 'Delete the build log' }),
      ],
    },
  ];
}
