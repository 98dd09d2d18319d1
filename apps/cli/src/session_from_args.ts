import { homedir } from 'node:os';
import path from 'node:path';
import {
  askUserKey,
  createSession,
  PERMISSION_OPTIONS_INVALID,
  PERMISSION_RULE_INVALID,
  SETTINGS_INVALID,
  ToolshedError,
  type AskUser,
  type CanUseTool,
  type Family,
  type PermissionOptions,
  type Session,
  type SessionOptions,
} from '@toolshed/core';
import { describeError } from '@toolshed/core/internal';
import type { CommonArgs } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { loadFamilies, otherFamilyKeys } from './families.ts';
import { readFilesLine, readProjectFiles } from './project_files.ts';
import { createPrompter } from './_prompter.ts';
import { askToTrustProject } from './_trust_prompt.ts';
import { isSetupHint, loadSetupHints } from './_setup_hints.ts';
import { terminalPermissionPrompt } from './_permission_prompt.ts';
import { UsageError } from './usage_error.ts';
import { flagRuleWarnings } from './_flag_rule_warnings.ts';
import { terminalAskUser } from './_terminal_ask_user.ts';
import { toolUseSummary } from './_tool_summary.ts';
import { levelWord } from './_style.ts';
import { printableMessage } from './_printable.ts';

/** The settings and permission part of the session options, as the CLI's flags give it. */
export type SettingsOptions = Required<
  Pick<SessionOptions, 'settingsSources' | 'settingsFiles' | 'homeDir' | 'permissions' | 'permissionsSource'>
>;

/**
 * The settings and permission options of a session built from the common flags. Core reads and
 * checks the settings files (`--setting-sources`, then each `--settings FILE`) and names each
 * file as the source of its rules; the flags' rules come on top with the source `cli`, and
 * `--mode` beats any file's `defaultMode`.
 *
 * @param args The parsed common flags.
 * @param io The CLI's environment: `HOME` there is the user settings' home (tests point it at a
 *   temporary directory), else the account's home directory.
 * @returns `settingsSources`, `settingsFiles` (absolute), `homeDir`, `permissions`, `permissionsSource`.
 *
 * @example
 * ```ts
 * import { createCliSession, settingsOptions, type CliIo, type CommonArgs } from '@toolshed/cli';
 * import type { Family } from '@toolshed/core';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 * declare const families: Family[];
 *
 * const session = await createCliSession({ cwd: args.cwd, families, ...settingsOptions(args, io) });
 * ```
 */
export function settingsOptions(args: CommonArgs, io: Pick<CliIo, 'env'>): SettingsOptions {
  const permissions: PermissionOptions = { allow: args.allow, deny: args.deny, ask: args.ask };
  if (args.mode !== undefined) permissions.mode = args.mode;
  return {
    settingsSources: args.settingSources,
    // Paths on the command line are the user's, relative to where they typed it, not to --cwd.
    settingsFiles: args.settings.map((file) => path.resolve(process.cwd(), file)),
    // An empty HOME is no home: `~` would otherwise become the directory the CLI runs in.
    homeDir: io.env?.['HOME'] || homedir(),
    permissions,
    permissionsSource: 'cli',
  };
}

/**
 * `createSession`, with the errors a person fixes on the command line turned into usage errors:
 * a settings file that does not parse, has an unknown key, a bad rule or a bad mode (core's
 * message names the file, the key path and the fix), and a bad `--allow`/`--deny`/`--ask` rule
 * or `--mode`.
 *
 * @param options The session options.
 * @returns The session.
 * @throws {UsageError} For bad settings or permission rules (exit 2, without the usage text).
 *
 * @example
 * ```ts
 * import { createCliSession, settingsOptions, type CliIo, type CommonArgs } from '@toolshed/cli';
 * import type { Family } from '@toolshed/core';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 * declare const families: Family[];
 *
 * const session = await createCliSession({ cwd: args.cwd, families, ...settingsOptions(args, io) });
 * ```
 */
