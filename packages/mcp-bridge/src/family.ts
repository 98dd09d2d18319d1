import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { defineFamily, skillSourcesOf, type Family, type PermissionContext, type PermissionRule } from '@toolshed/core';
import { findBlanketDenyRule } from '@toolshed/core/internal';
import { parseMcpConfig, type McpConfig, type McpServerConfig } from './config.ts';
import { McpServerSet } from './_server_set.ts';
import { mcpServerSegment } from './tool_name.ts';
import type { McpServerStatus } from './server_status.ts';
import type { McpLogLevel } from './_client_handlers.ts';
import type { McpOAuthOptions } from './oauth_provider.ts';
import { fileTokenStore } from './oauth_store.ts';
import { mcpPromptSkills } from './_prompt_skills.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** Options of {@linkcode mcpServers} and {@linkcode listMcpServers}. */
export interface McpServersOptions {
  /** What `${VAR}` in the configuration expands from. @default process.env */
  env?: Record<string, string | undefined>;
  /** How long a server may take to connect and list its tools, in milliseconds (a server's `startTimeout` wins). @default 30000 */
  startTimeoutMs?: number;
  /** How long one call may take, in milliseconds (a server's `timeout` wins). @default 60000 */
  toolTimeoutMs?: number;
  /** The first wait before another reconnection attempt after a failed one; doubles per failure. @default 1000 */
  reconnectDelayMs?: number;
  /** The longest wait between reconnection attempts. @default 30000 */
  maxReconnectDelayMs?: number;
  /** Where stdio servers without a `cwd` start. @default the session's cwd */
  cwd?: string;
  /**
   * OAuth sign-in for remote servers that ask for it: `authorize` runs an interactive sign-in
   * (without it, such a server fails with a message to run `toolshed mcp login <server>`), and
   * `store` keeps the credentials. @default tokens in `~/.toolshed/mcp-oauth.json` (mode 0600), no interactive sign-in
   */
  oauth?: McpOAuthOptions;
  /** The least severe server log message reported as a session notice. @default 'warning' */
  logLevel?: McpLogLevel;
  /**
   * A call's timeout (`timeout`, `toolTimeoutMs`) restarts at each progress notification the
   * server sends; this is the hard maximum of such a call. @default 1800000 (30 minutes)
   */
  maxToolTimeoutMs?: number;
  /** The user's home, holding the settings folder `.toolshed/`. @default the session's `homeDir`, else os.homedir() */
  homeDir?: string;
  /**
   * Start stdio servers with this process's whole environment, as Claude Code starts them (a
   * server that reads `GITHUB_TOKEN` from the shell works unchanged), rather than the SDK's safe
   * default (`PATH`, `HOME`, `USER`, `SHELL`, `TERM`, `LOGNAME`); a server's own `env` is added
   * either way. The `toolshed` CLI sets it. @default false
   */
  inheritEnv?: boolean;
}

/** Options of {@linkcode listMcpServers}. */
export interface ListMcpServersOptions extends McpServersOptions {
  /**
   * The permission rules a session would have (as `FamilySetupApi.permissions` gives them): a
   * server that a deny rule removes whole is reported as `denied`, with the rule, and not started.
   * @default no rules
   */
  permissions?: PermissionContext;
}

/**
 * The `mcp` family: the tools of MCP servers as Toolshed tools, named `mcp__<server>__<tool>`.
 * Servers come from a `.mcp.json`-shaped object (Claude Code's format, `${VAR}` expanded) and
 * connect concurrently when the session is created, each under a start timeout; one that fails
 * is reported as a session notice and blocks no other. A server that a deny rule removes whole
 * (`mcp__server`, `mcp__server__*`) is not started at all. Servers offering resources add the
 * `ListMcpResources` and `ReadMcpResource` tools, servers offering prompts `ListMcpPrompts` and
 * `GetMcpPrompt`, and their prompts are skills of the session (`mcp__<server>__<prompt>`, in
 * its `SkillSources`, which the agent family's Skill tool lists). Closing the session closes the servers.
 *
 * One family object serves one session at a time: call `mcpServers(config)` once per session.
 *
 * @param config `{ mcpServers: { name: { command, args, env, cwd } | { type: 'http' | 'sse', url, headers } } }`.
 * @param options Timeouts, reconnection backoff, and where variables come from.
 * @returns The family, for `createSession({ families })`.
 * @throws {TypeError} When the configuration is not of that shape (the message names the server and key).
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { mcpServers } from '@toolshed/mcp-bridge';
 *
 * const session = await createSession({
 *   cwd: process.cwd(),
 *   families: [mcpServers({ mcpServers: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } } })],
 * });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'mcp__everything__echo', input: { message: 'hi' } }]);
 * ```
 */
