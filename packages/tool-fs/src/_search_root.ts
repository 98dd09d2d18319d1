import { constants } from 'node:fs';
import { open, readlink } from 'node:fs/promises';
import type { ToolContext } from '@toolshed/core';
import { approvedRealPaths } from '@toolshed/core/internal';
import { deniedPathTest } from './_denied_paths.ts';
import { assertOpenedAsApproved } from './_opened_file.ts';

/** The folder (or file) a search reads, as {@linkcode openSearchRoot} opened it. */
export interface SearchRoot {
  /**
   * Where the search reads it: `/proc/self/fd/N`, the folder or file the kernel opened and the
   * permission check approved, whatever links on its path move later (in this process: the fd
   * itself; as a child's `cwd`: the child's copy of it, since the child changes folder before
   * exec closes it). Undefined when the call had no decision behind it, or off Linux (no
   * /proc): then the search reads the path, as it always did.
   */
  readonly via: string | undefined;
  /** The descriptor behind `via` (to hand a file to a child as one of its stdio fds). */
  readonly fd: number | undefined;
  /** Where `via` is: the physical path opened (one the decision approved), for the deny rules. */
  readonly real: string | undefined;
  /** Closes it, once the search is over. */
  close(): Promise<void>;
}

/** Options of {@linkcode openSearchRoot}. */
export interface OpenSearchRootOptions {
  /** The call's context (its permission decision says what was approved). */
  ctx: Pick<ToolContext, 'permissions' | 'cwd'>;
  /** What the path was when the tool looked: it must still be that. */
  kind: 'folder' | 'file';
}

const UNCHECKED: SearchRoot = { via: undefined, fd: undefined, real: undefined, close: async () => {} };

/**
 * Opens the folder (or file) a Grep or Glob is about to search and checks it is what the call's
 * permission check approved ({@linkcode assertOpenedAsApproved}), so that the search reads that
 * object and not the path again: a link on the path re-pointed after the check (by a background
 * process, or while a person read the prompt) must not make the search read a folder never
 * allowed. On Linux the search then goes through `/proc/self/fd/N` (see {@linkcode SearchRoot.via});
 * elsewhere the opened object's device and inode are compared with the approved paths and the
 * search reads the path, as before. A call with no decision behind it (a tool called directly)
 * is neither opened nor checked.
 *
 * @param declared The path the tool declared in `resources()` (absolute).
 * @param options The call's context, and whether a folder or a file is expected.
 * @returns The opened root; close it after the search.
 * @throws {Error} When the path now leads elsewhere (naming both places), or is no longer a
 *   folder (a regular file); nothing is searched then.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { openSearchRoot } from './_search_root.ts';
 * declare const ctx: ToolContext;
 *
 * const root = await openSearchRoot('/repo/src', { ctx, kind: 'folder' });
 * try {
 *   root.via; // '/proc/self/fd/23': search there
 * } finally {
 *   await root.close();
 * }
 * ```
 */
export async function openSearchRoot(declared: string, options: OpenSearchRootOptions): Promise<SearchRoot> {
  const { ctx, kind } = options;
  const approved = approvedRealPaths(ctx, { path: declared, access: 'read' });
  if (approved === undefined || approved.length === 0) return UNCHECKED;
  // Non-blocking: a FIFO swapped in since the stat does not hang the open (the fstat below refuses it).
  const handle = await open(declared, constants.O_RDONLY | constants.O_NONBLOCK).catch((e: NodeJS.ErrnoException) => {
    throw new Error(
      `${declared} changed between its permission check and the search: it cannot be opened now (${e.code ?? e.message}); nothing was searched. If it was moved on purpose, run the call again.`,
    );
  });
  try {
    await assertOpenedAsApproved(handle, { path: declared, access: 'read', ctx, action: 'search' });
    const st = await handle.stat();
    if (kind === 'folder' ? !st.isDirectory() : !st.isFile())
      throw new Error(
        `${declared} changed between its permission check and the search: it is no longer ${kind === 'folder' ? 'a folder' : 'a regular file'}; nothing was searched. If that was meant, run the call again.`,
      );
    const via = `/proc/self/fd/${handle.fd}`;
    const real = process.platform === 'linux' ? await readlink(via).catch(() => undefined) : undefined;
    if (real === undefined) {
      await handle.close();
      return UNCHECKED;
    }
    return { via, fd: handle.fd, real, close: () => handle.close() };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * The deny-rule test of a search of `root`: {@linkcode deniedPathTest} of the folder as declared
 * and, when the search reads an opened folder elsewhere (`root.real`), of that folder too, so a
 * file is judged where it was found even if the declared path's links have moved since.
 *
 * @param toolName `Glob` or `Grep`.
 * @param declared The folder searched, as declared (absolute); found paths are relative to it.
 * @param options The call's context, and the physical path of the folder opened, if any.
 * @returns The test (paths relative to the folder, with `/`), or undefined when no deny rule applies.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { searchDeniedTest } from './_search_root.ts';
 * declare const ctx: ToolContext;
 *
 * const denied = searchDeniedTest('Grep', '/repo/d', { ctx, real: '/repo/notes' });
 * denied?.('a.txt');
 * ```
 */
export function searchDeniedTest(
  toolName: string,
  declared: string,
  options: { ctx: Pick<ToolContext, 'cwd' | 'permissions'>; real: string | undefined },
): ((rel: string) => boolean) | undefined {
  const byPath = deniedPathTest(toolName, declared, options.ctx);
  if (byPath === undefined || options.real === undefined || options.real === declared) return byPath;
  const found = deniedPathTest(toolName, options.real, options.ctx)!;
  return (rel) => byPath(rel) || found(rel);
}
