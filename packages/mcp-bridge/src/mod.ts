/**
 * `@toolshed/mcp-bridge`: MCP servers as tools, and sessions served over MCP for Toolshed. **Not yet implemented**: this package
 * holds the family's factory, which returns an empty family until its issue lands.
 *
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { mcpServers } from '@toolshed/mcp-bridge';
 *
 * const session = await createSession({ cwd: process.cwd(), families: [mcpServers()] });
 * ```
 *
 * @module
 */
export { mcpServers, type McpServersOptions } from './family.ts';
