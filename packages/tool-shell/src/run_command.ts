import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import type { SavedFileStats, SavedOutputReaders } from '@toolshed/core';
import { OutputCapture, type OutputCaptureOptions } from './_output_capture.ts';
import {
  bwrapArguments,
  quarantineCreated,
  type SandboxProtection,
  sandboxProtection,
  unixSocketFilter,
} from './sandbox.ts';

/** Options of {@linkcode startCommand} and {@linkcode runCommand}. */
export interface RunCommandOptions {
  /** Where the command starts. */
  cwd: string;
  /** Kill the command after this many milliseconds; `Infinity` for none (background tasks). */
  timeoutMs: number;
  /** Aborting kills the command. */
  signal?: AbortSignal;
  /** The returned output's cap in characters. @default 30000 */
  maxOutputChars?: number;
  /** Where the whole output goes when it is over the cap. */
  spillPath?: string;
  /** Refuses to save an output that quotes a file a deny rule guards (core's `deniedQuoteGuard`). */
  spillRefuse?: ((text: string) => string | undefined) | undefined;
  /** The tools the session has to read the saved file with; the note names only these. @default Read and Grep */
  spillReaders?: SavedOutputReaders | undefined;
  /** Between SIGTERM and SIGKILL, in milliseconds. @default 2000 */
  killGraceMs?: number;
  /** Called every `progressIntervalMs` while the command runs. */
  onProgress?: (progress: CommandProgress) => void;
  /** @default 1000 */
  progressIntervalMs?: number;
  /** Called with each decoded chunk of output (background tasks keep it). */
  onOutput?: (text: string) => void;
  /** Extra environment variables. */
  /** Variables over the inherited environment; `undefined` removes one. */
  env?: Readonly<Record<string, string | undefined>>;
  /** @default 'bash' */
  shell?: string;
  /** Run under bubblewrap: the binary, the writable directories, the network. */
  sandbox?: {
    bwrap: string;
    writable: readonly string[];
    network: boolean;
    /** Let commands create Unix sockets (which reach daemons outside the sandbox). @default false */
    allowUnixSockets?: boolean;
    /** Where protected entries the command creates (`.mcp.json`, `.toolshed`, …) are moved. @default a scratch directory */
    quarantineDir?: string;
    /** The home directory, whose shell start-up files are kept when it is writable. @default os.homedir() */
    home?: string;
    /** Paths hidden from the command (deny-listed files, the home directory's secrets). @default [] */
    masked?: readonly string[];
  };
  /** Report the directory the shell ended in (a `cd` in the command). @default true */
  trackCwd?: boolean;
}

/** A progress report of a running command. */
export interface CommandProgress {
  elapsedMs: number;
  totalChars: number;
  /** The last few lines of output. */
  lastLines: string[];
}

/** How a command ended. */
export interface CommandResult {
  /** stdout and stderr interleaved as they came, capped (head and tail kept). */
  output: string;
  totalChars: number;
  truncated: boolean;
  fullOutputPath: string | undefined;
  /** That file as written (fstat of the handle that wrote it): the tool result's `persistedStats`. */
  fullOutputStats?: SavedFileStats | undefined;
  /** Why the whole output was not saved (it quotes a file a deny rule guards). */
  notSavedReason?: string | undefined;
  /** The shell's exit code; null when it was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The directory the shell was in when it exited, when known. */
  finalCwd: string | undefined;
  /** Processes the command left behind (`cmd &`) were killed when the shell exited. */
  killedStragglers: boolean;
  /** Why the shell could not be started at all (a missing working directory or shell). */
  startError: string | undefined;
}

/** A command that is running. */
export interface RunningCommand {
  readonly pid: number | undefined;
  /** Resolves when the command and every process it started have ended. */
  readonly done: Promise<CommandResult>;
  /** Kills the whole process tree (SIGTERM, then SIGKILL after the grace). */
  kill(): void;
}

/**
 * The prologue's first part: bash closes every descriptor but 0, 1 and 2 before the command runs.
 * Node passes on whatever the host process inherited without close-on-exec (a parent's pipe, a
 * make jobserver's fds), and libuv closes nothing in the child, so otherwise every command —
 * sandboxed ones too — could read from or write to a pipe it was never meant to see. bwrap's
 * seccomp fd is closed by bwrap itself. The glob reads the directory in the shell, no extra
 * process: about 0.1 ms per command, measured against a bare `bash -c`. Its own directory fd is
 * closed by the time the loop runs, and closing it again is harmless. `{var}>&-` reaches fds
 * above 9, which dash cannot name, so shells other than bash skip the loop.
 */
