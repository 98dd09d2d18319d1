/**
 * `@toolshed/toolsearch`: deferred loading and the ToolSearch tool for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { toolSearch } from '@toolshed/toolsearch';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [toolSearch()] });
 * ```
 *
 * @module
 */
export { toolSearch, type ToolSearchOptions } from './family.ts';
