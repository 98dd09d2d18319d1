import {
  backgroundTasksOf,
  openTaskLog,
  serviceKey,
  type BackgroundTask,
  type ServiceKey,
  type TaskLog,
  type TaskStatus,
  type ToolContext,
} from '@toolshed/core';
import { BackgroundTasks, DEFAULT_TASK_LOG_MAX_BYTES, MAX_UNREAD_CHARS, UnreadBuffer } from '@toolshed/core/internal';
import { startCommand, type CommandResult, type RunCommandOptions, type RunningCommand } from './run_command.ts';

export { MAX_UNREAD_CHARS, type BackgroundTask, type TaskStatus };

/** Options of {@linkcode TaskRegistry}. */
export interface TaskRegistryOptions {
  /**
   * The session's shared registry (core's {@linkcode BackgroundTasks}) the shell's tasks join,
   * so that TaskOutput and TaskStop find them next to background agents.
   * @default a registry of its own
   */
  shared?: BackgroundTasks;
  /**
   * A task whose log reaches this many bytes is stopped, and TaskOutput says why.
   * @default 100 MB
   */
  maxLogBytes?: number;
}

/**
 * Starts the session's background shell commands and adds them to the shared background-task
 * registry of core, where TaskOutput and TaskStop find them. Each log is private (0600 in a 0700
 * folder, created exclusively, one file per id) and capped: a command that prints past the cap
 * is stopped.
 *
 * @example
 * ```ts
 * import { TaskRegistry } from '@toolshed/tool-shell';
 *
 * const tasks = new TaskRegistry();
 * const task = tasks.start('npm run dev', { cwd: '/p', logDir: '/tmp/state/tasks' });
 * await task.wait(1000);
 * task.takeUnread().text;
 * await tasks.stopAll();
 * ```
 */
export class TaskRegistry {
  #shared: BackgroundTasks;
  #own = new Set<string>();
  #maxLogBytes: number;

  /** @param options The shared registry and the log cap. */
  constructor(options: TaskRegistryOptions = {}) {
    this.#shared = options.shared ?? new BackgroundTasks();
    this.#maxLogBytes = options.maxLogBytes ?? DEFAULT_TASK_LOG_MAX_BYTES;
  }

  /**
   * Starts a command in the background.
   *
   * @param command The command string.
   * @param options Where it runs and where its log goes, plus {@linkcode RunCommandOptions}.
   * @returns The task.
   * @throws {Error} If the registry was closed (the session is closing), or the log cannot be created.
   */
  start(
    command: string,
    options: Omit<RunCommandOptions, 'timeoutMs' | 'onOutput' | 'trackCwd'> & {
      logDir: string;
      description?: string | undefined;
      maxLogBytes?: number;
    },
  ): BackgroundTask {
    if (this.#shared.closed) throw new Error('The session is closing; no new background task can start.');
    const id = this.#shared.newId('bash');
    const { logDir, description, maxLogBytes, ...run } = options;
    const log = openTaskLog(logDir, id, { maxBytes: maxLogBytes ?? this.#maxLogBytes });
    const task = new ShellTask(id, command, description, log, run);
    this.#shared.add(task);
    this.#own.add(id);
    return task;
  }

  /**
   * A shell task by id.
   *
   * @param id The task id `Bash` returned.
   * @returns The task, or undefined.
   */
  get(id: string): BackgroundTask | undefined {
    return this.#own.has(id) ? this.#shared.get(id) : undefined;
  }

  /**
   * Every shell task, oldest first.
   *
   * @returns The tasks.
   */
  list(): BackgroundTask[] {
    return this.#shared.list().filter((t) => this.#own.has(t.id));
  }

  /**
   * Stops every running task of the shared registry (the session is closing).
   *
   * @returns Resolves when all have ended.
   */
  stopAll(): Promise<void> {
    return this.#shared.stopAll();
  }
}

class ShellTask implements BackgroundTask {
  readonly kind = 'shell';
  status: TaskStatus = 'running';
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  stopReason: string | undefined;
  #unread = new UnreadBuffer();
  #log: TaskLog;
  #running: RunningCommand;
  #done: Promise<CommandResult>;
  #stopped = false;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly description: string | undefined,
    log: TaskLog,
    options: Omit<RunCommandOptions, 'timeoutMs' | 'onOutput' | 'trackCwd'>,
  ) {
    this.#log = log;
    this.#running = startCommand(command, {
      ...options,
      timeoutMs: Infinity,
      trackCwd: false,
      maxOutputChars: 1,
      onOutput: (text) => this.#append(text),
    });
    this.#done = this.#running.done.then((result) => {
      this.exitCode = result.exitCode;
      this.signal = result.signal;
      this.status = this.#stopped ? 'killed' : result.exitCode === 0 ? 'completed' : 'failed';
      this.#log.close();
      return result;
    });
  }

  get logPath(): string {
    return this.#log.path;
  }

  #append(text: string): void {
    if (this.#log.full) return;
    const fits = this.#log.write(text);
    this.#unread.push(text);
    if (!fits && !this.#stopped) {
      this.stopReason = `It was stopped because its log reached the cap of ${this.#log.bytes} bytes; the output up to there is in ${this.#log.path}. Run it with its output redirected or limited (| head, > file) instead.`;
      this.#stopped = true;
      this.#running.kill();
    }
  }

  takeUnread(): { text: string; skippedChars: number } {
    return this.#unread.take();
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
 * import type { ToolContext } from '@toolshed/core';
 * import { shellTasksKey } from '@toolshed/tool-shell';
 * declare const ctx: ToolContext;
 *
 * ctx.services.get(shellTasksKey)?.list().map((t) => t.id);
 * ```
 */
export const shellTasksKey: ServiceKey<TaskRegistry> = serviceKey<TaskRegistry>('toolshed.shell.tasks');

/**
 * The session's shell task registry, made on first use (outside a shell family's setup) on top
 * of the session's shared background tasks.
 *
 * @param ctx The call's context.
 * @returns The registry.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { tasksOf } from '@toolshed/tool-shell';
 * declare const ctx: ToolContext;
 *
 * const task = tasksOf(ctx).get('bash_1_ab12cd');
 * ```
 */
export function tasksOf(ctx: Pick<ToolContext, 'services' | 'onClose'>): TaskRegistry {
  let registry = ctx.services.get(shellTasksKey);
  if (!registry) {
    registry = new TaskRegistry({ shared: backgroundTasksOf(ctx) });
    ctx.services.set(shellTasksKey, registry);
  }
  return registry;
}
