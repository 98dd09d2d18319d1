import { createHash } from 'node:crypto';

const MAX_NAME = 64;

/**
 * Normalizes a server or tool name for a tool name: every character outside `[A-Za-z0-9_-]`
 * becomes `_`.
 *
 * @param name A server's or a tool's name as given.
 * @returns The name with only letters, digits, `_` and `-`.
 *
 * @example
 * ```ts
 * import { normalizeMcpName } from '@toolshed/mcp-bridge';
 *
 * normalizeMcpName('my.server'); // 'my_server'
 * ```
 */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * A server's name as the middle of its tools' names: normalized ({@linkcode normalizeMcpName}),
 * with each run of `_` made one and trailing `_` dropped, so that the first `__` after `mcp__`
 * always ends it. A server called "github__helper" (`mcp__github__helper__push`) or "github_"
 * (`mcp__github___push`) would otherwise have tool names that the rule `mcp__github`, written for
 * another server, covers. A name with nothing left is a short hash of itself.
 *
 * @param server The server's name (the key in the MCP configuration).
 * @returns The segment, without `__` and not ending with `_`.
 *
 * @example
 * ```ts
 * import { mcpServerSegment } from '@toolshed/mcp-bridge';
 *
 * mcpServerSegment('github');         // 'github'
 * mcpServerSegment('github__helper'); // 'github_helper'
 * mcpServerSegment('my server.');     // 'my_server'
 * ```
 */
export function mcpServerSegment(server: string): string {
  const segment = normalizeMcpName(server).replace(/_{2,}/g, '_').replace(/_+$/, '');
  return segment === '' ? `s${shortHash(server)}` : segment;
}

/**
 * The Toolshed name of an MCP tool: `mcp__<server>__<tool>`, the server as
 * {@linkcode mcpServerSegment} writes it and the tool normalized; a name
 * over 64 characters is cut and ends with `_` and a short hash of the full original names, so
 * two long names that share a prefix stay apart.
 *
 * @param server The server's name (the key in `.mcp.json`).
 * @param tool The tool's name as the server lists it.
 * @returns A name matching `^[A-Za-z0-9_-]{1,64}$`.
 *
 * @example
 * ```ts
 * import { mcpToolName } from '@toolshed/mcp-bridge';
 *
 * mcpToolName('github', 'create_issue'); // 'mcp__github__create_issue'
 * mcpToolName('my server', 'a.b');       // 'mcp__my_server__a_b'
 * ```
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${mcpServerSegment(server)}__${normalizeMcpName(tool)}`;
  if (full.length <= MAX_NAME) return full;
  const hash = shortHash(`${server}\u0000${tool}`);
  return `${full.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/** Options of {@linkcode uniqueToolName}. */
export interface UniqueToolNameOptions {
  /** What the hash is made from: the server's and the tool's original names. */
  original: string;
  /** Names already used. */
  taken: ReadonlySet<string>;
}

/**
 * A name made unique against names already taken, by a hash suffix (two tools whose names
 * differ only in characters that normalization replaces, `a.b` and `a_b`).
 *
 * @param name The normalized name.
 * @param options What the hash is made from (`original`: the server's and the tool's original
 *   names), and the names already used (`taken`).
 * @returns `name`, or a variant of it with a hash suffix that is not taken.
 *
 * @example
 * ```ts
 * import { uniqueToolName } from '@toolshed/mcp-bridge';
 *
 * uniqueToolName('mcp__s__a_b', { original: 's\u0000a.b', taken: new Set(['mcp__s__a_b']) }); // 'mcp__s__a_b_3f9c1e'
 * ```
 */
export function uniqueToolName(name: string, { original, taken }: UniqueToolNameOptions): string {
  if (!taken.has(name)) return name;
  for (let salt = 0; ; salt++) {
    const hash = shortHash(`${original}\u0000${salt}`);
    const candidate = `${name.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
