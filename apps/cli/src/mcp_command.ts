import { closeSync, createReadStream, createWriteStream, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import {
  defineFamily,
  isProjectTrusted,
  loadSettings,
  SkillSources,
  skillSourcesKey,
  type CanUseTool,
  type Family,
  type PermissionContext,
  type Session,
} from '@toolshed/core';
import { describeError } from '@toolshed/core/internal';
import {
  createMcpPermissionPrompt,
  listMcpServers,
  serveSession,
  skillPrompts,
  type McpPermissionAsker,
  type McpServerStatus,
} from '@toolshed/mcp-bridge';
import type { CommandInvocation, CommonArgs } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { loadFamilies } from './families.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { withoutClaudeOnlyMcp } from './_mcp_claude_only.ts';
import { withSettingsEnv } from './_mcp_settings_env.ts';
import { readFilesLine, readProjectFiles } from './project_files.ts';
import { selectMcpjsonServers } from './_mcpjson_selection.ts';
import { createPrompter, type Prompter } from './_prompter.ts';
import { mcpLoginCommand } from './mcp_login_command.ts';
import { mcpPromptCommand } from './mcp_prompt_command.ts';
import { createCliSession, settingsOptions } from './session_from_args.ts';
import { UsageError } from './usage_error.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

/** The flags of `toolshed mcp` beyond the common ones. */
export interface McpCommandFlags {
  /** `--http PORT` of `mcp serve`, as given; stdio when absent. */
  http?: string | undefined;
  /** `--approve deny|elicit|tty`: who answers a permission ask. @default 'deny' */
  approve?: string | undefined;
  /** `--token-file FILE`: the bearer token HTTP clients must send (else one is generated). */
  tokenFile?: string | undefined;
  /** `--no-auth`: serve HTTP without a token (loopback only; a warning is printed). */
  noAuth?: boolean | undefined;
}

/** What {@linkcode mcpCommand} takes: the common invocation, and `--http` once the parser knows it. */
export type McpCommandInvocation = CommandInvocation & { args: CommandInvocation['args'] & McpCommandFlags };

/** One row of `toolshed mcp list --json`. */
export type McpListRow = McpServerStatus;

/**
 * `toolshed mcp serve [--only …] [--http PORT]` and `toolshed mcp list [--json]`.
 *
 * `serve` builds a session from the common flags (families, settings sources and files,
 * permission rules, MCP config) and serves its tools to MCP clients over stdio — stdout then
 * carries the protocol, and every message of the CLI goes to stderr — or over Streamable HTTP
 * on 127.0.0.1:PORT until interrupted. Over HTTP every request must carry a bearer token:
 * generated per start, printed once and written to `~/.toolshed/mcp-serve-PORT.token` (0600),
 * or read from `--token-file FILE`; `--no-auth` serves without one, with a warning. Each HTTP
 * client session gets its own Toolshed session. Who answers a call that needs approval is
 * `--approve`: `deny` (default; the denial names the rule to add with `--allow`), `elicit`
 * (the client's user decides, through MCP elicitation) or `tty` (the serving user, at the
 * terminal); `--yes` allows every call.
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
 * import { mcpCommand, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * await mcpCommand({ positionals: ['list'], args: { ...args, mcpConfig: '.mcp.json' } }, io);
 * ```
 */
export async function mcpCommand(invocation: McpCommandInvocation, io: CliIo): Promise<number> {
  const [sub, ...rest] = invocation.positionals;
  if (sub === 'login') return mcpLoginCommand(rest, { args: invocation.args, io });
  if (sub === 'prompt') return mcpPromptCommand(rest, { args: invocation.args, io });
  if (rest.length)
    throw new UsageError(
      `"toolshed mcp ${sub}" takes no arguments; unexpected ${rest.map((r) => `"${r}"`).join(' ')}.`,
      { command: 'mcp' },
    );
  if (sub === 'serve') return serve(invocation.args, io);
  if (sub === 'list') {
    if (invocation.args.http !== undefined)
      throw new UsageError('--http is a flag of "toolshed mcp serve", not of "toolshed mcp list".', { command: 'mcp' });
    return list(invocation.args, io);
  }
  throw new UsageError(
    sub === undefined
      ? '"toolshed mcp" needs a subcommand: serve, list, login or prompt.'
      : `Unknown subcommand "mcp ${sub}": use "mcp serve", "mcp list", "mcp login <server>" or "mcp prompt [server] [prompt]".`,
    { command: 'mcp' },
  );
}

async function list(args: McpCommandInvocation['args'], io: CliIo): Promise<number> {
  const baseDir = process.cwd();
  let file = args.mcpConfig;
  if (file === undefined) {
    const project = path.join(args.cwd, '.mcp.json');
    if (!existsSync(project)) {
      throw new UsageError(
        `No MCP servers to list: give --mcp-config FILE, or put a .mcp.json in ${args.cwd} (for example {"mcpServers": {"git": {"command": "mcp-server-git"}}}).`,
        { showUsage: false },
      );
    }
    // Its servers are commands that the repository's author chose: not run from a folder the user has not trusted.
    if (!(await isProjectTrusted(args.cwd, { homeDir: settingsOptions(args, io).homeDir }))) {
      throw new UsageError(
        `The .mcp.json in ${args.cwd} belongs to a project folder that is not trusted, so its servers (commands the repository chose) were not started. Run "toolshed trust ${args.cwd}" to use it by default, or name it once with --mcp-config ${project}.`,
        { showUsage: false },
      );
    }
    file = project;
  }
  const read = await readMcpConfigFile(file, baseDir, { inProject: args.mcpConfig === undefined });
  const permissions = await sessionPermissions(args, io);
  // The settings' `env` reaches the servers and their `${VAR}`, as in every other command.
  const settings = await loadSettings({
    cwd: args.cwd,
    homeDir: settingsOptions(args, io).homeDir,
    sources: args.settingSources,
    files: args.settings.map((f) => path.resolve(baseDir, f)),
  });
  const claudeOnly = withoutClaudeOnlyMcp(read, args.mcpConfig ?? '.mcp.json');
  for (const notice of claudeOnly.notices) io.stderr.write(`toolshed: warn: ${printableMessage(notice)}\n`);
  // The project's own .mcp.json: the servers its settings leave out are listed, not started (a file named with --mcp-config is taken whole).
  const { kept, left } =
    args.mcpConfig === undefined
      ? selectMcpjsonServers(claudeOnly.config['mcpServers'] as Record<string, unknown>, settings.mcpjsonServers)
      : { kept: claudeOnly.config['mcpServers'] as Record<string, unknown>, left: [] };
  const { config, expandFrom } = withSettingsEnv({ ...claudeOnly.config, mcpServers: kept }, settings.env);
  let statuses: McpServerStatus[];
  try {
    statuses = await listMcpServers(config, { cwd: args.cwd, permissions, env: expandFrom, inheritEnv: true });
  } catch (e) {
    if (e instanceof TypeError)
      throw new UsageError(`The --mcp-config file "${file}" is not valid: ${e.message}`, { showUsage: false });
    throw e;
  }
  const notStarted = left.map((l) => ({
    name: l.name,
    transport: transportOf(read, l.name),
    state: 'not-started',
    reason: l.why,
  }));
  if (args.json) io.stdout.write(`${JSON.stringify([...statuses, ...notStarted], null, 2)}\n`);
  else if (statuses.length + notStarted.length === 0) io.stdout.write(`No servers in ${file}.\n`);
  else io.stdout.write(formatTable(statuses, notStarted));
  return statuses.some((s) => s.state !== 'connected' && s.state !== 'denied') ? 1 : 0;
}

/**
 * The permission rules a session of these flags would have: core reads the settings files and
 * merges them with `--allow`/`--deny`/`--ask` exactly as for `mcp serve`, and hands the result
 * to each family's setup, where it is taken.
 */
async function sessionPermissions(args: CommonArgs, io: CliIo): Promise<PermissionContext> {
  let permissions: PermissionContext | undefined;
  const probe = defineFamily({
    name: 'mcp-list',
    version: '0.0.0',
    tools: [],
    setup: (api) => void (permissions = api.permissions),
  });
  const session = await createCliSession({ cwd: args.cwd, families: [probe], ...settingsOptions(args, io) });
  for (const notice of session.notices())
    io.stderr.write(`toolshed: ${notice.level}: ${printableMessage(notice.message)}\n`);
  await session.close();
  return permissions!;
}

/** A server's transport as its entry says (`type`, else stdio for a command and http for a url), for a server not started. */
function transportOf(config: Record<string, unknown>, name: string): string {
  const entry = ((config['mcpServers'] as Record<string, unknown>)[name] ?? {}) as { type?: unknown; url?: unknown };
  if (typeof entry.type === 'string') return entry.type;
  return typeof entry.url === 'string' ? 'http' : 'stdio';
}

function formatTable(
  statuses: readonly McpServerStatus[],
  notStarted: readonly { name: string; transport: string; reason: string }[],
): string {
  const header = ['NAME', 'TRANSPORT', 'STATUS', 'TOOLS', 'RESOURCES', 'ERROR'];
  // Names come from a project's .mcp.json and errors from the servers: shown with their escape codes escaped.
  const cells = statuses.map((s) =>
    [
      s.name,
      s.transport,
      s.state,
      String(s.tools),
      s.resources ? 'yes' : 'no',
      s.deniedBy ? `deny rule "${s.deniedBy.rule}" from ${s.deniedBy.source}` : (s.error ?? ''),
    ].map(escapeUnprintable),
  );
  for (const s of notStarted)
    cells.push(
      [s.name, s.transport, 'not started', '-', '-', `${s.reason} (the settings say so)`].map(escapeUnprintable),
    );
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...cells.map(line)].join('\n')}\n`;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new UsageError(
      `--http needs a port number from 0 to 65535, got "${value}". Example: toolshed mcp serve --http 8931`,
      { command: 'mcp' },
    );
  return port;
}

async function serve(args: McpCommandInvocation['args'], io: CliIo): Promise<number> {
  const port = args.http === undefined ? undefined : parsePort(args.http);
  const approve = parseApprove(args.approve);
  if (port === undefined && (args.tokenFile !== undefined || args.noAuth)) {
    throw new UsageError(
      `${args.noAuth ? '--no-auth' : '--token-file'} is a flag of "toolshed mcp serve --http PORT": over stdio the client that started the server is the only one.`,
      { command: 'mcp' },
    );
  }
  if (args.noAuth && args.tokenFile !== undefined)
    throw new UsageError('--no-auth and --token-file exclude each other: serve with a token, or without one.', {
      command: 'mcp',
    });
  const token = args.tokenFile === undefined ? undefined : await readTokenFile(args.tokenFile);
  // The same files as every other command: --mcp-config, or the trusted project's .mcp.json.
  const homeDir = settingsOptions(args, io).homeDir;
  const project = await readProjectFiles(args, homeDir);
  if (project.read.length > 0)
    io.stderr.write(`toolshed: ${readFilesLine(project.read, { cwd: args.cwd, homeDir })}\n`);
  for (const notice of project.notices) io.stderr.write(`toolshed: warn: ${printableMessage(notice)}\n`);
  const mcpOptions =
    project.mcpConfig && project.mcpConfigFile
      ? {
          mcpConfig: project.mcpConfig,
          mcpConfigFile: project.mcpConfigFile,
          homeDir,
          ...(project.mcpEnv ? { mcpEnv: project.mcpEnv } : {}),
        }
      : { homeDir };
  // Each client session gets families of its own: an MCP family serves one session at a time.
  const familiesOf = () => loadFamilies(args.families, mcpOptions);
  const { families, warnings } = await familiesOf();
  for (const warning of warnings) io.stderr.write(`toolshed: warn: ${printableMessage(warning)}\n`);
  // stdin and stdout belong to the protocol (stdio) or to nobody (HTTP): who approves an ask is
  // --approve (deny by default), or --yes, which allows every call.
  const prompt = createMcpPermissionPrompt();
  const canUseTool: CanUseTool = args.yes ? () => Promise.resolve({ behavior: 'allow' }) : prompt.canUseTool;
  // The session's skills (the agent family's skill files, the MCP servers' prompts) are its prompts.
  const skillsOf = new WeakMap<Session, SkillSources>();
  const prompts = (s: Session) => skillPrompts(skillsOf.get(s) ?? new SkillSources());
  const newSession = async (familiesOfSession: Family[]) => {
    const skills = new SkillSources();
    const s = await createCliSession({
      cwd: args.cwd,
      families: familiesOfSession,
      ...settingsOptions(args, io),
      canUseTool,
      ...(io.extraTools?.length ? { tools: io.extraTools } : {}),
      services: [[skillSourcesKey, skills]],
    });
    skillsOf.set(s, skills);
    return s;
  };
  // The same settings files, rules and sources as every other command (core reads and checks
  // them): made once now, so that a bad file stops the command before anything is served.
  const session = await newSession(families);
  const printed = new Set<string>();
  const printNotices = (s: Session) => {
    for (const notice of s.notices()) {
      if (printed.has(notice.message)) continue;
      printed.add(notice.message);
      io.stderr.write(`toolshed: ${notice.level}: ${printableMessage(notice.message)}\n`);
    }
  };
  printNotices(session);
  const asker = approve === 'tty' ? terminalApprover(io, port !== undefined) : undefined;
  const approveOption = asker?.approve ?? (approve === 'tty' ? 'deny' : approve);
  let sessionOpen = true;
  try {
    const tools = session.catalog().length;
    if (port === undefined) {
      const stdout = new Writable({
        write(chunk: Buffer | string, _encoding, callback) {
          io.stdout.write(chunk.toString());
          callback();
        },
      });
      const served = await serveSession(session, {
        transport: 'stdio',
        stdin: io.stdin as Readable,
        stdout,
        permissionPrompt: prompt,
        approve: approveOption,
        prompts,
      });
      io.stderr.write(
        `toolshed: serving ${tools} tools over stdio (families: ${args.families.join(', ')}; permission asks: ${describeApprove(approve, args.yes)})\n`,
      );
      io.signal?.addEventListener('abort', () => void served.close(), { once: true });
      await served.closed;
      return 0;
    }
    // Over HTTP every client session gets a Toolshed session of its own (cwd, read state, tasks).
    sessionOpen = false;
    await session.close();
    const served = await serveSession(
      async () => {
        const s = await newSession((await familiesOf()).families);
        printNotices(s);
        return s;
      },
      {
        http: { port, ...(token !== undefined ? { token } : {}), ...(args.noAuth ? { noAuth: true } : {}) },
        permissionPrompt: prompt,
        approve: approveOption,
        prompts,
      },
    );
    let tokenFile: string | undefined;
    try {
      if (args.noAuth) {
        io.stderr.write(
          'toolshed: warn: serving WITHOUT authentication (--no-auth): any process on this machine can call these tools as you. Use it only for clients that cannot send an Authorization header.\n',
        );
      } else if (args.tokenFile === undefined) {
        tokenFile = await writeTokenFile(served.token!, served.url!, io);
        io.stderr.write(
          `toolshed: token: ${served.token} (written to ${tokenFile}, mode 0600; clients send "Authorization: Bearer <token>")\n`,
        );
      } else {
        io.stderr.write(
          `toolshed: clients must send the token of ${args.tokenFile} as "Authorization: Bearer <token>"\n`,
        );
      }
      io.stderr.write(
        `toolshed: serving ${tools} tools at ${served.url} (families: ${args.families.join(', ')}; permission asks: ${describeApprove(approve, args.yes)}); Ctrl-C stops\n`,
      );
      await untilInterrupted(io.signal);
    } finally {
      await served.close();
      if (tokenFile !== undefined) await rm(tokenFile, { force: true }).catch(() => {});
    }
    return 0;
  } finally {
    asker?.close();
    if (sessionOpen) {
      try {
        await session.close();
      } catch (e) {
        io.stderr.write(`toolshed: warn: closing the session failed: ${describeError(e)}\n`);
      }
    }
  }
}

type Approve = 'deny' | 'elicit' | 'tty';

function parseApprove(value: string | undefined): Approve {
  if (value === undefined) return 'deny';
  if (value === 'deny' || value === 'elicit' || value === 'tty') return value;
  throw new UsageError(
    `--approve must be deny, elicit or tty, got "${value}". deny (the default): asks are denied, naming the rule to add; elicit: the MCP client's user decides; tty: you decide at this terminal.`,
    { command: 'mcp' },
  );
}