const CLOSE_INHERITED_FDS =
  process.platform === 'linux'
    ? 'if [ -n "${BASH_VERSION-}" ]; then for __toolshed_fd in /proc/$$/fd/*; do __toolshed_fd=${__toolshed_fd##*/}; case $__toolshed_fd in 0|1|2) ;; *[!0-9]*) ;; *) exec {__toolshed_fd}>&- ;; esac; done; unset __toolshed_fd; fi; '
    : '';

let scratchDir: string | undefined;
/**
 * One directory per user for the files that report where a shell ended, reused by every process
 * (a directory per process was left behind whenever a worker ended without an exit event). It is
 * trusted only when it is a real directory of ours that no one else can write.
 */
function scratch(): string {
  if (scratchDir !== undefined) return scratchDir;
  const uid = process.getuid?.();
  const shared = path.join(os.tmpdir(), `toolshed-shell-${uid ?? 'user'}`);
  try {
    mkdirSync(shared, { mode: 0o700 });
  } catch {
    // It exists already (or cannot be made): checked below.
  }
  try {
    const st = lstatSync(shared);
    if (st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o077) === 0) {
      scratchDir = shared;
      return shared;
    }
  } catch {
    // Fall back to a private directory.
  }
  const own = mkdtempSync(path.join(os.tmpdir(), 'toolshed-shell-'));
  process.once('exit', () => rmSync(own, { recursive: true, force: true }));
  scratchDir = own;
  return own;
}

/**
 * Starts `bash -c command` in its own process group with stdin from `/dev/null` (an interactive
 * command reads EOF and never hangs), stdout and stderr merged into one stream in the order
 * they were written, no other inherited descriptor (bash on Linux closes all but 0–2 first), and
 * the whole tree — background `&` children and grandchildren included — killed on timeout, on
 * abort, or when the shell exits and leaves processes behind.
 *
 * @param command The command string.
 * @param options Directory, timeout, signal, output cap, sandbox.
 * @returns The running command.
 * @throws {Error} If the process cannot be spawned at all (a missing shell).
 *
 * @example
 * ```ts
 * import { startCommand } from '@toolshed/tool-shell/internal';
 *
 * const running = startCommand('npm test', { cwd: '/p', timeoutMs: 60_000 });
 * const result = await running.done;
 * result.exitCode; // 0
 * ```
 */
