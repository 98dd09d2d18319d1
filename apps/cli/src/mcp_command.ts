import { existsSync } from 'node:fs';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { defineFamily, describeError, type CanUseTool, type PermissionContext } from '@toolshed/core';
import { createMcpPermissionPrompt, listMcpServers, serveSession, type McpServerStatus } from '@toolshed/mcp-bridge';
import type { CommandInvocation, CommonArgs } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { loadFamilies } from './families.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { mcpLoginCommand } from './mcp_login_command.ts';
import { createCliSession, settingsOptions } from './session_from_args.ts';
import { UsageError } from './usage_error.ts';

/** The flags of `toolshed mcp` beyond the common ones. */
export interface McpCommandFlags {
  /** `--http PORT` of `mcp serve`, as given; stdio when absent. */
  http?: string | undefined;
}

/** What {@linkcode mcpCommand} takes: the common invocation, and `--http` once the parser knows it. */
export type McpCommandInvocation = CommandInvocation & { args: CommandInvocation['args'] & McpCommandFlags };

/** One row of `toolshed mcp list --json`. */
export type McpListRow = McpServerStatus;

/**
 * `toolshed mcp serve [--only …] [--http PORT]` and `toolshed mcp list [--json]`.
 *
 * `serve` builds a session from the common flags (families, settings sources and files,
 * permission rules, MCP config) and serves its tools to MCP clients over stdio — stdout then carries the protocol,
 * and every message of the CLI goes to stderr — or over Streamable HTTP on 127.0.0.1:PORT
 * until interrupted. A call that needs approval is asked of the client through MCP
 * elicitation (with `--yes` it is allowed; a client without elicitation gets a denial naming
 * the rule to add with `--allow`).
 *
 * `list` connects to every server of `--mcp-config` (default: `.mcp.json` in the working
 * directory) and prints each one's transport, status and tool count. A server that the
 * permission rules (settings files, `--deny`) remove whole (`mcp__server`) is not started, as
 * in a session, and is listed as `denied` with the rule and the file it comes from. Exit 1
 * when a server failed (a denied one is not a failure).
 *
 * @param invocation `positionals` is `['serve']` or `['list']`; `args.http` is the `--http` value.
 * @param io The CLI's streams.
 * @returns The exit code: 0 ok, 1 a server of `list` failed, 2 usage error.
 * @throws {UsageError} For a missing or unknown subcommand, a bad `--http` port, a bad config
 *   file, or a settings file or permission rule that is not valid.
 *
 * @example
 * ```ts
 * await mcpCommand({ positionals: ['list'], args: { ...args, mcpConfig: '.mcp.json' } }, io);
 * ```
 */
export async function mcpCommand(invocation: McpCommandInvocation, io: CliIo): Promise<number> {
  const [sub, ...rest] = invocation.positionals;
  if (sub === 'login') return mcpLoginCommand(rest, invocation.args, io);
  if (rest.length) throw new UsageError(`"toolshed mcp ${sub}" takes no arguments; unexpected ${rest.map((r) => `"${r}"`).join(' ')}.`, { command: 'mcp' });
  if (sub === 'serve') return serve(invocation.args, io);
  if (sub === 'list') {
    if (invocation.args.http !== undefined) throw new UsageError('--http is a flag of "toolshed mcp serve", not of "toolshed mcp list".', { command: 'mcp' });
    return list(invocation.args, io);
  }
  throw new UsageError(sub === undefined ? '"toolshed mcp" needs a subcommand: serve, list or login.' : `Unknown subcommand "mcp ${sub}": use "mcp serve", "mcp list" or "mcp login <server>".`, { command: 'mcp' });
}

async function list(args: McpCommandInvocation['args'], io: CliIo): Promise<number> {
  const baseDir = process.cwd();
  let file = args.mcpConfig;
  if (file === undefined) {
    const project = path.join(args.cwd, '.mcp.json');
    if (!existsSync(project)) {
      throw new UsageError(`No MCP servers to list: give --mcp-config FILE, or put a .mcp.json in ${args.cwd} (for example {"mcpServers": {"git": {"command": "mcp-server-git"}}}).`, { showUsage: false });
    }
    file = project;
  }
  const config = await readMcpConfigFile(file, baseDir);
  const permissions = await sessionPermissions(args, io);
  let statuses: McpServerStatus[];
  try {
    statuses = await listMcpServers(config, { cwd: args.cwd, permissions });
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(`The --mcp-config file "${file}" is not valid: ${e.message}`, { showUsage: false });
    throw e;
  }
  if (args.json) io.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
  else io.stdout.write(statuses.length ? formatTable(statuses) : `No servers in ${file}.\n`);
  return statuses.some((s) => s.state !== 'connected' && s.state !== 'denied') ? 1 : 0;
}

