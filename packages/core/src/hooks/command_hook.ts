import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hookLabel } from './_hook_label.ts';
import { hookTimeout } from './_hook_timeout.ts';
import { parseHookStdout } from './hook_output.ts';
import type { CommandHook, HookInput, HookRunResult } from './types.ts';

/** Options of {@linkcode runCommandHook}. */
export interface RunCommandHookOptions {
  /** Aborting kills the hook's whole process group. */
  signal: AbortSignal;
  /** The working directory; also exported as `TOOLSHED_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`. */
  cwd: string;
  /** Extra environment variables, on top of `process.env` and the two project-dir variables. */
  env?: Record<string, string>;
}

/** Each of stdout and stderr is kept up to this many bytes; the rest is read and dropped. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Between SIGTERM and SIGKILL, and between SIGKILL and giving up on the pipes. */
const KILL_GRACE_MS = 1000;
/**
 * After the hook's shell exits by itself, how long a process it left in the background may keep
 * stdout/stderr open before we stop reading. Such processes are left running, as a shell does.
 */
const PIPE_GRACE_MS = 500;

interface Collector {
  push(chunk: Buffer): void;
  text(): string;
  truncated(): boolean;
}

function collector(): Collector {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  return {
    push(chunk) {
      const room = MAX_OUTPUT_BYTES - size;
      if (chunk.length > room) cut = true;
      if (room <= 0) return;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    truncated: () => cut,
  };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    // Negative pid: the whole process group the hook's shell leads (it was spawned detached).
    process.kill(-pid, signal);
  } catch {
    // ESRCH: everything in the group has already exited.
  }
}

function describeSpawnError(error: NodeJS.ErrnoException, cwd: string, program: string): string {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    if (!existsSync(cwd)) return `could not start: working directory "${cwd}" does not exist`;
    if (program === 'pwsh')
      return 'could not start: the hook has "shell": "powershell" and `pwsh` (PowerShell 7) was not found on PATH; install PowerShell or remove "shell" to run the command with bash';
    return 'could not start: `bash` was not found on PATH; install bash or fix PATH';
  }
  return `could not start: ${error.message}`;
}

/**
 * Runs a command hook: `bash -c <command>` (or `pwsh -NoProfile -NonInteractive -Command <command>`
 * for `"shell": "powershell"`) in `cwd`, in its own process group, with the
 * {@linkcode HookInput} as JSON on stdin. The hook's timeout (seconds, default 600 as in Claude Code) and the abort
 * signal kill the whole group: SIGTERM, then SIGKILL a second later. On exit 0, stdout that starts
 * with `{` is parsed as {@linkcode HookOutput}; other stdout is plain text and ignored.
 * Never rejects: every failure is described in the result.
 *
 * @param hook The command hook.
 * @param input What the hook gets on stdin.
 * @param options The abort signal, working directory and extra environment.
 * @returns Exit code, output, and what went wrong if anything did.
 *
 * @example
 * ```ts
 * import { runCommandHook } from './command_hook.ts';
 * import type { HookInput } from '@toolshed/core';
 * declare const input: HookInput;
 *
 * const result = await runCommandHook(
 *   { type: 'command', command: './hooks/check_bash.sh', timeout: 10 },
 *   input,
 *   { signal: AbortSignal.timeout(30_000), cwd: process.cwd() },
 * );
 * if (result.exitCode === 2) console.log('blocked:', result.stderr);
 * ```
 */
export function runCommandHook(
  hook: CommandHook,
  input: HookInput,
  options: RunCommandHookOptions,
): Promise<HookRunResult> {
  const label = hookLabel(hook);
  const base = { hook: label, exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false };
  const timeout = hookTimeout(hook.timeout);
  if ('error' in timeout) return Promise.resolve({ ...base, startError: timeout.error });
  if (typeof hook.command !== 'string' || hook.command.trim() === '') {
    return Promise.resolve({
      ...base,
      startError: `command must be a non-empty string, got ${JSON.stringify(hook.command)}`,
    });
  }
  const { signal, cwd } = options;
  if (signal.aborted) return Promise.resolve({ ...base, aborted: true });

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, { TOOLSHED_PROJECT_DIR: cwd, CLAUDE_PROJECT_DIR: cwd }, options.env);

  // Claude Code's `"shell": "powershell"` runs the command with PowerShell, never with bash.
  const program = hook.shell === 'powershell' ? 'pwsh' : 'bash';
  const shellArgs = program === 'pwsh' ? ['-NoProfile', '-NonInteractive', '-Command'] : ['-c'];

  return new Promise((resolve) => {
    const stdout = collector();
    const stderr = collector();
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let exited = false;
    let timedOut = false;
    let aborted = false;
    let killing = false;
    let startError: string | undefined;
    let done = false;
    const timers: NodeJS.Timeout[] = [];

    let child: ChildProcess;
    try {
      child = spawn(program, [...shellArgs, hook.command], {
        cwd,
        env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ ...base, startError: describeSpawnError(error as NodeJS.ErrnoException, cwd, program) });
      return;
    }

    const finish = (): void => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Stop reading pipes a background process may still hold, so they do not keep us alive.
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      const result: HookRunResult = {
        hook: label,
        exitCode,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
      };
      if (timedOut && 'seconds' in timeout) result.timeoutSeconds = timeout.seconds;
      if (exitSignal !== null) result.signal = exitSignal;
      if (startError !== undefined) result.startError = startError;
      if (stdout.truncated()) result.outputTruncated = true;
      if (exitCode === 0 && !timedOut && !aborted) {
        const parsed = parseHookStdout(result.stdout, stdout.truncated());
        if (parsed.output !== undefined) result.output = parsed.output;
        if (parsed.error !== undefined) result.outputError = parsed.error;
      }
      resolve(result);
    };

    const kill = (): void => {
      if (killing) return;
      killing = true;
      killGroup(child.pid, 'SIGTERM');
      const sigkill = setTimeout(() => {
        killGroup(child.pid, 'SIGKILL');
        // A process that escaped the group (setsid) may hold the pipes forever; stop waiting.
        timers.push(setTimeout(finish, KILL_GRACE_MS));
      }, KILL_GRACE_MS);
      // Not cleared by finish: whatever in the group survived SIGTERM still gets SIGKILL, even
      // when the pipes closed first. Unref'd so it never keeps the process alive.
      sigkill.unref();
    };

    const onAbort = (): void => {
      if (exited) return finish();
      aborted = true;
      kill();
    };
    signal.addEventListener('abort', onAbort, { once: true });

    timers.push(
      setTimeout(() => {
        // The shell already exited and only a background process holds the pipes: that is not a
        // hook running too long, so leave it as a normal exit would.
        if (exited) return finish();
        timedOut = true;
        kill();
      }, timeout.ms),
    );

    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A hook that never reads stdin closes the pipe under a large write: EPIPE is expected.
    child.stdin?.on('error', () => {});
    child.stdin?.end(JSON.stringify(input));

    child.on('error', (error: NodeJS.ErrnoException) => {
      // After a successful spawn this only reports a failed kill, which killGroup already handles.
      if (child.pid !== undefined) return;
      startError = describeSpawnError(error, cwd, program);
      finish();
    });
    child.on('exit', (code, sig) => {
      exited = true;
      exitCode = code;
      exitSignal = sig;
      if (!killing) timers.push(setTimeout(finish, PIPE_GRACE_MS));
    });
    child.on('close', finish);
  });
}