export function mcpServers(config: McpConfig = {}, options: McpServersOptions = {}): Family {
  const servers = parseMcpConfig(config, options.env ? { env: options.env } : {});
  let active: McpServerSet | undefined;
  return defineFamily({
    name: 'mcp',
    version,
    external: true,
    load: async () => active?.tools() ?? [],
    async setup(api) {
      if (active) {
        throw new Error(
          'this mcpServers() family already serves an open session; call mcpServers(config) again for each session',
        );
      }
      const { allowed, denied } = partitionServers(servers, api.permissions);
      for (const [name, rule] of denied) {
        api.emit({
          type: 'notice',
          level: 'info',
          message: `MCP server "${name}" is not started: deny rule "${rule.raw}" from ${rule.source} removes all of its tools.`,
        });
      }
      const set = new McpServerSet(allowed, {
        ...connectionDefaults(options, api.cwd, api.permissions.homeDir),
        services: api.services,
        roots: () => api.permissions.workingDirectories,
        clientInfo: { name: 'toolshed', version },
        onToolsChanged: () => {
          if (active === set) void api.refreshTools().catch(() => {});
        },
        notice: (level, message) => api.emit({ type: 'notice', level, message }),
        setInstructions: (prefix, text) => api.setInstructions(prefix, text),
      });
      active = set;
      // The servers' prompts are skills too (`mcp__<server>__<prompt>`), for the agent family's Skill tool.
      const removeSkills = skillSourcesOf(api).add(
        mcpPromptSkills(() => set.promptServers(), { permissions: () => api.permissions }),
      );
      api.onClose(async () => {
        removeSkills();
        if (active === set) active = undefined;
        await set.close();
      });
      await set.connectAll();
    },
  });
}

/**
 * Connects to every configured server (concurrently, under the start timeout), reports where
 * each stands and how many tools it has, and disconnects: what `toolshed mcp list` prints. With
 * `permissions`, a server that a deny rule removes whole is not started, as in a session, and
 * is reported as `denied` with the rule and its source.
 *
 * @param config The `.mcp.json`-shaped configuration.
 * @param options Timeouts, where variables come from, `cwd` (where stdio servers start) and the
 *   session's `permissions`.
 * @returns One status per server, in configuration order.
 * @throws {TypeError} When the configuration is not of the right shape.
 *
 * @example
 * ```ts
 * import { createPermissionContext } from '@toolshed/core/internal';
 * import { listMcpServers, type McpConfig } from '@toolshed/mcp-bridge';
 * declare const config: McpConfig;
 *
 * const { context } = createPermissionContext({ deny: ['mcp__github'] }, process.cwd());
 * for (const s of await listMcpServers(config, { permissions: context })) console.log(s.name, s.state, s.deniedBy?.rule ?? s.tools);
 * ```
 */
export async function listMcpServers(
  config: McpConfig,
  options: ListMcpServersOptions = {},
): Promise<McpServerStatus[]> {
  const servers = parseMcpConfig(config, options.env ? { env: options.env } : {});
  const { allowed, denied } = options.permissions
    ? partitionServers(servers, options.permissions)
    : { allowed: servers, denied: new Map<string, PermissionRule>() };
  const set = new McpServerSet(allowed, {
    ...connectionDefaults(options, options.cwd ?? process.cwd(), options.permissions?.homeDir),
    clientInfo: { name: 'toolshed', version },
    onToolsChanged: () => {},
    notice: () => {},
  });
  try {
    await set.connectAll();
    const started = new Map(set.status().map((s) => [s.name, s]));
    return Object.entries(servers).map(([name, server]) => {
      const rule = denied.get(name);
      if (!rule) return started.get(name)!;
      return {
        name,
        transport: 'url' in server ? server.type : 'stdio',
        state: 'denied',
        tools: 0,
        resources: false,
        deniedBy: { rule: rule.raw, source: rule.source },
      };
    });
  } finally {
    await set.close();
  }
}

/**
 * Where OAuth credentials are kept by default: `mcp-oauth.json` in the user's settings folder.
 *
 * @param homeDir The user's home. @default os.homedir()
 * @returns The file's path.
 *
 * @example
 * ```ts
 * import { defaultTokenFile } from '@toolshed/mcp-bridge';
 *
 * defaultTokenFile('/home/me'); // '/home/me/.toolshed/mcp-oauth.json'
 * ```
 */
export function defaultTokenFile(homeDir?: string): string {
  return path.join(homeDir ?? os.homedir(), '.toolshed', 'mcp-oauth.json');
}

function connectionDefaults(options: McpServersOptions, cwd: string, sessionHome?: string) {
  return {
    oauth: {
      ...options.oauth,
      store: options.oauth?.store ?? fileTokenStore(defaultTokenFile(options.homeDir ?? sessionHome)),
    },
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    ...(options.maxToolTimeoutMs ? { maxToolTimeoutMs: options.maxToolTimeoutMs } : {}),
    ...(options.inheritEnv ? { inheritEnv: true } : {}),
    cwd: options.cwd ?? cwd,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
    toolTimeoutMs: options.toolTimeoutMs ?? 60_000,
    reconnectDelayMs: options.reconnectDelayMs ?? 1_000,
    maxReconnectDelayMs: options.maxReconnectDelayMs ?? 30_000,
  };
}

/**
 * Splits the servers into those to start and those a blanket deny rule removes whole: starting
 * one of those would run a process (or open a connection) whose every tool the pool then drops.
 */
function partitionServers(
  servers: Record<string, McpServerConfig>,
  permissions: PermissionContext,
): { allowed: Record<string, McpServerConfig>; denied: Map<string, PermissionRule> } {
  const allowed: Record<string, McpServerConfig> = {};
  const denied = new Map<string, PermissionRule>();
  for (const [name, config] of Object.entries(servers)) {
    const rule = serverDenyRule(name, permissions);
    if (rule) denied.set(name, rule);
    else allowed[name] = config;
  }
  return { allowed, denied };
}

function serverDenyRule(server: string, permissions: PermissionContext): PermissionRule | undefined {
  // No tool can be named `…__*`, so only a rule for the whole server (`mcp__s`, `mcp__s__*`,
  // `mcp__*`) matches this name; a rule naming one tool of the server does not.
  return findBlanketDenyRule({ name: `mcp__${mcpServerSegment(server)}__*`, aliases: [] }, permissions);
}
