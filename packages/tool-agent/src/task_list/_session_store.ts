import type { ToolContext } from '@toolshed/core';
import { taskListFolder, type TaskListLocationOptions } from './task_list_location.ts';
import { TaskStore, type TaskStoreOptions } from './task_store.ts';

/**
 * The store of the session's task list, opened on first use from the session's project folder
 * and shared by the four Task tools (and by every session and process that resolves the same list).
 *
 * @param ctx The call's context.
 * @param stores The tools' cache, one store per session.
 * @param options Where the list lives.
 * @returns The store.
 */
export function sessionTaskStore(
  ctx: ToolContext,
  stores: Map<string, TaskStore>,
  options: TaskListLocationOptions & TaskStoreOptions,
): TaskStore {
  let store = stores.get(ctx.sessionId);
  if (!store) {
    store = new TaskStore(taskListFolder(ctx.cwd, options), options);
    stores.set(ctx.sessionId, store);
    ctx.onClose(() => void stores.delete(ctx.sessionId));
  }
  return store;
}