export async function createCliSession(options: SessionOptions): Promise<Session> {
  try {
    return await createSession({ otherFamilyKeys: otherFamilyKeys(options.families ?? []), ...options });
  } catch (e) {
    if (!ToolshedError.isInstance(e)) throw e;
    switch (e.code) {
      case SETTINGS_INVALID:
        throw new UsageError(e.message, { showUsage: false });
      case PERMISSION_RULE_INVALID:
      case PERMISSION_OPTIONS_INVALID:
        throw new UsageError(`The permission settings are not valid:\n${e.message}`, { showUsage: false });
      default:
        throw e;
    }
  }
}

/**
 * The families of a command, with the MCP configuration its files give (see
 * {@linkcode readProjectFiles}), after one line on stderr naming the settings and MCP files read
 * (when any are) and the notices about `.mcp.json` servers not started.
 *
 * @param args The parsed common flags.
 * @param io Where the line and the warnings go.
 * @param homeDir Whose settings and trust list.
 * @returns The families that loaded.
 * @throws {UsageError} When the MCP configuration file is not valid.
 */
async function familiesFor(
  args: CommonArgs,
  io: Pick<CliIo, 'stderr' | 'isTTY' | 'env'>,
  homeDir: string,
): Promise<Family[]> {
  const project = await readProjectFiles(args, homeDir);
  if (project.read.length > 0)
    io.stderr.write(`toolshed: ${readFilesLine(project.read, { cwd: args.cwd, homeDir })}\n`);
  for (const notice of project.notices)
    io.stderr.write(`toolshed: ${levelWord('warn', io)}: ${printableMessage(notice)}\n`);
  const { families, warnings } = await loadFamilies(
    args.families,
    project.mcpConfig && project.mcpConfigFile
      ? {
          mcpConfig: project.mcpConfig,
          mcpConfigFile: project.mcpConfigFile,
          homeDir,
          ...(project.mcpEnv ? { mcpEnv: project.mcpEnv } : {}),
        }
      : { homeDir },
  );
  for (const warning of warnings) io.stderr.write(`toolshed: ${levelWord('warn', io)}: ${printableMessage(warning)}\n`);
  await loadSetupHints(args.families);
  return families;
}

/**
 * Builds the session a command runs in from the common flags, runs `options.run` with it, and closes it
 * whatever happens. Family notices (a tool disabled until configured, a server that failed to
 * start, settings keys that are ignored) and warnings about families go to stderr.
 *
 * Settings and permissions: see {@linkcode settingsOptions}. In a TTY, a project folder whose
 * untrusted settings would be partly ignored is asked about once (see `toolshed trust`). Prompts: with `--yes` every ask is
 * allowed; in a TTY the user is asked on stderr; otherwise there is no `canUseTool`, so core
 * denies the call and names the rule that would allow it.
 *
 * @param args The parsed common flags.
 * @param io The CLI's streams (and the test hook `extraTools`).
 * @param options The command's work (`run`), and its own prompt and answers, if any.
 * @returns What `run` returns.
 * @throws {UsageError} When a settings or MCP config file is wrong, or a permission rule or
 *   mode does not parse.
 *
 * @example
 * ```ts
 * import { withSession, type CliIo, type CommonArgs } from '@toolshed/cli';
 * declare const args: CommonArgs;
 * declare const io: CliIo;
 *
 * const code = await withSession(args, io, {
 *   run: async (session) => {
 *     io.stdout.write(`${session.catalog().length} tools\n`);
 *     return 0;
 *   },
 * });
 * ```
 */
