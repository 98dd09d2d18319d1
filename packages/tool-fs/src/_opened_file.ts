import type { FileHandle } from 'node:fs/promises';
import { readlink, stat } from 'node:fs/promises';
import type { ToolContext } from '@toolshed/core';
import { approvedRealPaths } from '@toolshed/core/internal';

/** Options of {@linkcode assertOpenedAsApproved}. */
export interface OpenedAsApprovedOptions {
  /** The path as the tool declared it in `resources()`. */
  path: string;
  /** The access declared. */
  access: 'read' | 'write';
  /** The call's context. */
  ctx: Pick<ToolContext, 'permissions'>;
  /**
   * What the tool does with what it opened, for the message: `search` for Grep and Glob, which
   * open a folder (or a file) to search it. @default the access: `read` or `write`
   */
  action?: 'search';
}

/**
 * Refuses a file opened for a call unless it is one the call's permission check resolved the
 * path to ({@linkcode approvedRealPaths}): a link re-pointed between the check and the open (by
 * a background process, or while a person read the prompt) must not make the tool read a file
 * that was never allowed. On Linux the file opened is named by `/proc/self/fd/N`, which is what
 * the kernel opened, whatever links moved before or after; elsewhere its device and inode are
 * compared with those of the paths checked (which a link re-pointed on their own way could
 * still fool). A call with no decision behind it (a tool called directly) is not checked.
 *
 * @param handle The file as opened.
 * @param options The declared path and access, and the call's context.
 * @throws {Error} Saying where the path leads now and what was checked, when they differ.
 *
 * @example
 * ```ts
 * import { open } from 'node:fs/promises';
 * import type { ToolContext } from '@toolshed/core';
 * import { assertOpenedAsApproved } from './_opened_file.ts';
 * declare const ctx: ToolContext;
 *
 * const handle = await open('/p/notes.md', 'r');
 * await assertOpenedAsApproved(handle, { path: '/p/notes.md', access: 'read', ctx });
 * ```
 */
export async function assertOpenedAsApproved(handle: FileHandle, options: OpenedAsApprovedOptions): Promise<void> {
  const approved = approvedRealPaths(options.ctx, options);
  if (approved === undefined || approved.length === 0) return;
  const opened = await openedPath(handle);
  if (opened !== undefined) {
    if (approved.includes(opened)) return;
  } else if (await sameFileAsOneOf(handle, approved)) return;
  const action = options.action ?? options.access;
  const what = action === 'search' ? 'searched' : action === 'read' ? 'read' : 'written';
  const other = action === 'search' ? 'another file or folder' : 'another file';
  throw new Error(
    `${options.path} changed between its permission check and the ${action}: it now leads to ${opened === undefined ? other : `"${opened}"`}, not to "${approved[0]}", which was checked; nothing was ${what}. A link on its way was re-pointed meanwhile; if that was meant, run the call again so that the new place is checked.`,
  );
}

/** The path the kernel opened, on Linux; undefined elsewhere or without /proc. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

async function sameFileAsOneOf(handle: FileHandle, paths: readonly string[]): Promise<boolean> {
  const st = await handle.stat();
  for (const p of paths) {
    const other = await stat(p).catch(() => undefined);
    if (other !== undefined && other.dev === st.dev && other.ino === st.ino) return true;
  }
  return false;
}
