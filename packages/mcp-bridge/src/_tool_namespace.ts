/** One server's tools as named, before the names of every server are compared. */
export interface NamedServerTools<T extends { name: string }> {
  /** The server's name (the key in the MCP configuration). */
  server: string;
  /** Its tools, named `mcp__<server>__<tool>`. */
  tools: readonly T[];
}

/**
 * Which tools keep their names across servers. Each server's tools are named in its own
 * namespace (`mcp__<segment>__`, see `mcpServerSegment`), but two servers can share one: "a.b"
 * and "a_b", or "a" and "a_". A name that two servers claim is offered by neither, whichever
 * lists it first or adds it later (`tools/list_changed`): a rule or hook about the name could not
 * tell them apart, and the user's `allow` for one server's tool must not run the other's.
 *
 * @param servers Every server that offers tools, with its named tools, in configuration order.
 * @returns The tools kept, in order, and one sentence for each name left out.
 *
 * @example
 * ```ts
 * import { keepOwnNames } from './_tool_namespace.ts';
 *
 * const { kept, problems } = keepOwnNames([
 *   { server: 'a.b', tools: [{ name: 'mcp__a_b__x' }, { name: 'mcp__a_b__y' }] },
 *   { server: 'a_b', tools: [{ name: 'mcp__a_b__x' }] },
 * ]);
 * // kept: [{ name: 'mcp__a_b__y' }], problems: one sentence about mcp__a_b__x naming both servers
 * ```
 */
export function keepOwnNames<T extends { name: string }>(
  servers: readonly NamedServerTools<T>[],
): { kept: T[]; problems: string[] } {
  const claims = new Map<string, string[]>();
  for (const { server, tools } of servers)
    for (const tool of tools) {
      const claimants = claims.get(tool.name);
      if (!claimants) claims.set(tool.name, [server]);
      else if (!claimants.includes(server)) claimants.push(server);
    }
  const kept: T[] = [];
  const problems: string[] = [];
  for (const { server, tools } of servers)
    for (const tool of tools) {
      const claimants = claims.get(tool.name)!;
      if (claimants.length === 1) kept.push(tool);
      else if (claimants[0] === server)
        problems.push(
          `Tool "${tool.name}" is offered by none of the MCP servers ${claimants.map((s) => `"${s}"`).join(' and ')}: each lists a tool of that name, and a rule or hook about the name could not tell them apart. Rename one server in the MCP configuration.`,
        );
    }
  return { kept, problems };
}
