import { readJsonFile } from './_read_json_file.ts';
import { UsageError } from './usage_error.ts';

/**
 * Reads the `--mcp-config` file (Claude Code's `.mcp.json` format, `{"mcpServers": {...}}`) and
 * hands it to `mcpServers` as its configuration. The bridge checks the servers themselves; this
 * only makes sure the file is a JSON object.
 *
 * @param file The path as given.
 * @param baseDir What a relative path resolves against.
 * @returns The parsed object.
 * @throws {UsageError} When the file is missing, not JSON (with line and column) or not an object.
 *
 * @example
 * ```ts
 * const config = await readMcpConfigFile('.mcp.json', process.cwd());
 * const family = mcpServers(config);
 * ```
 */
export async function readMcpConfigFile(file: string, baseDir: string): Promise<Record<string, unknown>> {
  const { value } = await readJsonFile(file, '--mcp-config', baseDir);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      `The --mcp-config file "${file}" holds ${Array.isArray(value) ? 'a list' : `a ${value === null ? 'null' : typeof value}`}, not an object. Write for example {"mcpServers": {"git": {"command": "mcp-server-git"}}}.`,
      { showUsage: false },
    );
  }
  return value as Record<string, unknown>;
}