function describeApprove(approve: Approve, yes: boolean): string {
  if (yes) return 'all allowed (--yes)';
  return approve === 'deny'
    ? 'denied, naming the rule to add (--approve deny)'
    : approve === 'elicit'
      ? "the client's user decides (--approve elicit)"
      : 'asked at this terminal (--approve tty)';
}

/**
 * `--approve tty`: the serving user answers at a terminal. Over HTTP the CLI's own stdin is
 * free when it is a terminal; over stdio (stdin is the protocol) it opens /dev/tty.
 */
function terminalApprover(io: CliIo, http: boolean): { approve: McpPermissionAsker; close: () => void } {
  let prompter: Prompter;
  if (http && io.isTTY) {
    prompter = createPrompter(io);
  } else {
    let fd: number;
    try {
      fd = openSync('/dev/tty', 'r+');
    } catch (e) {
      throw new UsageError(
        `--approve tty needs a terminal to ask at, and /dev/tty could not be opened (${(e as Error).message}); use --approve deny (and --allow RULE) or --approve elicit.`,
        { command: 'mcp' },
      );
    }
    const input = createReadStream('', { fd, autoClose: false });
    const output = createWriteStream('', { fd, autoClose: false });
    const closeTty = () => {
      input.destroy();
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    };
    const inner = createPrompter({ stdin: input, stderr: { write: (text: string) => output.write(text) } });
    prompter = { ask: inner.ask, close: () => (inner.close(), closeTty()) };
  }
  return {
    approve: async (toolName, input, { reason, signal }) => {
      // The client's input and what the guard says of it are shown with their escape codes escaped.
      const shown = escapeUnprintable(JSON.stringify(input));
      const answer = await Promise.race([
        prompter.ask(
          `toolshed: an MCP client calls ${escapeUnprintable(toolName)}, which needs approval: ${printableMessage(reason)}\n  input: ${shown.length > 500 ? `${shown.slice(0, 497)}...` : shown}\nAllow? [y/N] `,
        ),
        new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
      ]);
      if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) return { behavior: 'allow' };
      return {
        behavior: 'deny',
        message:
          answer === undefined ? 'no answer at the serving terminal' : 'the serving user declined at the terminal',
      };
    },
    close: () => prompter.close(),
  };
}

