import { mcpServerSegment } from './tool_name.ts';

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
 * and "a_b", or "a" and "a_". Servers that share one offer no tools at all (a rule about one,
 * `mcp__a`, would cover the other's), and a name that two servers claim is offered by neither,
 * whichever lists it first or adds it later (`tools/list_changed`): the user's `allow` for one
 * server's tool must not run the other's.
 *
 * @param servers Every server that offers tools, with its named tools, in configuration order.
 * @returns The tools kept, in order, and one sentence for each name left out.
 *
 * @example
 * ```ts
 * import { keepOwnNames } from './_tool_namespace.ts';
 *
 * const { kept, problems } = keepOwnNames([
 *   { server: 'a.b', tools: [{ name: 'mcp__a_b__x' }] },
 *   { server: 'a_b', tools: [{ name: 'mcp__a_b__y' }] },
 *   { server: 'c', tools: [{ name: 'mcp__c__z' }] },
 * ]);
 * // kept: [{ name: 'mcp__c__z' }], problems: one sentence naming "a.b" and "a_b"
 * ```
 */
export function keepOwnNames<T extends { name: string }>(
  servers: readonly NamedServerTools<T>[],
): { kept: T[]; problems: string[] } {
  // Servers whose names share one segment ("github" and "github_"): a rule about one
  // (`mcp__github`) covers the other's tools, so neither's tools are offered.
  const bySegment = new Map<string, string[]>();
  for (const { server } of servers) {
    const segment = mcpServerSegment(server);
    const sharing = bySegment.get(segment);
    if (!sharing) bySegment.set(segment, [server]);
    else if (!sharing.includes(server)) sharing.push(server);
  }
  const problems: string[] = [];
  const shared = (server: string) => bySegment.get(mcpServerSegment(server))!.length > 1;
  for (const [segment, sharing] of bySegment)
    if (sharing.length > 1)
      problems.push(
        `The MCP servers ${sharing.map((s) => `"${s}"`).join(' and ')} share the tool-name prefix "mcp__${segment}__", so a rule or hook about one would cover another's tools: none of their tools is offered. Rename all but one of them in the MCP configuration.`,
      );
  servers = servers.filter(({ server }) => !shared(server));
  const claims = new Map<string, string[]>();
  for (const { server, tools } of servers)
    for (const tool of tools) {
      const claimants = claims.get(tool.name);
      if (!claimants) claims.set(tool.name, [server]);
      else if (!claimants.includes(server)) claimants.push(server);
    }
  const kept: T[] = [];
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
