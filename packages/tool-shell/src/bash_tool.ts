import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, savedOutputReaders, type Tool, type ToolContext } from '@toolshed/core';
import { deniedQuoteGuard, isPathInside, resolvePath, sessionResultsDir } from '@toolshed/core/internal';
import { analyzeCommand, isBashParserLoaded, loadBashParser } from './bash_parser.ts';
import { classifyCommand } from './classify_command.ts';
import { commandMatcher } from './command_matcher.ts';
import { commandResources } from './command_resources.ts';
import { sandboxMasks } from './_sandbox_masks.ts';
import { findBwrap } from './sandbox.ts';
import { checkShellPermissions } from './shell_permissions.ts';
import { shellRuleSuggestions } from './shell_suggestions.ts';
import { isDestructiveCommand } from './_destructive.ts';
import {
  commandEnv,
  commandEnvOverrides,
  resolveShellOptions,
  type ResolvedShellOptions,
  type ShellToolsOptions,
} from './shell_options.ts';
import { runCommand, type CommandResult } from './run_command.ts';
import { tasksOf } from './task_registry.ts';

/**
 * Input of the Bash tool (Claude Code's fields).
 *
 * @example
 * ```ts
 * import { bashInput } from '@toolshed/tool-shell';
 *
 * bashInput.parse({ command: 'npm test', timeout: 60_000 });
 * ```
 */
export const bashInput = z.object({
  command: z.string().min(1).describe('The command to execute'),
  timeout: z
    .number()
    .int()
    .positive()
    .max(600_000)
    .optional()
    .describe('Optional timeout in milliseconds (max 600000); default 120000'),
  description: z
    .string()
    .optional()
    .describe('Clear, concise description of what this command does in 5-10 words, in active voice'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Set to true to run this command in the background; read its output later with TaskOutput and stop it with TaskStop',
    ),
});

/** What a Bash call returns. */
export interface BashOutput {
  /** stdout and stderr interleaved as they came; head and tail kept when over the cap. */
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The run was aborted and the command killed. */
  interrupted: boolean;
  truncated: boolean;
  /** Where the whole output is, when it was over the cap. */
  fullOutputPath?: string;
  /** Notes for the model: a reset cwd, killed background processes. */
  notes: string[];
  /** Set for `run_in_background`: the id for TaskOutput and TaskStop. */
  backgroundTaskId?: string;
  /** The timeout that applied, in milliseconds. */
  timeoutMs?: number;
}

function description(opts: ResolvedShellOptions): string {
  return `Executes a bash command in the session's working directory and returns its output (stdout and stderr interleaved), exit code and signal.

- The working directory persists between calls: a \`cd\` into a directory inside the working directories sticks; a \`cd\` elsewhere is reset afterwards (with a note). Environment changes (export, variables) do not persist.
- Standard input is /dev/null: interactive commands get end-of-file at once, so pass flags instead (\`git commit -m\`, \`npm init -y\`, \`apt-get -y\`).
- \`timeout\` is in milliseconds (default ${opts.defaultTimeoutMs}, max ${opts.maxTimeoutMs}). On timeout or abort the whole process tree is killed, background \`&\` children included, and the output so far is returned.
- Processes a command leaves running (\`server &\`) are stopped when it ends. For long-running commands (dev servers, watchers) use \`run_in_background: true\`: you get a task id at once; read new output with TaskOutput and stop it with TaskStop.
- Output over ${opts.maxOutputChars} characters keeps its head and tail; the whole is saved to a file named in the result (read it with Read or Grep).
- Prefer the dedicated tools for files (Read, Edit, Write, Glob, Grep) over cat, sed, find and grep where they exist.
- Quote paths with spaces ("path with spaces"). Chain dependent commands with \`&&\`; independent read-only commands may be separate calls, which run in parallel.
- Read-only commands (ls, cat, grep, rg, git status/log/diff, …) run without asking; others may need the user's approval.${
    opts.sandbox
      ? `\n- Commands run in a sandbox: the filesystem is read-only except the working directories${opts.sandbox.allowWrite?.length ? ` and ${opts.sandbox.allowWrite.join(', ')}` : ''}, /tmp is private${opts.sandbox.network ? '' : ', and there is no network access'}. Git hooks and config (of nested repositories too), .vscode, .idea, .envrc, .claude and .mcp.json stay read-only; ones a command creates are moved out after it. A command may change only the dependencies and version of a package.json; other changes (scripts) are put back.`
      : ''
  }`;
}