export async function withSession<T>(args: CommonArgs, io: CliIo, options: WithSessionOptions<T>): Promise<T> {
  const fn = options.run;
  const homeDir = settingsOptions(args, io).homeDir;
  const own = args.yes ? undefined : options.canUseTool?.(() => session);
  // A command with its own prompts (chat) keeps the terminal to itself; the others ask here,
  // for permissions (unless --yes) and, once, whether to trust the project's settings.
  const prompter = !own && io.isTTY ? createPrompter(io) : undefined;
  let session: Session | undefined;
  const canUseTool = args.yes
    ? allowEverything
    : (own ??
      (prompter
        ? terminalPermissionPrompt(prompter, io, {
            project: args.cwd,
            homeDir: settingsOptions(args, io).homeDir,
            summaryOf: (name, input) => toolUseSummary(session, { name, input }),
          })
        : undefined));
  const spinner = io.spinner;
  // A prompt (ours, or a command's own) must not have a spinner frame drawn over its question.
  const prompted: CanUseTool | undefined =
    canUseTool && spinner && canUseTool !== allowEverything
      ? (name, input, context) => spinner.pause(() => canUseTool(name, input, context))
      : canUseTool;
  const asker = options.askUser ?? (prompter ? terminalAskUser(prompter, io) : undefined);
  const askUser: AskUser | undefined =
    asker && spinner ? { ask: (request) => spinner.pause(() => asker.ask(request)) } : asker;
  let families: Family[];
  try {
    // Asked before the families are built: trusting the folder decides whether .mcp.json's servers start.
    if (prompter) await askToTrustProject(args.cwd, { sources: args.settingSources, homeDir, prompter, io });
    families = await familiesFor(args, io, homeDir);
  } catch (e) {
    prompter?.close();
    throw e;
  }
  try {
    session = await createCliSession({
      cwd: args.cwd,
      families,
      ...settingsOptions(args, io),
      ...(prompted ? { canUseTool: prompted } : {}),
      ...(io.extraTools?.length ? { tools: io.extraTools } : {}),
      // Questions of AskUserQuestion and MCP elicitation: the command's own, else the terminal's.
      ...(askUser ? { services: [[askUserKey, askUser] as const] } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } catch (e) {
    prompter?.close();
    throw e;
  }
  let shown = 0;
  const showNotices = () => {
    const notices = session!.notices();
    for (const notice of notices.slice(shown).filter((n) => !isSetupHint(n)))
      io.stderr.write(`toolshed: ${levelWord(notice.level, io)}: ${printableMessage(notice.message)}\n`);
    shown = notices.length;
  };
  try {
    showNotices();
    for (const warning of await ruleFlagWarnings(args, session))
      io.stderr.write(`toolshed: ${levelWord('warn', io)}: ${warning}\n`);
    return await fn(session);
  } finally {
    prompter?.close();
    try {
      await session.close();
    } catch (e) {
      io.stderr.write(`toolshed: ${levelWord('warn', io)}: closing the session failed: ${describeError(e)}\n`);
    }
    showNotices();
  }
}

/** Options of {@linkcode withSession}. */
export interface WithSessionOptions<T = unknown> {
  /** The command's work, with the session; what it returns, `withSession` returns. */
  run: (session: Session) => Promise<T>;
  /** The command's own prompt (chat's allow once / always / deny), instead of the y/N one; `--yes` still wins. */
  canUseTool?: (getSession: () => Session | undefined) => CanUseTool | undefined;
  /** The command's own answers to questions (chat's, on its prompt); a terminal gets one by default. */
  askUser?: AskUser | undefined;
}

const allowEverything: CanUseTool = () => Promise.resolve({ behavior: 'allow' });

/**
 * The warnings about the command's rule flags (see {@linkcode flagRuleWarnings}), against the
 * session's pool: its tools and their aliases, and the tools a bare `--deny X` took out of it
 * (the session still names the rule that removed them).
 */
async function ruleFlagWarnings(args: CommonArgs, session: Session): Promise<string[]> {
  if (args.allow.length + args.deny.length + args.ask.length === 0) return [];
  const names = new Set<string>();
  for (const entry of session.catalog()) {
    names.add(entry.name);
    for (const alias of entry.tool?.aliases ?? []) names.add(alias);
  }
  for (const raw of args.deny) {
    if (/[()]/.test(raw) || names.has(raw)) continue;
    if ((await session.explain(raw, {})).rule !== undefined) names.add(raw);
  }
  return flagRuleWarnings(args, [...names]);
}
