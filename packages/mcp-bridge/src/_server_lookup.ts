import type { McpConnection } from './_server_connection.ts';

/**
 * The connected server of that name among those offering a feature, or the error a model reads
 * when there is none: which name it asked for, and the names it can use instead.
 *
 * @param servers The connected servers that offer the feature.
 * @param options The name asked for and the feature (`prompts`, `resources`, `completion`).
 * @returns The server.
 * @throws {Error} `No connected MCP server named "x" offers prompts. Servers with prompts: "a", "b".`
 *
 * @example
 * ```ts
 * import type { McpConnection } from './_server_connection.ts';
 * import { serverOffering } from './_server_lookup.ts';
 * declare const connections: McpConnection[];
 *
 * const connection = serverOffering(connections, { name: 'everything', feature: 'prompts' });
 * ```
 */
export function serverOffering(
  servers: readonly McpConnection[],
  { name, feature }: { name: string; feature: string },
): McpConnection {
  const found = servers.find((c) => c.name === name);
  if (found) return found;
  throw new Error(
    `No connected MCP server named "${name}" offers ${feature}. Servers with ${feature}: ${
      servers.map((c) => `"${c.name}"`).join(', ') || 'none'
    }.`,
  );
}
