/** An MCP configuration with the settings files' `env` applied, and what its `${VAR}` expand from. */
export interface McpWithSettingsEnv {
  /** The configuration: each stdio server's `env` starts with the settings' variables. */
  config: Record<string, unknown>;
  /** What `${VAR}` in the configuration expands from: the process's environment, then the settings'. */
  expandFrom: Record<string, string | undefined>;
}

/**
 * Applies the settings files' `env` to an MCP configuration as Claude Code does, where that `env`
 * is the environment of the whole session: `${VAR}` in `.mcp.json` expands from it, and every
 * stdio server's process gets it (the server's own `env` wins per name). Each variable is added
 * as `${NAME}` and expanded by the bridge once, so a value holding `${…}` is passed as written.
 *
 * @param config The parsed MCP configuration (`{ mcpServers: {...} }`); not changed.
 * @param env The settings files' `env` (`LoadedSettings.env`: none from an untrusted project).
 * @returns The configuration to hand to the bridge and the variables to expand from.
 *
 * @example
 * ```ts
 * import { withSettingsEnv } from './_mcp_settings_env.ts';
 *
 * const { config, expandFrom } = withSettingsEnv({ mcpServers: { s: { command: 'srv' } } }, { TOKEN: 't' });
 * // config.mcpServers.s.env: { TOKEN: '${TOKEN}' }; expandFrom.TOKEN: 't'
 * ```
 */
export function withSettingsEnv(
  config: Record<string, unknown>,
  env: Readonly<Record<string, string>>,
): McpWithSettingsEnv {
  const expandFrom: Record<string, string | undefined> = { ...process.env, ...env };
  const names = Object.keys(env);
  const servers = config['mcpServers'];
  if (names.length === 0 || !isObject(servers)) return { config, expandFrom };
  const placeholders = Object.fromEntries(names.map((name) => [name, `\${${name}}`]));
  const out: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(servers)) {
    // Only stdio servers start a process; a server whose `env` is malformed is left for the bridge to report.
    const stdio = isObject(server) && server['command'] !== undefined && server['url'] === undefined;
    const own = isObject(server) ? server['env'] : undefined;
    out[name] =
      stdio && (own === undefined || isObject(own)) ? { ...server, env: { ...placeholders, ...(own ?? {}) } } : server;
  }
  return { config: { ...config, mcpServers: out }, expandFrom };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
