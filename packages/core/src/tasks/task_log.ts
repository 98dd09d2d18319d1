import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * The default cap of one background task's log: past it the task is stopped.
 *
 * @example
 * ```ts
 * import { openTaskLog } from '@toolshed/core';
 * import { DEFAULT_TASK_LOG_MAX_BYTES } from '@toolshed/core/internal';
 * const dir = '/tmp/toolshed/s1/tasks';
 *
 * openTaskLog(dir, 'bash_1', { maxBytes: DEFAULT_TASK_LOG_MAX_BYTES });
 * ```
 */
export const DEFAULT_TASK_LOG_MAX_BYTES = 100 * 1024 * 1024;

/** Options of {@linkcode openTaskLog}. */
export interface TaskLogOptions {
  /** Past this many bytes `write` refuses (and returns false). @default 100 MB */
  maxBytes?: number;
}

/** An append-only log file of one background task. */
export interface TaskLog {
  readonly path: string;
  /** Bytes written so far. */
  readonly bytes: number;
  /** True once a write would have passed the cap. */
  readonly full: boolean;
  /**
   * Appends text; the part past the cap is not written.
   *
   * @returns False when the cap was reached (the caller stops the task).
   */
  write(text: string): boolean;
  /** Closes the file. Idempotent. */
  close(): void;
}

/**
 * The file name of a task id: injective, so two ids that differ only in `.` or `_` never
 * share a file, and no id can name a path outside the folder.
 *
 * @param id A task id.
 * @returns A safe file name (without extension).
 *
 * @example
 * ```ts
 * import { taskLogName } from '@toolshed/core/internal';
 *
 * taskLogName('bash_1.x'); // 'bash_5fx1_2exx'
 * ```
 */
export function taskLogName(id: string): string {
  return id.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}x`);
}

/**
 * Opens a task's log for writing: the folder is made private (0700) and must not be a symlink,
 * the file is created exclusively (never an existing file or symlink) and private (0600), and
 * writes stop at the cap.
 *
 * @param dir The folder of the session's task logs.
 * @param id The task id (any string; see {@linkcode taskLogName}).
 * @param options The cap.
 * @returns The log.
 * @throws {Error} When the folder is a symlink or the file exists already (`EEXIST`).
 *
 * @example
 * ```ts
 * import { openTaskLog } from '@toolshed/core';
 * import path from 'node:path';
 * const stateDir = '/tmp/toolshed/s1';
 * declare function stopTheTask(): void;
 *
 * const log = openTaskLog(path.join(stateDir, 'tasks'), 'bash_1', { maxBytes: 1024 });
 * if (!log.write('hello\n')) stopTheTask();
 * log.close();
 * ```
 */
export function openTaskLog(dir: string, id: string, options: TaskLogOptions = {}): TaskLog {
  const maxBytes = options.maxBytes ?? DEFAULT_TASK_LOG_MAX_BYTES;
  if (!(maxBytes > 0)) throw new RangeError(`maxBytes must be a positive number of bytes, got ${maxBytes}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory())
    throw new Error(`The task log folder "${dir}" is not a directory (a symlink?); remove it and try again`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  const file = path.join(dir, `${taskLogName(id)}.log`);
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  let bytes = 0;
  let full = false;
  let closed = false;
  return {
    path: file,
    get bytes() {
      return bytes;
    },
    get full() {
      return full;
    },
    write(text) {
      if (closed || full) return !full;
      let buffer = Buffer.from(text, 'utf8');
      if (bytes + buffer.length > maxBytes) {
        buffer = buffer.subarray(0, maxBytes - bytes);
        full = true;
      }
      try {
        if (buffer.length) writeSync(fd, buffer);
      } catch {
        // A full disk must not crash the session; the unread buffer still has the output.
      }
      bytes += buffer.length;
      return !full;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
