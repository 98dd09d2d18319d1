/**
 * `@toolshed/tool-fs`: Read, Edit, Write, Glob, Grep and NotebookEdit for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { fileTools } from '@toolshed/tool-fs';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [fileTools()] });
 * ```
 *
 * @module
 */
export { fileTools, type FileToolsOptions } from './family.ts';
