import { createRequire } from 'node:module';
import { backgroundTasksOf, defineFamily, type Family } from '@toolshed/core';
import { createBashTool } from './bash_tool.ts';
import { loadBashParser } from './bash_parser.ts';
import type { ShellToolsOptions } from './shell_options.ts';
import { shellTasksKey, TaskRegistry } from './task_registry.ts';
import { taskOutputTool } from './task_output_tool.ts';
import { taskStopTool } from './task_stop_tool.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * The `shell` family: Bash, TaskOutput and TaskStop. Its setup loads the bash grammar (so
 * read-only classification works from the first call) and gives the session a background-task
 * registry (shared with every family's background work) that `session.close()` empties,
 * killing every task.
 *
 * @param options Sandbox, timeouts, output cap; see {@linkcode ShellToolsOptions}.
 * @returns The family, for `createSession({ families })`.
 * @throws {RangeError} If an option is out of range.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { shellTools } from '@toolshed/tool-shell';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [shellTools({ sandbox: { enabled: true, autoAllow: true } })],
 *   permissions: { allow: ['Bash(npm run test:*)'], deny: ['Bash(rm:*)', 'Read(./.env)'] },
 * });
 * ```
 */
export function shellTools(options: ShellToolsOptions = {}): Family {
  const bash = createBashTool(options);
  return defineFamily({
    name: 'shell',
    version,
    tools: [bash, taskOutputTool, taskStopTool],
    async setup(api) {
      // Shell tasks join the session's shared registry (core's), which close() empties.
      api.services.set(shellTasksKey, new TaskRegistry({ shared: backgroundTasksOf(api) }));
      try {
        await loadBashParser();
      } catch (e) {
        api.emit({
          type: 'notice',
          level: 'warn',
          message: `The bash grammar did not load (${(e as Error).message}); every Bash command will need approval.`,
        });
      }
    },
  });
}