export function startCommand(command: string, options: RunCommandOptions): RunningCommand {
  const started = performance.now();
  const grace = options.killGraceMs ?? 2000;
  const capture = new OutputCapture(options.maxOutputChars ?? 30_000, captureOptions(options));
  const trackCwd = options.trackCwd ?? true;
  // Each command gets its own directory for the file: in the sandbox only it is writable.
  const cwdDir = trackCwd ? path.join(scratch(), randomUUID()) : undefined;
  if (cwdDir) mkdirSync(cwdDir, { mode: 0o700 });
  const cwdFile = cwdDir ? path.join(cwdDir, 'cwd') : undefined;
  // One stream for both: `exec 2>&1` on the command's first line keeps line numbers in errors.
  const prologue = `${CLOSE_INHERITED_FDS}exec 2>&1; ${cwdFile ? `trap 'pwd -P >| ${shellQuote(cwdFile)}' EXIT; ` : ''}`;
  const script = prologue + command;
  const shell = options.shell ?? 'bash';
  // No editor or credential prompt can wait for input that never comes (stdin is /dev/null).
  // Every process of the command inherits this mark, also one that leaves the process group
  // with `setsid`; killing the tree also kills whatever still carries it (Linux).
  const mark = randomUUID();
  const env = { ...process.env, GIT_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0', ...options.env, [RUN_MARK_VAR]: mark };
  const quarantineDir = options.sandbox?.quarantineDir ?? path.join(scratch(), 'quarantine');
  // Before this command's snapshot, which would take what they planted for existing entries.
  const earlierNotes = options.sandbox ? judgeRunning(quarantineDir) : [];
  const protection = options.sandbox
    ? sandboxProtection(
        options.sandbox.writable,
        options.sandbox.home === undefined ? {} : { home: options.sandbox.home },
      )
    : undefined;
  const child = spawnShell(script, { options, shell, env, cwdDir, protection });
  const watched = protection && watch({ protection, quarantineDir, capture, onOutput: options.onOutput });
  const pid = child.pid;
  let timedOut = false;
  let aborted = false;
  const { groupAlive, killTree } = processTree(pid, { mark, grace });

  const onData = (chunk: Buffer) => {
    const text = capture.push(chunk);
    if (text && options.onOutput) options.onOutput(text);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);

  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        void killTree();
      }, options.timeoutMs)
    : undefined;
  const progress = options.onProgress
    ? setInterval(() => {
        options.onProgress!({
          elapsedMs: performance.now() - started,
          totalChars: capture.totalChars,
          lastLines: capture.lastLines(),
        });
      }, options.progressIntervalMs ?? 1000)
    : undefined;
  const onAbort = () => {
    aborted = true;
    void killTree();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const streamsClosed = Promise.all(
    [child.stdout!, child.stderr!].map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.readableEnded || s.destroyed) resolve();
          else s.once('close', () => resolve());
        }),
    ),
  );

  const done = (async (): Promise<CommandResult> => {
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    let killedStragglers = false;
    let startError: string | undefined;
    if (exit.error) {
      const missingCwd = !existsSync(options.cwd);
      const why = missingCwd ? `the working directory "${options.cwd}" does not exist` : exit.error.message;
      startError = `Could not start ${options.sandbox ? options.sandbox.bwrap : shell}: ${why}`;
      capture.push(Buffer.from(`${startError}\n`));
    } else {
      // Background children may still hold the pipes open, or run with their output elsewhere:
      // a command's processes end with it (run_in_background is for what should outlive it).
      const drained = await Promise.race([streamsClosed.then(() => true), sleep(200).then(() => false)]);
      // bubblewrap's own processes take a moment to go after the shell; real stragglers stay.
      for (let i = 0; i < 4 && pid !== undefined && processGroupAlive(pid); i++) await sleep(25);
      if (groupAlive()) {
        killedStragglers = !timedOut && !aborted;
        await killTree();
      }
      if (!drained) await Promise.race([streamsClosed, sleep(grace)]);
    }
    if (timer) clearTimeout(timer);
    if (progress) clearInterval(progress);
    options.signal?.removeEventListener('abort', onAbort);
    child.stdout!.destroy();
    child.stderr!.destroy();
    let finalCwd: string | undefined;
    if (cwdFile && cwdDir) {
      try {
        finalCwd = readFileSync(cwdFile, 'utf8').trim() || undefined;
      } catch {
        // The shell did not get to its exit trap (killed, or replaced by `exec`).
      }
      rmSync(cwdDir, { recursive: true, force: true });
    }
    if (watched) {
      runningSandboxed.delete(watched);
      const notes = [...earlierNotes, ...quarantineCreated(watched.protection, quarantineDir)];
      if (notes.length > 0) {
        const text = `\n${notes.join('\n')}\n`;
        capture.push(Buffer.from(text));
        options.onOutput?.(text);
      }
    }
    const captured = await capture.finish();
    return {
      output: captured.text,
      totalChars: captured.totalChars,
      truncated: captured.truncated,
      fullOutputPath: captured.fullOutputPath,
      fullOutputStats: captured.fullOutputStats,
      notSavedReason: captured.notSavedReason,
      exitCode: exit.code,
      signal: exit.signal,
      timedOut,
      aborted,
      finalCwd,
      killedStragglers,
      startError,
    };
  })();

  return {
    pid,
    done,
    kill: () => {
      aborted = true;
      void killTree();
    },
  };
}

/** A sandboxed command that runs now: what it found before it started, its quarantine, its output. */
interface Watched {
  protection: SandboxProtection;
  quarantineDir: string;
  tell: (text: string) => void;
}

/** The sandboxed commands running now (background ones, and those of other sessions). */
const runningSandboxed = new Set<Watched>();

/** Adds a sandboxed command to {@linkcode runningSandboxed}, told through its output. */
function watch(how: {
  protection: SandboxProtection;
  quarantineDir: string;
  capture: OutputCapture;
  onOutput: ((text: string) => void) | undefined;
}): Watched {
  const watched: Watched = {
    protection: how.protection,
    quarantineDir: how.quarantineDir,
    tell: (text) => {
      how.capture.push(Buffer.from(text));
      how.onOutput?.(text);
    },
  };
  runningSandboxed.add(watched);
  return watched;
}

/**
 * Moves out what the sandboxed commands still running created so far, each judged against what
 * it found before it started: what a background command plants would otherwise stay as long as it
 * runs, and a command started meanwhile would take it for an existing entry. Each is told in its
 * own output; the notes of those with the same quarantine (the same session) are returned too.
 */
function judgeRunning(quarantineDir: string): string[] {
  const notes: string[] = [];
  for (const running of runningSandboxed) {
    const found = quarantineCreated(running.protection, running.quarantineDir);
    if (found.length === 0) continue;
    running.tell(`\n${found.join('\n')}\n`);
    if (running.quarantineDir === quarantineDir) notes.push(...found);
  }
  return notes;
}

