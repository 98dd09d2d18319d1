/**
 * `@toolshed/tool-shell`: Bash, TaskOutput and TaskStop for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { shellTools } from '@toolshed/tool-shell';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [shellTools()] });
 * ```
 *
 * @module
 */
export { shellTools, type ShellToolsOptions } from './family.ts';
