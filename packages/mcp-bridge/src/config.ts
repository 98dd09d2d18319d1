/** What a server's own claims may decide, and which arguments are paths: every transport takes them. */
export interface McpServerPermissionConfig {
  /**
   * `"readOnlyHint"`: the user trusts this server's `readOnlyHint` annotations, so its tools
   * that say they only read are allowed without asking, as a built-in read-only tool is.
   * Without it, an annotation decides only concurrency and how a call is shown, never its
   * permission: each tool asks unless a rule (`mcp__server`, `mcp__server__tool`) allows it.
   */
  trust?: 'readOnlyHint';
  /**
   * Names of the tools' arguments that are file paths (a string or a list of strings), such as
   * `["path", "paths", "source", "destination"]`. The path guard then sees them: `Read(...)` and
   * `Edit(...)` deny and ask rules cover them (a read when the tool says it is read-only,
   * otherwise a read and a write), and a path outside the working directories asks.
   */
  pathArguments?: string[];
}

/** A server started as a child process and spoken to over its stdin and stdout. */
export interface McpStdioServerConfig extends McpServerPermissionConfig {
  type?: 'stdio';
  /** The executable. */
  command: string;
  /** @default [] */
  args?: string[];
  /** Added to the SDK's default environment (`PATH`, `HOME`, …). */
  env?: Record<string, string>;
  /** The child's working directory. @default the session's cwd */
  cwd?: string;
  /** Per-call timeout in milliseconds. @default the family's `toolTimeoutMs` (60 000) */
  timeout?: number;
  /** How long connecting may take, in milliseconds. @default the family's `startTimeoutMs` (30 000) */
  startTimeout?: number;
  /** Whether the server may use the session's model (MCP sampling). @default 'ask' */
  sampling?: 'ask' | 'allow' | 'deny';
}

/** A remote server, over Streamable HTTP (`http`) or the older HTTP+SSE transport (`sse`). */
export interface McpRemoteServerConfig extends McpServerPermissionConfig {
  type: 'http' | 'sse';
  url: string;
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Record<string, string>;
  /** Per-call timeout in milliseconds. @default the family's `toolTimeoutMs` (60 000) */
  timeout?: number;
  /** How long connecting may take, in milliseconds. @default the family's `startTimeoutMs` (30 000) */
  startTimeout?: number;
  /** OAuth 2.1 sign-in for a server that asks for it (401 with `WWW-Authenticate`). */
  oauth?: McpOAuthServerConfig;
  /** Whether the server may use the session's model (MCP sampling). @default 'ask' */
  sampling?: 'ask' | 'allow' | 'deny';
}

/**
 * How the bridge signs in to a remote server with OAuth: the authorization-code flow with
 * PKCE by default (the client registered dynamically, or through `clientMetadataUrl`, unless
 * `clientId` is given), or `client_credentials` for a machine client, authenticated by
 * `clientSecret` or by a private-key JWT (`privateKey`).
 */
export interface McpOAuthServerConfig {
  /** A pre-registered client id; without it the client registers itself (or uses `clientMetadataUrl`). */
  clientId?: string;
  /** The pre-registered client's secret. */
  clientSecret?: string;
  /** An HTTPS URL of this client's metadata document, used as its id where the server supports it. */
  clientMetadataUrl?: string;
  /** The scope to ask for; by default what the server's challenge or metadata names. */
  scope?: string;
  /** The loopback port of `toolshed mcp login`'s redirect. @default any free port */
  callbackPort?: number;
  /** @default 'authorization_code' */
  grantType?: 'authorization_code' | 'client_credentials';
  /** A PEM private key: `client_credentials` authenticated by a signed JWT (private_key_jwt). */
  privateKey?: string;
  /** The JWT's algorithm. @default 'RS256' */
  signingAlgorithm?: string;
}

/** One entry of `mcpServers` in a `.mcp.json` file. */
export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

/** A `.mcp.json` file, Claude Code's format. */
export interface McpConfig {
  mcpServers?: Record<string, McpServerConfig>;
}

/** Options of {@linkcode parseMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** What `${VAR}` and `${VAR:-default}` expand from. @default process.env */
  env?: Record<string, string | undefined>;
  /** Named in error messages (a file path). @default 'the MCP configuration' */
  source?: string;
}

const KNOWN_KEYS = new Set([
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'timeout',
  'startTimeout',
  'trust',
  'pathArguments',
  'oauth',
  'sampling',
]);
const OAUTH_KEYS = new Set([
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'scope',
  'callbackPort',
  'grantType',
  'privateKey',
  'signingAlgorithm',
]);
const SAMPLING = ['ask', 'allow', 'deny'];