/** Starts the shell, inside bubblewrap when the command is sandboxed. */
function spawnShell(
  script: string,
  how: {
    options: RunCommandOptions;
    shell: string;
    env: NodeJS.ProcessEnv;
    cwdDir: string | undefined;
    protection: SandboxProtection | undefined;
  },
): ChildProcess {
  const { options, shell, env, cwdDir, protection } = how;
  if (!options.sandbox)
    return spawn(shell, ['-c', script], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const writable = [...options.sandbox.writable, ...(cwdDir ? [cwdDir] : [])];
  // bwrap reads the seccomp program from a pipe on its fd 3 (no file a sandboxed command could
  // replace) and closes it before running the command.
  const filter = options.sandbox.allowUnixSockets ? undefined : unixSocketFilter();
  const args = bwrapArguments({
    writable,
    network: options.sandbox.network,
    cwd: options.cwd,
    masked: options.sandbox.masked ?? [],
    ...(protection === undefined ? {} : { protection }),
    ...(filter === undefined ? {} : { seccompFd: 3 }),
  });
  const stdio: Array<'ignore' | 'pipe'> =
    filter === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'];
  const child = spawn(options.sandbox.bwrap, [...args, shell, '-c', script], {
    cwd: options.cwd,
    env,
    stdio,
    detached: true,
  });
  const program = child.stdio[3] as Writable | null | undefined;
  if (filter !== undefined && program) {
    program.on('error', () => {
      // bwrap failed to start; its exit reports why.
    });
    program.end(filter);
  }
  return child;
}

/**
 * The command's process tree: its process group, and every process that carries its mark
 * (also one that left the group with `setsid`). `killTree` sends SIGTERM, waits `grace` ms,
 * then SIGKILL; every caller shares one kill.
 */
function processTree(
  pid: number | undefined,
  how: { mark: string; grace: number },
): { groupAlive: () => boolean; killTree: () => Promise<void> } {
  let killing: Promise<void> | undefined;
  const since = pid === undefined ? undefined : startTicks(pid);
  const escaped = (): number[] =>
    since === undefined || pid === undefined ? [] : markedProcesses(how.mark, since, pid);
  const groupAlive = (): boolean => pid !== undefined && (processGroupAlive(pid) || escaped().length > 0);
  const signalGroup = (sig: NodeJS.Signals) => {
    if (pid === undefined) return;
    for (const target of [-pid, ...escaped()]) {
      try {
        process.kill(target, sig);
      } catch {
        // Gone already.
      }
    }
  };
  const killTree = (): Promise<void> => {
    killing ??= (async () => {
      signalGroup('SIGTERM');
      const deadline = performance.now() + how.grace;
      while (groupAlive() && performance.now() < deadline) await sleep(25);
      if (groupAlive()) signalGroup('SIGKILL');
    })();
    return killing;
  };
  return { groupAlive, killTree };
}

/**
 * {@linkcode startCommand} and wait for it.
 *
 * @param command The command string.
 * @param options Directory, timeout, signal, output cap, sandbox.
 * @returns How it ended.
 *
 * @example
 * ```ts
 * import { runCommand } from '@toolshed/tool-shell/internal';
 *
 * const { output, exitCode } = await runCommand('echo hi', { cwd: '/tmp', timeoutMs: 5000 });
 * ```
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  return startCommand(command, options).done;
}

/**
 * Whether a process group has a live member. `kill(-pgid, 0)` also succeeds for zombies, which
 * an init that does not reap (some containers) leaves behind; on Linux /proc tells them apart.
 */
function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
    }
    return false;
  } catch {
    return true;
  }
}

/**
 * The environment variable that marks a command's processes.
 *
 * @example
 * ```ts
 * import { RUN_MARK_VAR } from '@toolshed/tool-shell/internal';
 *
 * process.env[RUN_MARK_VAR]; // set inside a command the Bash tool runs
 * ```
 */
export const RUN_MARK_VAR = 'TOOLSHED_SHELL_RUN';

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), on Linux. */
function startTicks(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Live processes outside the shell's group that carry the command's mark in their environment:
 * those that left it with `setsid` or a daemon's double fork. Only processes started after the
 * shell are read, so this stays cheap.
 */
function markedProcesses(mark: string, since: number, shellPid: number): number[] {
  const needle = `${RUN_MARK_VAR}=${mark}`;
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    // pids grow until they wrap (at pid_max, 4M on 64-bit Linux): one older than the shell was
    // not started by it, and skipping it keeps this to a handful of reads.
    if (!/^\d+$/.test(entry) || Number(entry) <= shellPid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X' || Number(fields[2]) === shellPid || Number(fields[19]) < since)
        continue;
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (environ.split('\0').includes(needle)) found.push(Number(entry));
    } catch {
      // Gone, or another user's process.
    }
  }
  return found;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where the whole output goes, what refuses to save it, and the tools its note may name. */
function captureOptions(options: RunCommandOptions): OutputCaptureOptions {
  return { spillPath: options.spillPath, refuseToSave: options.spillRefuse, readers: options.spillReaders };
}