/**
 * Builds the Bash tool with the family's options (sandbox, timeouts, output cap).
 *
 * @param options The shell options.
 * @returns The tool.
 * @throws {RangeError} If an option is out of range.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { createBashTool } from '@toolshed/tool-shell';
 * const cwd = process.cwd();
 *
 * const bash = createBashTool({ sandbox: { enabled: true }, defaultTimeoutMs: 60_000 });
 * const session = await createSession({ cwd, tools: [bash] });
 * ```
 */
export function createBashTool(options: ShellToolsOptions = {}): Tool<typeof bashInput, BashOutput> {
  const opts = resolveShellOptions(options);
  return buildTool({
    name: 'Bash',
    searchHint: 'run shell command terminal bash execute script npm git test build',
    description: description(opts),
    inputSchema: bashInput,
    inputExamples: [
      { command: 'git status', description: 'Show working tree status' },
      { command: 'npm run dev', run_in_background: true },
    ],
    isReadOnly: ({ command }) => isBashParserLoaded() && classifyCommand(command).readOnly,
    // A `cd` moves the session for the calls after it, so it does not run beside them.
    isConcurrencySafe: ({ command, run_in_background }) =>
      !run_in_background &&
      isBashParserLoaded() &&
      classifyCommand(command).readOnly &&
      !analyzeCommand(command).commands.some((c) => c.name?.value === 'cd'),
    isDestructive: ({ command }) => isDestructiveCommand(command),
    async validateInput({ timeout }) {
      await loadBashParser();
      if (timeout !== undefined && timeout > opts.maxTimeoutMs) {
        return {
          result: false,
          message: `timeout ${timeout} ms is over this session's maximum of ${opts.maxTimeoutMs} ms; pass at most ${opts.maxTimeoutMs}, or run the command with run_in_background.`,
        };
      }
      return { result: true };
    },
    async checkPermissions({ command }, ctx) {
      await loadBashParser();
      return checkShellPermissions(command, ctx, opts);
    },
    async preparePermissionMatcher({ command }) {
      await loadBashParser();
      return commandMatcher(command);
    },
    permissionSuggestions: ({ command }) => shellRuleSuggestions(command),
    async resources({ command }, ctx) {
      await loadBashParser();
      return commandResources(command, ctx.cwd, {
        homeDir: ctx.permissions.homeDir,
        env: commandEnv(ctx, opts),
        workingDirectories: ctx.permissions.workingDirectories.map((d) => resolvePath(d, ctx.cwd)),
      }).accesses;
    },
    getToolUseSummary: ({ command, description }) =>
      description ?? (command.length > 80 ? `${command.slice(0, 77)}...` : command),
    renderToolUse: ({ command, run_in_background }) => `$ ${command}${run_in_background ? '  (background)' : ''}`,
    mapResult: (output) => formatBashOutput(output),
    async call(input, ctx, { onProgress, signal }) {
      const sandbox = sandboxFor(opts, ctx);
      // The settings' `env` (ctx.env) first; the family's own `env` option wins over it.
      const base = commandEnvOverrides(ctx, opts);
      const env = isBashParserLoaded() && classifyCommand(input.command).readOnly ? readOnlyEnv(base) : base;
      const start = startDirectory(ctx);
      if (input.run_in_background) {
        const task = tasksOf(ctx).start(input.command, {
          cwd: start.cwd,
          logDir: path.join(ctx.stateDir, 'bash-tasks'),
          description: input.description,
          killGraceMs: opts.killGraceMs,
          env,
          shell: opts.shell,
          ...(sandbox ? { sandbox } : {}),
        });
        return {
          data: {
            output: `Started in the background with task id ${task.id}. Read its output with TaskOutput({"task_id":"${task.id}"}) and stop it with TaskStop. The whole output is logged to ${task.logPath}.`,
            exitCode: null,
            signal: null,
            timedOut: false,
            interrupted: false,
            truncated: false,
            notes: [],
            backgroundTaskId: task.id,
          },
        };
      }
      const timeoutMs = Math.min(input.timeout ?? opts.defaultTimeoutMs, opts.maxTimeoutMs);
      const result = await runCommand(input.command, {
        cwd: start.cwd,
        timeoutMs,
        signal,
        maxOutputChars: opts.maxOutputChars,
        // Beside the session's other saved results, where the session's own Read and Grep may
        // always look (and which close() removes).
        spillPath: path.join(sessionResultsDir(ctx.stateDir), `bash-${safeName(ctx.toolUseId)}.txt`),
        // An output quoting a file a deny rule guards is never saved where the session reads its
        // own results past such rules; the note names only the tools this session has.
        spillRefuse: deniedQuoteGuard(ctx),
        spillReaders: savedOutputReaders(ctx.tools),
        killGraceMs: opts.killGraceMs,
        progressIntervalMs: opts.progressIntervalMs,
        env,
        shell: opts.shell,
        ...(sandbox ? { sandbox } : {}),
        onProgress: (p) =>
          onProgress({
            message: p.lastLines.at(-1) ?? `running for ${Math.round(p.elapsedMs / 1000)} s`,
            elapsedMs: Math.round(p.elapsedMs),
            totalChars: p.totalChars,
            lastLines: p.lastLines,
          }),
      });
      const after = cwdAfter(result, { ...ctx, cwd: start.cwd });
      const notes = [...start.notes, ...after.notes];
      // After a reset the session moves to where the command ran, unless it cd'd on from there.
      const nextCwd = after.nextCwd ?? (start.cwd !== ctx.cwd ? start.cwd : undefined);
      const data = toOutput(result, notes, timeoutMs);
      // A non-zero exit is an answer the model reads (as in Claude Code); a shell that never
      // started is a failed call.
      const failed = result.startError !== undefined ? { isError: true } : {};
      // The whole output is one of the session's saved results: its own Read takes it without a
      // rule, and close() removes it.
      const saved = result.fullOutputPath
        ? result.fullOutputStats
          ? { persistedPath: result.fullOutputPath, persistedStats: result.fullOutputStats }
          : { persistedPath: result.fullOutputPath }
        : {};
      if (nextCwd === undefined) return { data, ...failed, ...saved };
      return { data, ...failed, ...saved, contextModifier: (c: ToolContext) => ({ ...c, cwd: nextCwd }) };
    },
  });
}

