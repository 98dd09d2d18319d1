import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { serviceKey, type ServiceKey, type ToolContext } from '@toolshed/core';
import { startCommand, type CommandResult, type RunCommandOptions, type RunningCommand } from './run_command.ts';

/** Where a background task is. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed';

/**
 * Unread output kept in memory per task; older unread output is skipped (it stays in the log file).
 *
 * @example
 * ```ts
 * task.takeUnread().skippedChars; // > 0 once more than MAX_UNREAD_CHARS went unread
 * ```
 */
export const MAX_UNREAD_CHARS = 1_000_000;

/** A command started with `run_in_background`. */
export interface BackgroundTask {
  readonly id: string;
  readonly command: string;
  readonly description: string | undefined;
  readonly status: TaskStatus;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The whole output, as it came. */
  readonly logPath: string;
  /** Output since the last call, and how many characters were skipped because nobody read them in time. */
  takeUnread(): { text: string; skippedChars: number };
  /**
   * Waits until the task ends, the time is up or the signal aborts.
   *
   * @returns True when the task has ended.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Kills the task's process tree and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * The background tasks of one session. The shell family keeps one per session in
 * `ctx.services` under {@linkcode shellTasksKey}; `session.close()` stops them all.
 *
 * @example
 * ```ts
 * const tasks = new TaskRegistry();
 * const task = tasks.start('npm run dev', { cwd: '/p', logDir: '/tmp/state/tasks' });
 * await task.wait(1000);
 * task.takeUnread().text;
 * await tasks.stopAll();
 * ```
 */
export class TaskRegistry {
  #tasks = new Map<string, Task>();
  #next = 1;
  #closed = false;

  /**
   * Starts a command in the background.
   *
   * @param command The command string.
   * @param options Where it runs and where its log goes, plus {@linkcode RunCommandOptions}.
   * @returns The task.
   * @throws {Error} If the registry was closed (the session is closing).
   */
  start(command: string, options: Omit<RunCommandOptions, 'timeoutMs' | 'onOutput' | 'trackCwd'> & { logDir: string; description?: string | undefined }): BackgroundTask {
    if (this.#closed) throw new Error('The session is closing; no new background task can start.');
    const id = `bash_${this.#next++}_${Math.random().toString(36).slice(2, 8)}`;
    const { logDir, description, ...run } = options;
    mkdirSync(logDir, { recursive: true });
    const task = new Task(id, command, description, path.join(logDir, `${id}.log`), run);
    this.#tasks.set(id, task);
    return task;
  }

  /**
   * A task by id.
   *
   * @param id The task id `Bash` returned.
   * @returns The task, or undefined.
   */
  get(id: string): BackgroundTask | undefined {
    return this.#tasks.get(id);
  }

  /**
   * Every task, oldest first.
   *
   * @returns The tasks.
   */
  list(): BackgroundTask[] {
    return [...this.#tasks.values()];
  }

  /**
   * Stops every running task (the session is closing).
   *
   * @returns Resolves when all have ended.
   */
  async stopAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#tasks.values()].map((t) => t.stop()));
  }
}

class Task implements BackgroundTask {
  status: TaskStatus = 'running';
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  #unread: string[] = [];
  #unreadChars = 0;
  #skipped = 0;
  #log: WriteStream;
  #running: RunningCommand;
  #done: Promise<CommandResult>;
  #stopped = false;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly description: string | undefined,
    readonly logPath: string,
    options: Omit<RunCommandOptions, 'timeoutMs' | 'onOutput' | 'trackCwd'>,
  ) {
    this.#log = createWriteStream(logPath);
    this.#log.on('error', () => {
      // A full disk must not crash the session; the unread buffer still has the output.
    });
    this.#running = startCommand(command, {
      ...options,
      timeoutMs: Infinity,
      trackCwd: false,
      maxOutputChars: 1,
      onOutput: (text) => this.#append(text),
    });
    this.#done = this.#running.done.then(async (result) => {
      this.exitCode = result.exitCode;
      this.signal = result.signal;
      this.status = this.#stopped ? 'killed' : result.exitCode === 0 ? 'completed' : 'failed';
      await new Promise<void>((resolve) => this.#log.end(resolve));
      return result;
    });
  }

  #append(text: string): void {
    this.#log.write(text);
    this.#unread.push(text);
    this.#unreadChars += text.length;
    while (this.#unreadChars > MAX_UNREAD_CHARS && this.#unread.length > 1) {
      const dropped = this.#unread.shift()!;
      this.#unreadChars -= dropped.length;
      this.#skipped += dropped.length;
    }
  }

  takeUnread(): { text: string; skippedChars: number } {
    const out = { text: this.#unread.join(''), skippedChars: this.#skipped };
    this.#unread = [];
    this.#unreadChars = 0;
    this.#skipped = 0;
    return out;
  }

  async wait(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.status !== 'running') return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const ended = await Promise.race([
      this.#done.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return ended;
  }

  async stop(): Promise<void> {
    if (this.status === 'running') {
      this.#stopped = true;
      this.#running.kill();
    }
    await this.#done;
  }
}

/**
 * Where the session keeps its {@linkcode TaskRegistry}.
 *
 * @example
 * ```ts
 * ctx.services.get(shellTasksKey)?.list().map((t) => t.id);
 * ```
 */
export const shellTasksKey: ServiceKey<TaskRegistry> = serviceKey<TaskRegistry>('toolshed.shell.tasks');

/**
 * The session's task registry, made on first use (outside a shell family's setup) with its
 * cleanup registered on `session.close()`.
 *
 * @param ctx The call's context.
 * @returns The registry.
 *
 * @example
 * ```ts
 * const task = tasksOf(ctx).get('bash_1_ab12cd');
 * ```
 */
export function tasksOf(ctx: Pick<ToolContext, 'services' | 'onClose'>): TaskRegistry {
  let registry = ctx.services.get(shellTasksKey);
  if (!registry) {
    const created = new TaskRegistry();
    ctx.services.set(shellTasksKey, created);
    ctx.onClose(() => created.stopAll());
    registry = created;
  }
  return registry;
}
