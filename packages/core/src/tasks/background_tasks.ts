import { serviceKey, type ServiceKey } from '../services.ts';
import type { ToolContext } from '../tool.ts';

/** Where a background task is. */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'killed';

/**
 * One piece of background work of any family: a shell command, a sub-agent. TaskOutput reads
 * it and TaskStop ends it, whatever started it.
 */
export interface BackgroundTask {
  readonly id: string;
  /** Which kind of work: `shell`, `agent`, … (shown by TaskOutput). */
  readonly kind: string;
  /** What it is running: the command, or the agent's description. */
  readonly command: string;
  readonly description: string | undefined;
  /** A name it can be addressed by (a named background agent), if any. */
  readonly name?: string | undefined;
  readonly status: TaskStatus;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why it ended, when that is not its own doing (stopped at the log cap, …). */
  readonly stopReason?: string | undefined;
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
  /** Ends the task (kills its processes, aborts its agent) and waits for it to end. */
  stop(): Promise<void>;
  /** Queues a message for the task to read (a running agent reads it at its next turn); absent when it takes none. */
  send?(message: string): void;
}

/**
 * The background tasks of one session, shared by every family: the shell family adds its
 * commands, the agent family its background agents, and one TaskOutput and one TaskStop serve
 * both. Found under {@linkcode backgroundTasksKey}; `session.close()` stops them all.
 *
 * @example
 * ```ts
 * import { type BackgroundTask, backgroundTasksOf, type ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 * declare const myTask: BackgroundTask;
 *
 * const tasks = backgroundTasksOf(ctx);
 * tasks.add(myTask);
 * tasks.get(myTask.id)?.takeUnread().text;
 * ```
 */
export class BackgroundTasks {
  #tasks = new Map<string, BackgroundTask>();
  #next = 1;
  #closed = false;

  /** True once {@linkcode stopAll} ran: the session is closing and no task may start. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * A fresh id with a prefix, unique in this session.
   *
   * @param prefix Such as `bash` or `agent`.
   * @returns `<prefix>_<n>_<random>`.
   */
  newId(prefix: string): string {
    return `${prefix}_${this.#next++}_${Math.random().toString(36).slice(2, 8)}`;
  }

  /**
   * Adds a started task.
   *
   * @param task The task.
   * @throws {Error} When the session is closing (the task is stopped), or the id is taken.
   */
  add(task: BackgroundTask): void {
    if (this.#closed) {
      void task.stop();
      throw new Error('The session is closing; no new background task can start.');
    }
    if (this.#tasks.has(task.id)) throw new Error(`A background task with id "${task.id}" exists already`);
    this.#tasks.set(task.id, task);
  }

  /**
   * A task by id.
   *
   * @param id The id its tool returned.
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
   * Stops every running task (the session is closing); later `add`s are refused.
   *
   * @returns Resolves when all have ended.
   */
  async stopAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#tasks.values()].map((t) => t.stop()));
  }
}

/**
 * Where a session keeps its {@linkcode BackgroundTasks}.
 *
 * @example
 * ```ts
 * import { backgroundTasksKey, type ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * ctx.services.get(backgroundTasksKey)?.list().map((t) => t.id);
 * ```
 */
export const backgroundTasksKey: ServiceKey<BackgroundTasks> = serviceKey<BackgroundTasks>('toolshed.backgroundTasks');

/**
 * The session's background tasks, made on first use with `stopAll` registered on `session.close()`.
 *
 * @param ctx A call's context, or a family's setup API.
 * @returns The registry.
 *
 * @example
 * ```ts
 * import { backgroundTasksOf, type ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * const task = backgroundTasksOf(ctx).get('bash_1_ab12cd');
 * ```
 */
export function backgroundTasksOf(ctx: Pick<ToolContext, 'services' | 'onClose'>): BackgroundTasks {
  let registry = ctx.services.get(backgroundTasksKey);
  if (!registry) {
    const created = new BackgroundTasks();
    ctx.services.set(backgroundTasksKey, created);
    ctx.onClose(() => created.stopAll());
    registry = created;
  }
  return registry;
}

/**
 * Unread output a task keeps in memory; older unread output is skipped (it stays in the log file).
 *
 * @example
 * ```ts
 * import { MAX_UNREAD_CHARS, UnreadBuffer } from '@toolshed/core/internal';
 *
 * new UnreadBuffer(MAX_UNREAD_CHARS);
 * ```
 */
export const MAX_UNREAD_CHARS = 1_000_000;

/**
 * The output of a task nobody has read yet, capped: past the cap the oldest is skipped and counted.
 *
 * @example
 * ```ts
 * import { UnreadBuffer } from '@toolshed/core/internal';
 *
 * const unread = new UnreadBuffer();
 * unread.push('hello\n');
 * unread.take(); // { text: 'hello\n', skippedChars: 0 }
 * ```
 */
export class UnreadBuffer {
  #parts: string[] = [];
  #chars = 0;
  #skipped = 0;
  #max: number;

  /** @param maxChars The cap. @default MAX_UNREAD_CHARS */
  constructor(maxChars: number = MAX_UNREAD_CHARS) {
    this.#max = maxChars;
  }

  /** Appends output. */
  push(text: string): void {
    this.#parts.push(text);
    this.#chars += text.length;
    while (this.#chars > this.#max && this.#parts.length > 1) {
      const dropped = this.#parts.shift()!;
      this.#chars -= dropped.length;
      this.#skipped += dropped.length;
    }
  }

  /** Takes everything unread, and how much was skipped since the last take. */
  take(): { text: string; skippedChars: number } {
    const out = { text: this.#parts.join(''), skippedChars: this.#skipped };
    this.#parts = [];
    this.#chars = 0;
    this.#skipped = 0;
    return out;
  }
}
