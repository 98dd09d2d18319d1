import type { AnyTool } from '@toolshed/core';
import type { McpServerConfig } from './config.ts';
import { AbortWatch } from './_request_signal.ts';
import { McpConnection, type McpConnectionOptions } from './_server_connection.ts';
import type { McpServerStatus } from './server_status.ts';
import { buildMcpTool } from './mcp_tool.ts';
import { listMcpResourcesTool, readMcpResourceTool } from './resource_tools.ts';
import { completeMcpArgumentTool } from './completion_tool.ts';
import { getMcpPromptTool, listMcpPromptsTool } from './prompt_tools.ts';
import { mcpServerSegment, mcpToolName, normalizeMcpName, uniqueToolName } from './tool_name.ts';
import { keepOwnNames } from './_tool_namespace.ts';

/** What a server set is told by its session. */
export interface McpServerSetOptions extends Omit<McpConnectionOptions, 'onToolsChanged'> {
  onToolsChanged: () => void;
  notice: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Told each server's instructions by its tools' name prefix (`mcp__github__`), for the deferred notice. */
  setInstructions?: (prefix: string, text: string | undefined) => void;
}

/**
 * The servers of one session, and the tools they make (cached per tool list, so a tool keeps
 * its identity until its server's list changes).
 *
 * @example
 * ```ts
 * import { parseMcpConfig } from '@toolshed/mcp-bridge';
 * import { McpServerSet } from './_server_set.ts';
 * declare const config: unknown; // the parsed JSON of .mcp.json
 *
 * const set = new McpServerSet(parseMcpConfig(config), {
 *   cwd: process.cwd(),
 *   startTimeoutMs: 30_000,
 *   toolTimeoutMs: 120_000,
 *   reconnectDelayMs: 1_000,
 *   maxReconnectDelayMs: 30_000,
 *   clientInfo: { name: 'toolshed', version: '1.0.0' },
 *   onToolsChanged: () => console.log('tools changed'),
 *   notice: (level, message) => console.error(level, message),
 * });
 * await set.connectAll();
 * set.tools(); // mcp__<server>__<tool>, plus the resource tools when a server has resources
 * await set.close();
 * ```
 */
export class McpServerSet {
  #connections: McpConnection[];
  #notice: McpServerSetOptions['notice'];
  #setInstructions: McpServerSetOptions['setInstructions'];
  #cache = new Map<McpConnection, { key: string; tools: AnyTool[] }>();
  #resourceTools: AnyTool[];
  #promptTools: AnyTool[];
  #completionTool: AnyTool;
  #warnedSchemas = new Set<string>();
  #warned = new Set<string>();
  #roots: readonly string[];
  #aborts: AbortWatch;

