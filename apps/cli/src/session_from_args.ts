import { createSession, describeError, ToolshedError, type CanUseTool, type HooksConfig, type PermissionOptions, type Session } from '@toolshed/core';
import type { CommonArgs } from './args.ts';
import type { CliIo } from './cli_io.ts';
import { loadFamilies } from './families.ts';
import { readMcpConfigFile } from './mcp_config_file.ts';
import { readSettingsFile, type SettingsFile } from './settings_file.ts';
import { createPrompter, type Prompter } from './_prompter.ts';
import { UsageError } from './usage_error.ts';

/** A permission rule as the CLI was given it, with where it came from. */
export interface GivenRule {
  /** The rule as written, such as `Bash(npm test:*)`. */
  raw: string;
  behavior: 'allow' | 'deny' | 'ask';
  /** `cli` for a flag, or the settings file's absolute path. */
  source: string;
}

/** What {@linkcode withSession} gives a command besides the session. */
export interface SessionExtras {
  /** Every rule of the settings file and the flags, file first. */
  rules: readonly GivenRule[];
}

/**
 * Builds the session a command runs in from the common flags, runs `fn` with it, and closes it
 * whatever happens. Family notices (and warnings about families or settings) go to stderr.
 *
 * Permissions: the `--settings` file's rules come first and the flags' rules are appended (rule
 * lists concatenate); `--mode` overrides the file's `defaultMode`. Prompts: with `--yes` every
 * ask is allowed; in a TTY the user is asked on stderr; otherwise there is no `canUseTool`, so
 * core denies the call and names the rule that would allow it.
 *
 * @param args The parsed common flags.
 * @param io The CLI's streams (and the test hook `extraTools`).
 * @param fn The command's work; it gets the session and the rules as given, with their sources.
 * @returns What `fn` returns.
 * @throws {UsageError} When the settings or MCP config file is wrong, or a permission rule or
 *   mode does not parse.
 *
 * @example
 * ```ts
 * const code = await withSession(args, io, async (session) => {
 *   io.stdout.write(`${session.catalog().length} tools\n`);
 *   return 0;
 * });
 * ```
 */
export async function withSession<T>(
  args: CommonArgs,
  io: CliIo,
  fn: (session: Session, extras: SessionExtras) => Promise<T>,
): Promise<T> {
  // Paths on the command line are the user's, relative to where they typed it, not to --cwd.
  const baseDir = process.cwd();
  const settings = args.settings === undefined ? undefined : await readSettingsFile(args.settings, baseDir);
  const mcpConfig = args.mcpConfig === undefined ? undefined : await readMcpConfigFile(args.mcpConfig, baseDir);
  const { families, warnings } = await loadFamilies(args.families, mcpConfig && args.mcpConfig ? { mcpConfig, mcpConfigFile: args.mcpConfig } : {});
  for (const warning of [...(settings?.warnings ?? []), ...warnings]) io.stderr.write(`toolshed: warn: ${warning}\n`);

  const prompter = !args.yes && io.isTTY ? createPrompter(io) : undefined;
  let session: Session | undefined;
  const canUseTool = args.yes ? allowEverything : prompter ? askAtTerminal(prompter, io, () => session) : undefined;
  try {
    session = await createSession({
      cwd: args.cwd,
      families,
      permissions: mergePermissions(settings?.permissions ?? {}, args),
      ...(settings?.hooks ? { hooks: settings.hooks satisfies HooksConfig } : {}),
      ...(canUseTool ? { canUseTool } : {}),
      ...(io.extraTools?.length ? { tools: io.extraTools } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } catch (e) {
    prompter?.close();
    if (ToolshedError.isInstance(e) && e.code.startsWith('permission_')) {
      throw new UsageError(`The permission settings are not valid:\n${e.message}`, { showUsage: false });
    }
    throw e;
  }
  let shown = 0;
  const showNotices = () => {
    const notices = session!.notices();
    for (const notice of notices.slice(shown)) io.stderr.write(`toolshed: ${notice.level}: ${notice.message}\n`);
    shown = notices.length;
  };
  try {
    showNotices();
    return await fn(session, { rules: givenRules(settings, args) });
  } finally {
    prompter?.close();
    try {
      await session.close();
    } catch (e) {
      io.stderr.write(`toolshed: warn: closing the session failed: ${describeError(e)}\n`);
    }
    showNotices();
  }
}

/**
 * The permission options of the session: the settings file's, with the flags' rules appended and
 * `--mode` winning over `defaultMode`.
 *
 * @param fromFile The settings file's permissions (`mode` holds its `defaultMode`).
 * @param args The flags.
 * @returns The merged options.
 *
 * @example
 * ```ts
 * mergePermissions({ mode: 'plan', deny: ['WebFetch'] }, { ...args, mode: 'default', deny: ['Bash'] });
 * // { mode: 'default', allow: [], deny: ['WebFetch', 'Bash'], ask: [] }
 * ```
 */
export function mergePermissions(fromFile: PermissionOptions, args: Pick<CommonArgs, 'mode' | 'allow' | 'deny' | 'ask'>): PermissionOptions {
  const mode = args.mode ?? fromFile.mode;
  return {
    ...(mode !== undefined ? { mode } : {}),
    allow: [...(fromFile.allow ?? []), ...args.allow],
    deny: [...(fromFile.deny ?? []), ...args.deny],
    ask: [...(fromFile.ask ?? []), ...args.ask],
    ...(fromFile.additionalDirectories ? { additionalDirectories: fromFile.additionalDirectories } : {}),
  };
}

function givenRules(settings: SettingsFile | undefined, args: CommonArgs): GivenRule[] {
  const rules: GivenRule[] = [];
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    for (const raw of settings?.permissions[behavior] ?? []) rules.push({ raw, behavior, source: settings!.path });
    for (const raw of args[behavior]) rules.push({ raw, behavior, source: 'cli' });
  }
  return rules;
}

const allowEverything: CanUseTool = () => Promise.resolve({ behavior: 'allow' });

function askAtTerminal(prompter: Prompter, io: CliIo, getSession: () => Session | undefined): CanUseTool {
  return async (toolName, input, { reason, signal }) => {
    const summary = summaryOf(getSession(), toolName, input);
    io.stderr.write(`toolshed: ${toolName} needs approval: ${reason}\n`);
    const answer = await Promise.race([
      prompter.ask(`Allow ${toolName}${summary ? ` ${summary}` : ''}? [y/N] `),
      new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
    ]);
    if (answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)) return { behavior: 'allow' };
    if (answer === undefined) io.stderr.write('\n');
    return { behavior: 'deny', message: answer === undefined ? 'no answer at the prompt (stdin ended); pass --yes to allow such calls' : 'the user declined at the prompt' };
  };
}

function summaryOf(session: Session | undefined, toolName: string, input: unknown): string {
  const tool = session?.catalog().find((e) => e.name === toolName)?.tool;
  if (!tool) return '';
  try {
    const parsed = tool.inputSchema.safeParse(input);
    return parsed.success ? tool.getToolUseSummary(parsed.data) : '';
  } catch {
    return ''; // a summary is a courtesy; a tool's broken renderer must not break the prompt
  }
}
