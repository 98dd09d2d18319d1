/**
 * `@toolshed/tool-web`: WebFetch and WebSearch for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { webTools } from '@toolshed/tool-web';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [webTools()] });
 * ```
 *
 * @module
 */
export { webTools, type WebToolsOptions } from './family.ts';
