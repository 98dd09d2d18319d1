import { readJsonFile } from './_read_json_file.ts';
import { UsageError } from './usage_error.ts';

/** Options of {@linkcode readMcpConfigFile}. */
export interface ReadMcpConfigFileOptions {
  /** How messages name the file. @default '--mcp-config' */
  label?: string | undefined;
  /**
   * The file was found in a project folder (`.mcp.json`), not named by the user: it is read only
   * when it is a regular file of at most 1 MB (a repository's link to a FIFO or `/dev/zero` would
   * hang every command). @default false
   */
  inProject?: boolean | undefined;
}

/**
 * Reads an MCP configuration file (Claude Code's `.mcp.json` format, `{"mcpServers": {...}}`)
 * — the `--mcp-config` file, or the project's `.mcp.json` — and hands it to `mcpServers` as its
 * configuration. The bridge checks the servers themselves; this makes sure the file is JSON, an
 * object, and has an `mcpServers` object.
 *
 * @param file The path as given.
 * @param baseDir What a relative path resolves against.
 * @param options How messages name the file (`label`).
 * @returns The parsed object.
 * @throws {UsageError} When the file is missing, not JSON (with line and column), not an
 *   object, or has no `mcpServers` object.
 *
 * @example
 * ```ts
 * import { readMcpConfigFile } from '@toolshed/cli';
 * import { mcpServers } from '@toolshed/mcp-bridge';
 *
 * const config = await readMcpConfigFile('.mcp.json', process.cwd());
 * const family = mcpServers(config);
 * ```
 */
export async function readMcpConfigFile(
  file: string,
  baseDir: string,
  { label = '--mcp-config', inProject = false }: ReadMcpConfigFileOptions = {},
): Promise<Record<string, unknown>> {
  const { value } = await readJsonFile(file, { flag: label, baseDir, inProject });
  const example = 'Write for example {"mcpServers": {"git": {"command": "mcp-server-git"}}}.';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      `The ${label} file "${file}" holds ${Array.isArray(value) ? 'a list' : `a ${value === null ? 'null' : typeof value}`}, not an object. ${example}`,
      { showUsage: false },
    );
  }
  const servers = (value as Record<string, unknown>)['mcpServers'];
  if (servers === undefined) {
    const keys = Object.keys(value);
    throw new UsageError(
      `The ${label} file "${file}" has no "mcpServers" key${keys.length ? ` (it has ${keys.map((k) => `"${k}"`).join(', ')})` : ''}, so it names no MCP server. ${example}`,
      { showUsage: false },
    );
  }
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new UsageError(
      `The ${label} file "${file}": "mcpServers" is ${Array.isArray(servers) ? 'a list' : `a ${servers === null ? 'null' : typeof servers}`}, not an object of servers by name. ${example}`,
      { showUsage: false },
    );
  }
  return value as Record<string, unknown>;
}