/**
 * The Bash tool with default options.
 *
 * @example
 * ```ts
 * import { createSession } from '@toolshed/core';
 * import { bashTool } from '@toolshed/tool-shell';
 * const cwd = process.cwd();
 *
 * const session = await createSession({ cwd, tools: [bashTool] });
 * await session.run([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls -la' } }]);
 * ```
 */
export const bashTool: Tool<typeof bashInput, BashOutput> = createBashTool();

/**
 * The environment of a command that runs without asking because it is read-only. A repository
 * can carry a bare repository as plain files (`vendor/x.git/config`); `git -C vendor/x.git status`
 * would then run its `core.fsmonitor` program. `safe.bareRepository=explicit`, given as
 * command-line configuration (which a repository cannot override), makes git refuse such a
 * repository unless named with `--git-dir`.
 */
function readOnlyEnv(base: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const count = Number(
    (Object.hasOwn(base, 'GIT_CONFIG_COUNT') ? base.GIT_CONFIG_COUNT : process.env.GIT_CONFIG_COUNT) ?? 0,
  );
  const n = Number.isInteger(count) && count >= 0 ? count : 0;
  // GIT_OPTIONAL_LOCKS=0: `git status` does not refresh (write) .git/index for a read-only call.
  return {
    ...base,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_CONFIG_COUNT: String(n + 1),
    [`GIT_CONFIG_KEY_${n}`]: 'safe.bareRepository',
    [`GIT_CONFIG_VALUE_${n}`]: 'explicit',
  };
}

function sandboxFor(opts: ResolvedShellOptions, ctx: ToolContext) {
  if (!opts.sandbox) return undefined;
  const bwrap = findBwrap(opts.sandbox.bwrapPath);
  const writable = [
    ...ctx.permissions.workingDirectories.map((d) => resolvePath(d, ctx.cwd)),
    ...(opts.sandbox.allowWrite ?? []).map((d) => resolvePath(d, ctx.cwd)),
  ];
  return {
    bwrap,
    writable,
    network: opts.sandbox.network ?? false,
    allowUnixSockets: opts.sandbox.allowUnixSockets ?? false,
    quarantineDir: path.join(ctx.stateDir, 'sandbox-quarantine'),
    ...(ctx.permissions.homeDir === undefined ? {} : { home: ctx.permissions.homeDir }),
    // The sandbox enforces what the guard does: deny-listed paths and the home's secrets are hidden.
    masked: sandboxMasks(ctx),
  };
}

/**
 * Where a command starts: the session's cwd, or — when that directory was removed since a `cd`
 * into it — the first working directory, with a note, as Claude Code resets a vanished cwd.
 */
