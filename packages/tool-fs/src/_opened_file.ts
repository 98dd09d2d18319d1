import type { FileHandle } from 'node:fs/promises';
import { readlink, stat } from 'node:fs/promises';
import type { ToolContext } from '@toolshed/core';
import { approvedRealPaths, hardLinkedRuleFiles, inodeKey } from '@toolshed/core/internal';

/** Options of {@linkcode assertOpenedAsApproved}. */
export interface OpenedAsApprovedOptions {
  /** The path as the tool declared it in `resources()`. */
  path: string;
  /** The access declared. */
  access: 'read' | 'write';
  /** The call's context. */
  ctx: Pick<ToolContext, 'permissions' | 'cwd'>;
  /** The tool, whose deny and ask rules a file opened with several names is held to. @default 'Read' */
  toolName?: string;
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
 * A read of a file with several names is also refused when one of them is a file a deny or ask
 * rule names (the name checked was made a hard link to `.env` meanwhile: same path, other file).
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
    if (approved.includes(opened)) return await assertNoRuleNamesIt(handle, options);
  } else if (await sameFileAsOneOf(handle, approved)) return await assertNoRuleNamesIt(handle, options);
  const action = options.action ?? options.access;
  const what = action === 'search' ? 'searched' : action === 'read' ? 'read' : 'written';
  const other = action === 'search' ? 'another file or folder' : 'another file';
  throw new Error(
    `${options.path} changed between its permission check and the ${action}: it now leads to ${opened === undefined ? other : `"${opened}"`}, not to "${approved[0]}", which was checked; nothing was ${what}. A link on its way was re-pointed meanwhile; if that was meant, run the call again so that the new place is checked.`,
  );
}

/** A read opened a file with several names, one of which a deny or ask rule names: refused. */
async function assertNoRuleNamesIt(handle: FileHandle, options: OpenedAsApprovedOptions): Promise<void> {
  if (options.access !== 'read') return;
  const st = await handle.stat();
  if (!st.isFile() || st.nlink < 2) return;
  const { ctx } = options;
  const toolName = options.toolName ?? 'Read';
  const key = inodeKey(st);
  const { deny, ask } = ctx.permissions.rules;
  // The rules' files are kept per session while their folders are unchanged: no listing per call.
  // A rule whose folder is too large to list is not held here: the check asked about it when the
  // file had several names then.
  const found =
    hardLinkedRuleFiles(deny, { toolName, ctx }).files.get(key) ??
    hardLinkedRuleFiles(ask, { toolName, ctx }).files.get(key);
  if (found === undefined) return;
  throw new Error(
    `${options.path} is now a hard link to "${found.file}" (the same file under another name), which rule "${found.rule.raw}" covers; it became one after its permission check, so nothing was ${options.action === 'search' ? 'searched' : 'read'}. Do not retry this call; if it is needed, ask the user to change the rule.`,
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
