import { isShellEnvPolicy, policyEnvironment, type ShellEnvPolicy } from './shell_env.ts';

/** The optional bubblewrap sandbox of {@linkcode ShellToolsOptions}. */
export interface SandboxOptions {
  /** Run every command under bubblewrap (Linux). Without bwrap, commands fail with a clear error. */
  enabled: boolean;
  /** Allow network access inside the sandbox. @default false */
  network?: boolean;
  /** Directories writable besides the working directories and a private `/tmp`. @default [] */
  allowWrite?: readonly string[];
  /**
   * Run sandboxed commands without asking (deny and ask rules and the path guard still
   * apply), as Claude Code's `autoAllowBashIfSandboxed`. @default false
   */
  autoAllow?: boolean;
  /**
   * Let sandboxed commands create Unix sockets. Off, a seccomp filter refuses them: a socket
   * on the read-only root (a Docker daemon's, an SSH agent's) would otherwise reach a process
   * outside the sandbox even with the network off. @default false
   */
  allowUnixSockets?: boolean;
  /** The bubblewrap binary. @default the first `bwrap` on PATH, then `/usr/bin/bwrap` */
  bwrapPath?: string;
}

/** Options of `shellTools()` and `createBashTool()`. */
export interface ShellToolsOptions {
  /** Run commands under bubblewrap. @default off */
  sandbox?: SandboxOptions;
  /** The timeout of a call that gives none, in milliseconds. @default 120000 */
  defaultTimeoutMs?: number;
  /** The largest timeout a call may ask for, in milliseconds. @default 600000 */
  maxTimeoutMs?: number;
  /** Output over this many characters keeps its head and tail; the whole is saved to a file. @default 30000 */
  maxOutputChars?: number;
  /** Between SIGTERM and SIGKILL when a command is stopped, in milliseconds. @default 2000 */
  killGraceMs?: number;
  /** How often a running command reports progress, in milliseconds. @default 1000 */
  progressIntervalMs?: number;
  /**
   * The environment of every command: a map of extra variables (over the whole inherited
   * environment), or a {@linkcode ShellEnvPolicy} (`{ inherit: 'clean' }`, `{ inherit: 'only',
   * names: [...] }`, `{ inherit: 'inherit', set: {...} }`). @default {} (inherit everything)
   */
  env?: Readonly<Record<string, string>> | ShellEnvPolicy;
  /** The shell that runs commands. @default 'bash' */
  shell?: string;
}

/** {@linkcode ShellToolsOptions} with every default filled in. */
export interface ResolvedShellOptions {
  sandbox: SandboxOptions | undefined;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputChars: number;
  killGraceMs: number;
  progressIntervalMs: number;
  /** What to spread over the host's environment (`undefined` removes a variable). */
  env: Readonly<Record<string, string | undefined>>;
  shell: string;
}

/**
 * Fills in the defaults of {@linkcode ShellToolsOptions} and checks the numbers.
 *
 * @param options The options given.
 * @returns The options with defaults.
 * @throws {RangeError} If a timeout, size or interval is not a positive number.
 *
 * @example
 * ```ts
 * import { resolveShellOptions } from '@toolshed/tool-shell/internal';
 *
 * resolveShellOptions({ defaultTimeoutMs: 5000 }).maxTimeoutMs; // 600000
 * ```
 */
export function resolveShellOptions(options: ShellToolsOptions = {}): ResolvedShellOptions {
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
      throw new RangeError(
        `shellTools option ${name} must be a positive number of milliseconds or characters, got ${JSON.stringify(value)}`,
      );
    }
    return value;
  };
  const maxTimeoutMs = positive('maxTimeoutMs', options.maxTimeoutMs, 600_000);
  return {
    sandbox: options.sandbox?.enabled ? options.sandbox : undefined,
    defaultTimeoutMs: Math.min(positive('defaultTimeoutMs', options.defaultTimeoutMs, 120_000), maxTimeoutMs),
    maxTimeoutMs,
    maxOutputChars: positive('maxOutputChars', options.maxOutputChars, 30_000),
    killGraceMs: positive('killGraceMs', options.killGraceMs, 2_000),
    progressIntervalMs: positive('progressIntervalMs', options.progressIntervalMs, 1_000),
    env: isShellEnvPolicy(options.env)
      ? policyEnvironment(options.env)
      : ((options.env as Readonly<Record<string, string>> | undefined) ?? {}),
    shell: options.shell ?? 'bash',
  };
}

/**
 * The variables a command gets on top of the host's: the settings' `env` (`ctx.env`), the
 * family's `env` option over it.
 *
 * @param ctx The call's context (its `env`: the settings').
 * @param opts The resolved options of the family (its `env`).
 * @returns The variables, or undefined when neither sets any.
 *
 * @example
 * ```ts
 * import { commandEnvOverrides, resolveShellOptions } from './shell_options.ts';
 *
 * commandEnvOverrides({ env: { A: '1', B: '1' } }, resolveShellOptions({ env: { B: '2' } })); // { A: '1', B: '2' }
 * ```
 */
export function commandEnvOverrides(
  ctx: { env?: Readonly<Record<string, string>> | undefined },
  opts: Pick<ResolvedShellOptions, 'env'>,
): ResolvedShellOptions['env'] {
  return ctx.env ? { ...ctx.env, ...opts.env } : opts.env;
}

/**
 * The environment a command runs with, as far as the guard needs it: the host's, with
 * {@linkcode commandEnvOverrides} over it (a variable set to undefined is removed).
 *
 * @param ctx The call's context (its `env`: the settings').
 * @param opts The resolved options of the family (its `env`).
 * @returns The variables.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { commandEnv, resolveShellOptions } from './shell_options.ts';
 * declare const ctx: ToolContext;
 *
 * commandEnv(ctx, resolveShellOptions({ env: { GIT_WORK_TREE: '.vscode' } })).GIT_WORK_TREE; // '.vscode'
 * ```
 */
export function commandEnv(
  ctx: { env?: Readonly<Record<string, string>> | undefined },
  opts: Pick<ResolvedShellOptions, 'env'>,
): Readonly<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = { ...process.env, ...commandEnvOverrides(ctx, opts) };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}