function startDirectory(ctx: ToolContext): { cwd: string; notes: string[] } {
  if (existsSync(ctx.cwd)) return { cwd: ctx.cwd, notes: [] };
  const root = ctx.permissions.workingDirectories[0];
  const fallback = root === undefined ? undefined : resolvePath(root, ctx.cwd);
  if (fallback === undefined || fallback === ctx.cwd || !existsSync(fallback)) return { cwd: ctx.cwd, notes: [] };
  return {
    cwd: fallback,
    notes: [
      `The working directory ${ctx.cwd} no longer exists; the command ran in ${fallback} instead, which is now the working directory.`,
    ],
  };
}

/** The cwd the next call starts in: where the shell ended, if that is inside the working directories. */
function cwdAfter(result: CommandResult, ctx: ToolContext): { notes: string[]; nextCwd: string | undefined } {
  const notes: string[] = [];
  if (result.killedStragglers) {
    notes.push(
      'Processes this command left running in the background were stopped when it ended; use run_in_background for long-running processes.',
    );
  }
  const ended = result.finalCwd;
  if (!ended || ended === ctx.cwd || samePath(ended, ctx.cwd)) return { notes, nextCwd: undefined };
  const inside = ctx.permissions.workingDirectories.some((dir) => {
    const resolved = resolvePath(dir, ctx.cwd);
    return isPathInside(ended, resolved) || isPathInside(ended, real(resolved));
  });
  if (!inside) {
    notes.push(
      `Shell cwd was reset to ${ctx.cwd}: ${ended} is outside the working directories (${ctx.permissions.workingDirectories.join(', ')}).`,
    );
    return { notes, nextCwd: undefined };
  }
  return { notes, nextCwd: ended };
}

function samePath(a: string, b: string): boolean {
  return real(a) === real(b);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function toOutput(result: CommandResult, notes: string[], timeoutMs: number): BashOutput {
  const out: BashOutput = {
    output: result.output,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    interrupted: result.aborted,
    truncated: result.truncated,
    notes,
    timeoutMs,
  };
  if (result.fullOutputPath) out.fullOutputPath = result.fullOutputPath;
  return out;
}

/**
 * The text the model sees for a Bash result.
 *
 * @param output The call's output.
 * @returns The output, then notes and how the command ended.
 *
 * @example
 * ```ts
 * import { formatBashOutput } from '@toolshed/tool-shell/internal';
 *
 * formatBashOutput({ output: 'x\n', exitCode: 1, signal: null, timedOut: false, interrupted: false, truncated: false, notes: [] });
 * // 'x\nExit code 1'
 * ```
 */
export function formatBashOutput(output: BashOutput): string {
  if (output.backgroundTaskId) return output.output;
  const lines: string[] = [];
  const text = output.output.replace(/\n$/, '');
  if (text) lines.push(text);
  for (const note of output.notes) lines.push(note);
  // Only claim output that is there: a command killed before it printed anything says so.
  const soFar = text ? 'the output above is what it printed until then' : 'it printed nothing before then';
  if (output.timedOut)
    lines.push(
      `Command timed out after ${output.timeoutMs ?? '?'} ms and was killed with its whole process tree; ${soFar}.`,
    );
  else if (output.interrupted) lines.push(`Command was aborted and killed with its whole process tree; ${soFar}.`);
  else if (output.signal) lines.push(`Command was killed by signal ${output.signal}.`);
  else if (output.exitCode !== 0 && output.exitCode !== null) lines.push(`Exit code ${output.exitCode}`);
  if (lines.length === 0) return '(no output)';
  return lines.join('\n');
}

/** A file name for a tool-use id, one per distinct id: `_` and every other character outside `[A-Za-z0-9-]` become `_XX`. */
function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16).padStart(2, '0')}`) || 'call';
}

/**
 * Whether a Bash result's text (as {@linkcode formatBashOutput} wrote it) reports a command
 * that did not succeed: a non-zero exit, a timeout, an abort or a signal. For a caller that
 * has only the `tool_result` text, such as a CLI setting its exit code.
 *
 * @param text The result's text.
 * @returns True when the last line says the command failed.
 *
 * @example
 * ```ts
 * import { bashResultFailed } from '@toolshed/tool-shell';
 *
 * bashResultFailed('boom\nExit code 2'); // true
 * bashResultFailed('ok'); // false
 * ```
 */
export function bashResultFailed(text: string): boolean {
  const last = text.replace(/\n+$/, '').split('\n').at(-1) ?? '';
  return (
    /^Exit code -?\d+$/.test(last) ||
    /^Command (timed out after|was aborted and killed|was killed by signal) /.test(last)
  );
}
