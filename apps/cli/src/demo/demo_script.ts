import type { ToolUseBlock } from '@toolshed/core';

/** One turn of the scripted agent: what it says it is doing, and its tool calls. */
export interface DemoTurn {
  /** One line, as an agent would narrate it. */
  narration: string;
  blocks: ToolUseBlock[];
}

/**
 * The bundled agent session: the turns a model would send to fix the greeting's typo in the
 * sample repository. It touches the fs, shell, web, agent, search and MCP families (a TodoWrite plan and an Explore sub-agent), meets allow and
 * deny rules, finds deferred tools with ToolSearch, produces a result too large to send, and runs a parallel batch.
 *
 * @param docsUrl The style guide's URL on the loopback docs server.
 * @returns The turns, in order.
 *
 * @example
 * ```ts
 * import type { Session } from '@toolshed/core';
 * import { demoScript } from './demo_script.ts';
 * import type { DocsServer } from './docs_server.ts';
 * declare const server: DocsServer;
 * declare const session: Session;
 *
 * for (const turn of demoScript(server.url('/guide.html'))) await session.run(turn.blocks);
 * ```
 */
export function demoScript(docsUrl: string): DemoTurn[] {
  let n = 0;
  const use = (name: string, input: Record<string, unknown>): ToolUseBlock => ({
    type: 'tool_use',
    id: `toolu_demo_${String(++n).padStart(2, '0')}`,
    name,
    input,
  });
  return [
    {
      narration: 'Look around: list the sources, find TODOs and read the README, all at once.',
      blocks: [
        use('Glob', { pattern: '**/*.ts' }),
        use('Grep', { pattern: 'TODO', output_mode: 'content' }),
        use('Read', { file_path: 'README.md' }),
      ],
    },
    {
      narration:
        'Plan the work with TodoWrite, and send an Explore sub-agent (read-only, its own session) to find the typo.',
      blocks: [
        use('TodoWrite', {
          todos: [
            { content: 'Find the typo', status: 'in_progress', activeForm: 'Finding the typo' },
            { content: 'Fix the greeting', status: 'pending', activeForm: 'Fixing the greeting' },
            { content: 'Check the fix', status: 'pending', activeForm: 'Checking the fix' },
          ],
        }),
        use('Agent', {
          description: 'Find the typo',
          prompt: 'Find where the greeting in src/ is misspelt; reply with the file and line.',
          subagent_type: 'Explore',
        }),
      ],
    },
    {
      narration:
        'Load deferred tools with ToolSearch: the issue tracker (an MCP server) by name, a web fetcher by query.',
      blocks: [
        use('ToolSearch', { query: 'select:mcp__tracker__get_issue' }),
        use('ToolSearch', { query: 'fetch a web page and read it as markdown', max_results: 1 }),
      ],
    },
    {
      narration:
        'Read the bug report and the style guide it points to, in parallel (a WebFetch(domain:…) rule allows the docs host).',
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
        use('Bash', {
          command: 'grep -n Hello src/greeting.ts && wc -l src/greeting.ts src/math.ts',
          description: 'Check the greeting',
        }),
        use('Grep', { pattern: 'WARN', path: 'build.log', output_mode: 'content', head_limit: 0 }),
      ],
    },
    {
      narration: 'Mark the plan done.',
      blocks: [
        use('TodoWrite', {
          todos: [
            { content: 'Find the typo', status: 'completed', activeForm: 'Finding the typo' },
            { content: 'Fix the greeting', status: 'completed', activeForm: 'Fixing the greeting' },
            { content: 'Check the fix', status: 'completed', activeForm: 'Checking the fix' },
          ],
        }),
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