async function readTokenFile(file: string): Promise<string> {
  const full = path.resolve(process.cwd(), file);
  let info;
  let text: string;
  try {
    info = await stat(full);
    text = await readFile(full, 'utf8');
  } catch (e) {
    throw new UsageError(
      `--token-file "${file}" cannot be read (${(e as Error).message}); put a random token of at least 16 characters in it, for example: openssl rand -hex 32 > ${file} && chmod 600 ${file}`,
      { command: 'mcp', showUsage: false },
    );
  }
  if ((info.mode & 0o077) !== 0) {
    throw new UsageError(
      `--token-file "${file}" can be read by other users (mode ${(info.mode & 0o777).toString(8)}); run chmod 600 ${file}.`,
      { command: 'mcp', showUsage: false },
    );
  }
  const token = text.trim();
  if (token.length < 16 || /\s/.test(token)) {
    throw new UsageError(
      `--token-file "${file}" must hold one token of at least 16 characters without spaces; for example: openssl rand -hex 32 > ${file}`,
      { command: 'mcp', showUsage: false },
    );
  }
  return token;
}

/** Writes the generated token where only this user can read it: ~/.toolshed/mcp-serve-PORT.token. */
async function writeTokenFile(token: string, url: string, io: CliIo): Promise<string> {
  const home = io.env?.['HOME'] || homedir();
  const dir = path.join(home, '.toolshed');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `mcp-serve-${new URL(url).port}.token`);
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}

function untilInterrupted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal) {
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    // SIGHUP too: a closed terminal must still remove the token file.
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const stop = () => {
      for (const s of signals) process.off(s, stop);
      resolve();
    };
    for (const s of signals) process.once(s, stop);
  });
}
