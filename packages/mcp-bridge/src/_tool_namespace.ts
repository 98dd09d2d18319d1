import { normalizeMcpName } from './tool_name.ts';

/** One server's tools as named, before the names of every server are compared. */
export interface NamedServerTools<T extends { name: string }> {
  /** The server's name (the key in the MCP configuration). */
  server: string;
  /** Whether it still offers tools (a closed server's names still belong to it). */
  offers: boolean;
  /** Its tools, named `mcp__<server>__<tool>`. */
  tools: readonly T[];
  /** The tool's name as the server listed it, for the warnings. */
  original: (tool: T) => string;
}

/**
 * Which tools keep their names across servers. A name belongs to the server whose namespace
 * (`mcp__<server>__`) is the longest that starts it: a tool of server "a" listed as "b__c" is
 * `mcp__a__b__c`, which lies in the namespace of a server called "a__b", whose rules
 * (`mcp__a__b__c`, `mcp__a__b__*`) and hooks the user wrote for that server. Such a tool is left
 * out, and so is a name that two servers claim (servers whose names normalize alike, `a.b` and
 * `a_b`): neither may take it, whichever lists it first or changes its list later.
 *
 * @param servers Every configured server with its named tools, in configuration order.
 * @returns The tools kept, in order, and one sentence for each name left out.
 *
 * @example
 * ```ts
 * import { keepOwnNames } from './_tool_namespace.ts';
 *
 * const { kept, problems } = keepOwnNames([
 *   { server: 'a', offers: true, tools: [{ name: 'mcp__a__b__c' }], original: () => 'b__c' },
 *   { server: 'a__b', offers: true, tools: [{ name: 'mcp__a__b__c' }], original: () => 'c' },
 * ]);
 * // kept: [{ name: 'mcp__a__b__c' }] (server "a__b"'s), problems: one sentence about "b__c" of server "a"
 * ```
 */
export function keepOwnNames<T extends { name: string }>(
  servers: readonly NamedServerTools<T>[],
): { kept: T[]; problems: string[] } {
  const names = servers.map((s) => s.server);
  const problems: string[] = [];
  const owned: { server: NamedServerTools<T>; tool: T }[] = [];
  const claims = new Map<string, NamedServerTools<T>[]>();
  for (const server of servers) {
    if (!server.offers) continue;
    for (const tool of server.tools) {
      const owner = foreignNamespace(tool.name, { servers: names, own: server.server });
      if (owner) {
        problems.push(
          `Tool "${server.original(tool)}" of MCP server "${server.server}" is left out: its name "${tool.name}" lies in the names of MCP server "${owner.server}" (${owner.prefix}…), whose permission rules and hooks would then apply to it. Rename one of the two servers in the MCP configuration, or ask the author of "${server.server}" not to use "__" in tool names.`,
        );
        continue;
      }
      owned.push({ server, tool });
      const claimants = claims.get(tool.name);
      if (!claimants) claims.set(tool.name, [server]);
      else if (!claimants.includes(server)) claimants.push(server);
    }
  }
  const kept: T[] = [];
  for (const { tool } of owned) {
    const claimants = claims.get(tool.name)!;
    if (claimants.length === 1) {
      kept.push(tool);
      continue;
    }
    if (claimants[0]!.tools.includes(tool))
      problems.push(
        `Tool "${tool.name}" is offered by none of the MCP servers ${claimants.map((s) => `"${s.server}"`).join(' and ')}: each lists a tool of that name, and a rule or hook about the name could not tell them apart. Rename one server in the MCP configuration.`,
      );
  }
  return { kept, problems };
}

/**
 * The other server whose namespace a name lies in: the server with the longest `mcp__<server>__`
 * that starts the name, when that is longer than the namespace of `own` (`mcp__a__b__c` of server
 * "a" lies in that of server "a__b").
 *
 * @param name A tool's or prompt's name, `mcp__<server>__<name>`.
 * @param options `servers`: every configured server's name; `own`: the server that made the name.
 * @returns The namespace's server and its prefix, or undefined when the name is in `own`'s names.
 *
 * @example
 * ```ts
 * import { foreignNamespace } from './_tool_namespace.ts';
 *
 * foreignNamespace('mcp__a__b__c', { servers: ['a', 'a__b'], own: 'a' }); // { server: 'a__b', prefix: 'mcp__a__b__' }
 * foreignNamespace('mcp__a__own', { servers: ['a', 'a__b'], own: 'a' }); // undefined
 * ```
 */
export function foreignNamespace(
  name: string,
  { servers, own }: { servers: readonly string[]; own: string },
): { server: string; prefix: string } | undefined {
  const ownPrefix = `mcp__${normalizeMcpName(own)}__`;
  let best: { server: string; prefix: string } | undefined;
  for (const server of servers) {
    const prefix = `mcp__${normalizeMcpName(server)}__`;
    if (name.startsWith(prefix) && name.length > prefix.length && (!best || prefix.length > best.prefix.length))
      best = { server, prefix };
  }
  return best && best.prefix.length > ownPrefix.length ? best : undefined;
}