/**
 * Checks an MCP configuration in Claude Code's `.mcp.json` format and expands `${VAR}` and
 * `${VAR:-default}` in every string (command, args, env values, cwd, url, header values).
 * A missing variable without a default is an error rather than an empty string: a server
 * started with a blank token fails later in a way that is much harder to understand.
 *
 * @param value The parsed JSON: `{ "mcpServers": { name: {...} } }`.
 * @param options Where variables come from, and the name of the source for messages.
 * @returns The servers by name, expanded.
 * @throws {TypeError} When the value is not of that shape, naming the server, the key and the fix.
 *
 * @example
 * ```ts
 * import { parseMcpConfig } from '@toolshed/mcp-bridge';
 *
 * const servers = parseMcpConfig({ mcpServers: { git: { command: 'mcp-server-git', args: ['--repo', '${REPO:-.}'] } } });
 * servers.git; // { command: 'mcp-server-git', args: ['--repo', '.'] }
 * ```
 */
export function parseMcpConfig(value: unknown, options: ParseMcpConfigOptions = {}): Record<string, McpServerConfig> {
  const source = options.source ?? 'the MCP configuration';
  const env = options.env ?? process.env;
  if (!isObject(value))
    throw new TypeError(`${source} must be an object like {"mcpServers": {...}}, got ${describe(value)}`);
  const servers = value.mcpServers;
  for (const [key, entry] of Object.entries(value)) {
    // `mcpServers({ github: { url } })`: servers given without the key would silently be none.
    if (key !== 'mcpServers' && isObject(entry) && ('command' in entry || 'url' in entry)) {
      throw new TypeError(
        `${source} has a server "${key}" at the top level; servers go under the "mcpServers" key: {"mcpServers": {"${key}": {...}}}`,
      );
    }
  }
  if (servers === undefined) return {};
  if (!isObject(servers))
    throw new TypeError(`"mcpServers" in ${source} must be an object of servers by name, got ${describe(servers)}`);
  const out: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(servers)) {
    const where = `server "${name}" in ${source}`;
    if (name.length === 0)
      throw new TypeError(`${source} has a server with an empty name; give it a name such as "git"`);
    if (!isObject(raw)) throw new TypeError(`${where} must be an object with "command" or "url", got ${describe(raw)}`);
    for (const key of Object.keys(raw)) {
      if (!KNOWN_KEYS.has(key))
        throw new TypeError(`${where} has an unknown key "${key}"; the keys are ${[...KNOWN_KEYS].join(', ')}`);
    }
    const expand = (text: unknown, key: string): string => {
      if (typeof text !== 'string') throw new TypeError(`"${key}" of ${where} must be a string, got ${describe(text)}`);
      return expandVariables(text, { env, where: `"${key}" of ${where}` });
    };
    const timeouts: { timeout?: number; startTimeout?: number } = {};
    for (const key of ['timeout', 'startTimeout'] as const) {
      const t = raw[key];
      if (t === undefined) continue;
      if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0)
        throw new TypeError(`"${key}" of ${where} must be a positive number of milliseconds, got ${describe(t)}`);
      timeouts[key] = t;
    }
    const permission = permissionConfig(raw, where);
    if (raw.sampling !== undefined) {
      if (typeof raw.sampling !== 'string' || !SAMPLING.includes(raw.sampling))
        throw new TypeError(`"sampling" of ${where} must be "ask", "allow" or "deny", got ${describe(raw.sampling)}`);
      (timeouts as { sampling?: string }).sampling = raw.sampling;
    }
    const type = raw.type ?? (raw.url !== undefined ? 'http' : 'stdio');
    if (type === 'stdio') {
      if (raw.command === undefined)
        throw new TypeError(`${where} needs a "command" (a stdio server) or a "url" with "type": "http" or "sse"`);
      if (raw.oauth !== undefined)
        throw new TypeError(`${where} is a stdio server; "oauth" is for remote servers ("type": "http" or "sse")`);
      if (raw.url !== undefined || raw.headers !== undefined)
        throw new TypeError(`${where} is a stdio server; "url" and "headers" are for "type": "http" or "sse"`);
      const server: McpStdioServerConfig = { command: expand(raw.command, 'command'), ...timeouts, ...permission };
      if (raw.args !== undefined) {
        if (!Array.isArray(raw.args))
          throw new TypeError(`"args" of ${where} must be a list of strings, got ${describe(raw.args)}`);
        server.args = raw.args.map((a, i) => expand(a, `args[${i}]`));
      }
      if (raw.env !== undefined) server.env = expandRecord(raw.env, 'env', where, expand);
      if (raw.cwd !== undefined) server.cwd = expand(raw.cwd, 'cwd');
      out[name] = server;
    } else if (type === 'http' || type === 'sse') {
      if (raw.url === undefined) throw new TypeError(`${where} has "type": "${type}" but no "url"`);
      if (raw.command !== undefined)
        throw new TypeError(`${where} has both "url" and "command"; keep one (a remote server or a local process)`);
      const url = expand(raw.url, 'url');
      try {
        new URL(url);
      } catch {
        throw new TypeError(`"url" of ${where} is not a valid URL: "${url}"`);
      }
      const server: McpRemoteServerConfig = { type, url, ...timeouts, ...permission };
      if (raw.headers !== undefined) server.headers = expandRecord(raw.headers, 'headers', where, expand);
      if (raw.oauth !== undefined) server.oauth = parseOAuth(raw.oauth, where, expand);
      out[name] = server;
    } else {
      throw new TypeError(`"type" of ${where} must be "stdio", "http" or "sse", got ${describe(type)}`);
    }
  }
  return out;
}

