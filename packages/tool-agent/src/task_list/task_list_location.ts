import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Options that say which task list a session uses and where it lives. */
export interface TaskListLocationOptions {
  /**
   * The list's id; two sessions with the same id share the list.
   * @default `TOOLSHED_TASK_LIST_ID`, else one per project: the project folder's name and a hash of its resolved path
   */
  taskListId?: string;
  /** The folder that holds every list. @default `~/.toolshed/tasks` */
  tasksDir?: string;
}

/**
 * The folder of a session's task list: `<tasksDir>/<list id>/`. The id is sanitised to
 * letters, digits, `-` and `_`, so it can never name a folder elsewhere.
 *
 * @param cwd The session's working directory (the project).
 * @param options An explicit id or folder, and `env`, where `TOOLSHED_TASK_LIST_ID` and `HOME`
 *   are read (default `process.env`).
 * @returns The absolute folder of the list.
 *
 * @example
 * ```ts
 * import { taskListFolder } from '@toolshed/tool-agent';
 *
 * taskListFolder('/home/me/app'); // '/home/me/.toolshed/tasks/app-3f2a9c1e'
 * taskListFolder('/home/me/app', { taskListId: 'release' }); // '/home/me/.toolshed/tasks/release'
 * ```
 */
export function taskListFolder(
  cwd: string,
  options: TaskListLocationOptions & { env?: NodeJS.ProcessEnv } = {},
): string {
  const env = options.env ?? process.env;
  const id = options.taskListId ?? (env['TOOLSHED_TASK_LIST_ID'] || undefined) ?? projectListId(cwd);
  const safe = id.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100);
  if (safe.replace(/-/g, '') === '')
    throw new RangeError(
      `The task list id ${JSON.stringify(id)} has no letters or digits; use an id such as "my-project".`,
    );
  const base = options.tasksDir ?? path.join(env['HOME'] || os.homedir(), '.toolshed', 'tasks');
  return path.join(path.resolve(base), safe);
}

function projectListId(cwd: string): string {
  let real = path.resolve(cwd);
  try {
    real = realpathSync(real);
  } catch {
    // a folder that does not exist yet keeps its resolved spelling
  }
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 8);
  return `${path.basename(real) || 'root'}-${hash}`;
}
