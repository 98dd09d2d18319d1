import { constants } from 'node:fs';
import { type FileHandle, open, readlink } from 'node:fs/promises';
import path from 'node:path';

/** A folder held open for a write, and how to name what is in it. */
export interface PinnedFolder {
  /**
   * The path of an entry of the folder: through the open folder (`/proc/self/fd/N/name`) where it
   * is pinned, so that no link on the folder's way moved later changes where it is; else as written.
   */
  entry(name: string): string;
  /** Whether entries are named through the open folder. */
  pinned: boolean;
  /** Closes the folder. */
  close(): Promise<void>;
}

/** Options of {@linkcode pinFolder}. */
export interface PinFolderOptions {
  /** The path the caller was given, for the message. */
  file: string;
  /** The name to be written in the folder. */
  name: string;
  /**
   * The physical paths the write may land at (the permission check's); the folder as opened
   * must hold one of them under `name`. Undefined or empty: no check.
   */
  allowedTargets?: readonly string[] | undefined;
}

/**
 * Opens the folder a write lands in and, on Linux, names its entries through the open folder
 * (`/proc/self/fd/N/…`): the temp file, the checks of the old file and the rename then all act in
 * the folder that was opened, whatever a link on its path does meanwhile (a folder link flipped
 * to `.git/hooks` and back while the data is flushed). The opened folder is checked against the
 * paths the permission check allowed before anything is created in it. Elsewhere (no /proc),
 * entries are named by path and the caller checks the landing again before its rename.
 *
 * @param dir The folder (it must exist).
 * @param options The caller's path, the name written and the allowed landings.
 * @returns The pinned folder; close it when done.
 * @throws {Error} When the folder opened holds none of the allowed landings: nothing was written.
 *
 * @example
 * ```ts
 * import { pinFolder } from './_pinned_folder.ts';
 *
 * const folder = await pinFolder('/repo/src', { file: '/repo/src/a.ts', name: 'a.ts', allowedTargets: ['/repo/src/a.ts'] });
 * try {
 *   folder.entry('a.ts'); // '/proc/self/fd/23/a.ts'
 * } finally {
 *   await folder.close();
 * }
 * ```
 */
export async function pinFolder(dir: string, options: PinFolderOptions): Promise<PinnedFolder> {
  const byPath: PinnedFolder = { entry: (name) => path.join(dir, name), pinned: false, close: async () => {} };
  if (process.platform !== 'linux') return byPath;
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return byPath; // the caller's own operations report why the folder cannot be used
  }
  const via = `/proc/self/fd/${handle.fd}`;
  let opened: string;
  try {
    opened = await readlink(via);
  } catch {
    await handle.close();
    return byPath;
  }
  const lands = `${opened === '/' ? '' : opened}/${options.name}`;
  const allowed = options.allowedTargets;
  if (allowed !== undefined && allowed.length > 0 && !allowed.includes(lands)) {
    await handle.close();
    throw new Error(
      `${options.file} changed between its permission check and the write: it now leads to "${lands}", not to "${allowed[0]}", which was checked; nothing was written. A link on its way was re-pointed meanwhile; if that was meant, run the call again so that the new place is checked.`,
    );
  }
  return { entry: (name) => `${via}/${name}`, pinned: true, close: () => handle.close() };
}