/**
 * The permission rules a session of these flags would have: core reads the settings files and
 * merges them with `--allow`/`--deny`/`--ask` exactly as for `mcp serve`, and hands the result
 * to each family's setup, where it is taken.
 */
async function sessionPermissions(args: CommonArgs, io: CliIo): Promise<PermissionContext> {
  let permissions: PermissionContext | undefined;
  const probe = defineFamily({ name: 'mcp-list', version: '0.0.0', tools: [], setup: (api) => void (permissions = api.permissions) });
  const session = await createCliSession({ cwd: args.cwd, families: [probe], ...settingsOptions(args, io) });
  for (const notice of session.notices()) io.stderr.write(`toolshed: ${notice.level}: ${notice.message}\n`);
  await session.close();
  return permissions!;
}

function formatTable(statuses: readonly McpServerStatus[]): string {
  const header = ['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'RESOURCES', 'ERROR'];
  const cells = statuses.map((s) => [s.name, s.transport, s.state, String(s.tools), s.resources ? 'yes' : 'no', s.deniedBy ? `deny rule "${s.deniedBy.rule}" from ${s.deniedBy.source}` : (s.error ?? '')]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--http needs a port number from 0 to 65535, got "${value}". Example: toolshed mcp serve --http 8931`, { command: 'mcp' });
  return port;
}

async function serve(args: McpCommandInvocation['args'], io: CliIo): Promise<number> {
  const port = args.http === undefined ? undefined : parsePort(args.http);
  const mcpConfig = args.mcpConfig === undefined ? undefined : await readMcpConfigFile(args.mcpConfig, process.cwd());
  const { families, warnings } = await loadFamilies(args.families, mcpConfig && args.mcpConfig ? { mcpConfig, mcpConfigFile: args.mcpConfig } : {});
  for (const warning of warnings) io.stderr.write(`toolshed: warn: ${warning}\n`);
  // stdin and stdout belong to the protocol (stdio) or to nobody (HTTP): asks go to the client.
  const prompt = createMcpPermissionPrompt();
  const canUseTool: CanUseTool = args.yes ? () => Promise.resolve({ behavior: 'allow' }) : prompt.canUseTool;
  // The same settings files, rules and sources as every other command (core reads and checks them).
  const session = await createCliSession({
    cwd: args.cwd,
    families,
    ...settingsOptions(args, io),
    canUseTool,
    ...(io.extraTools?.length ? { tools: io.extraTools } : {}),
  });
  for (const notice of session.notices()) io.stderr.write(`toolshed: ${notice.level}: ${notice.message}\n`);
  try {
    const tools = session.catalog().length;
    if (port === undefined) {
      const stdout = new Writable({
        write(chunk: Buffer | string, _encoding, callback) {
          io.stdout.write(chunk.toString());
          callback();
        },
      });
      const served = await serveSession(session, { transport: 'stdio', stdin: io.stdin as Readable, stdout, permissionPrompt: prompt });
      io.stderr.write(`toolshed: serving ${tools} tools over stdio (families: ${args.families.join(', ')})\n`);
      io.signal?.addEventListener('abort', () => void served.close(), { once: true });
      await served.closed;
    } else {
      const served = await serveSession(session, { http: { port }, permissionPrompt: prompt });
      io.stderr.write(`toolshed: serving ${tools} tools at ${served.url} (families: ${args.families.join(', ')}); Ctrl-C stops\n`);
      await untilInterrupted(io.signal);
      await served.close();
    }
    return 0;
  } finally {
    try {
      await session.close();
    } catch (e) {
      io.stderr.write(`toolshed: warn: closing the session failed: ${describeError(e)}\n`);
    }
  }
}

function untilInterrupted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