/** Options of {@linkcode expandVariables}. */
export interface ExpandVariablesOptions {
  /** Where the variables come from. */
  env: Record<string, string | undefined>;
  /** What the error names: the field that uses the variable. */
  where: string;
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in a string, as Claude Code does in `.mcp.json`.
 *
 * @param text The string.
 * @param options Where the variables come from (`env`), and what to name in the error (`where`).
 * @returns The expanded string.
 * @throws {TypeError} When a variable without a default is not set.
 *
 * @example
 * ```ts
 * import { expandVariables } from '@toolshed/mcp-bridge';
 *
 * expandVariables('${HOME}/x and ${NOPE:-y}', { env: { HOME: '/h' }, where: 'args[0]' }); // '/h/x and y'
 * ```
 */
export function expandVariables(text: string, { env, where }: ExpandVariablesOptions): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      if (value === '') return '';
      throw new TypeError(
        `${where} uses \${${name}}, which is not set; set the environment variable or write \${${name}:-default}`,
      );
    },
  );
}

function permissionConfig(raw: Record<string, unknown>, where: string): McpServerPermissionConfig {
  const out: McpServerPermissionConfig = {};
  if (raw.trust !== undefined) {
    if (raw.trust !== 'readOnlyHint') {
      throw new TypeError(
        `"trust" of ${where} must be "readOnlyHint" (allow the tools the server says are read-only without asking), got ${describe(raw.trust)}; remove it to ask before every tool that no rule allows`,
      );
    }
    out.trust = 'readOnlyHint';
  }
  if (raw.pathArguments !== undefined) {
    const list = raw.pathArguments;
    if (!Array.isArray(list) || list.some((a) => typeof a !== 'string' || a === '')) {
      throw new TypeError(
        `"pathArguments" of ${where} must be a list of argument names such as ["path", "paths"], got ${describe(list)}`,
      );
    }
    out.pathArguments = [...list] as string[];
  }
  return out;
}

function parseOAuth(raw: unknown, where: string, expand: (text: unknown, key: string) => string): McpOAuthServerConfig {
  if (!isObject(raw))
    throw new TypeError(`"oauth" of ${where} must be an object such as {"clientId": "…"}, got ${describe(raw)}`);
  const out: McpOAuthServerConfig = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!OAUTH_KEYS.has(key))
      throw new TypeError(
        `"oauth" of ${where} has an unknown key "${key}"; the keys are ${[...OAUTH_KEYS].join(', ')}`,
      );
    if (key === 'callbackPort') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535)
        throw new TypeError(`"oauth.callbackPort" of ${where} must be a port number (1-65535), got ${describe(value)}`);
      out.callbackPort = value;
    } else if (key === 'grantType') {
      if (value !== 'authorization_code' && value !== 'client_credentials')
        throw new TypeError(
          `"oauth.grantType" of ${where} must be "authorization_code" or "client_credentials", got ${describe(value)}`,
        );
      out.grantType = value;
    } else {
      (out as Record<string, string>)[key] = expand(value, `oauth.${key}`);
    }
  }
  if (out.grantType === 'client_credentials' && (!out.clientId || (!out.clientSecret && !out.privateKey))) {
    throw new TypeError(
      `"oauth" of ${where} has "grantType": "client_credentials", which needs "clientId" and either "clientSecret" or "privateKey"`,
    );
  }
  return out;
}

function expandRecord(
  raw: unknown,
  key: string,
  where: string,
  expand: (text: unknown, key: string) => string,
): Record<string, string> {
  if (!isObject(raw)) throw new TypeError(`"${key}" of ${where} must be an object of strings, got ${describe(raw)}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = expand(v, `${key}.${k}`);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