  constructor(servers: Record<string, McpServerConfig>, options: McpServerSetOptions) {
    this.#notice = options.notice;
    this.#setInstructions = options.setInstructions;
    this.#roots = uniqueDirs([options.cwd, ...(options.roots?.() ?? [])]);
    // One watch of the call signals for every server: the turn's signal gets one listener in all.
    this.#aborts = options.aborts ?? new AbortWatch();
    const connectionOptions = { ...options, roots: () => this.#roots, aborts: this.#aborts };
    this.#connections = Object.entries(servers).map(
      ([name, config]) => new McpConnection(name, config, connectionOptions),
    );
    for (const name of Object.keys(servers)) {
      const segment = mcpServerSegment(name);
      if (segment !== normalizeMcpName(name))
        this.#notice(
          'warn',
          `MCP server "${name}": its tools are named mcp__${segment}__<tool>, not mcp__${normalizeMcpName(name)}__<tool>, and rules about them are written mcp__${segment} or mcp__${segment}__<tool>. A server's part of a tool name cannot hold "__" or end with "_": such a name would be covered by the rules of another server (the one before its "__").`,
        );
    }
    const withResources = () => this.#connections.filter((c) => c.hasResources && c.state !== 'closed');
    this.#resourceTools = [listMcpResourcesTool(withResources), readMcpResourceTool(withResources)];
    const withPrompts = () => this.#connections.filter((c) => c.hasPrompts && c.state !== 'closed');
    this.#promptTools = [listMcpPromptsTool(withPrompts), getMcpPromptTool(withPrompts)];
    this.#completionTool = completeMcpArgumentTool(() =>
      this.#connections.filter((c) => c.hasCompletions && c.state !== 'closed'),
    );
  }

  /** The servers that offer prompts and are not closed (the mcp family's skill source reads them). */
  promptServers(): McpConnection[] {
    return this.#connections.filter((c) => c.hasPrompts && c.state !== 'closed');
  }

  /** The roots offered to the servers now: the session's working directories as last seen. */
  get roots(): readonly string[] {
    return this.#roots;
  }

  /**
   * Told the working directories of a call (its cwd first): when they differ from the roots
   * last offered, every connected server gets `notifications/roots/list_changed` and asks again.
   *
   * @returns Whether they changed.
   */
  observeWorkingDirectories(dirs: readonly string[]): boolean {
    // Compared before anything is made: they change rarely, and this runs per call.
    if (sameDirs(dirs, this.#roots)) return false;
    const next = uniqueDirs(dirs);
    this.#roots = next;
    for (const c of this.#connections) c.rootsChanged();
    return true;
  }

  /** Connects every server at once; each failure is reported and blocks no other server. */
  async connectAll(): Promise<void> {
    await Promise.all(
      this.#connections.map(async (c) => {
        await c.connect();
        if (c.state === 'connected') this.#setInstructions?.(`mcp__${mcpServerSegment(c.name)}__`, c.instructions);
        if (c.state === 'connected' && c.instructions?.trim()) {
          const text = c.instructions.trim();
          this.#notice(
            'info',
            `MCP server "${c.name}" says how to use its tools: ${text.length > 2000 ? `${text.slice(0, 1999)}…` : text}`,
          );
        }
        if (c.state === 'failed') {
          const where = c.transportType === 'stdio' ? 'its "command" and "args"' : 'its "url" and "headers"';
          this.#notice(
            'error',
            `MCP server "${c.name}" failed to start: ${c.error}. Its tools are not available; check ${where} in the MCP configuration.`,
          );
        }
      }),
    );
  }

  /**
   * Every server's tools (a server that crashed keeps its tools: the next call reconnects it),
   * each in its own server's names only (see `keepOwnNames`).
   */
  tools(): AnyTool[] {
    const named = this.#connections.map((connection) => {
      if (connection.state === 'closed') return { server: connection.name, tools: [] };
      for (const problem of connection.toolProblems) this.#warnOnce(`MCP server "${connection.name}": ${problem}.`);
      const key = JSON.stringify(connection.tools);
      let cached = this.#cache.get(connection);
      if (!cached || cached.key !== key) {
        cached = { key, tools: [] };
        const local = new Set<string>();
        for (const info of connection.tools) {
          const name = uniqueToolName(mcpToolName(connection.name, info.name), {
            original: `${connection.name}\u0000${info.name}`,
            taken: local,
          });
          local.add(name);
          cached.tools.push(
            buildMcpTool(connection, info, {
              name,
              onSchemaProblem: (m) => this.#warnSchema(name, m),
              onWorkingDirectories: (dirs) => void this.observeWorkingDirectories(dirs),
            }),
          );
        }
        this.#cache.set(connection, cached);
      }
      return { server: connection.name, tools: cached.tools };
    });
    const { kept, problems } = keepOwnNames(named);
    for (const problem of problems) this.#warnOnce(problem);
    const out: AnyTool[] = [...kept];
    if (this.#connections.some((c) => c.hasResources && c.state !== 'closed')) out.push(...this.#resourceTools);
    if (this.#connections.some((c) => c.hasPrompts && c.state !== 'closed')) out.push(...this.#promptTools);
    if (this.#connections.some((c) => c.hasCompletions && c.state !== 'closed')) out.push(this.#completionTool);
    return out;
  }

  #warnSchema(name: string, message: string): void {
    if (this.#warnedSchemas.has(name)) return;
    this.#warnedSchemas.add(name);
    this.#notice('warn', message);
  }

  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    this.#notice('warn', message);
  }

  /** Where each server stands. */
  status(): McpServerStatus[] {
    return this.#connections.map((c) => {
      const status: McpServerStatus = {
        name: c.name,
        transport: c.transportType,
        state: c.state,
        tools: c.tools.length,
        resources: c.hasResources,
      };
      if (c.error !== undefined && c.state !== 'connected') status.error = c.error;
      if (c.instructions) status.instructions = c.instructions;
      return status;
    });
  }

  /** Closes every connection (ends stdio servers). */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((c) => c.close()));
    this.#aborts.clear();
  }
}

function uniqueDirs(dirs: readonly string[]): string[] {
  return [...new Set(dirs)];
}

/** Whether `dirs`, with repeats left out, is `unique` (a short list, in order). */
function sameDirs(dirs: readonly string[], unique: readonly string[]): boolean {
  let n = 0;
  for (let i = 0; i < dirs.length; i++) {
    const dir = dirs[i]!;
    if (dirs.indexOf(dir) < i) continue; // a repeat of one before it
    if (unique[n] !== dir) return false;
    n++;
  }
  return n === unique.length;
}
