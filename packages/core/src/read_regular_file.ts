import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Options of {@linkcode readRegularFileSync}. */
export interface ReadRegularFileOptions {
  /** Bytes past which the file is not read. @default 1 MiB */
  maxBytes?: number;
}

/**
 * Reads a file only if it is a regular file of at most `maxBytes`, opened without waiting for a
 * writer: a FIFO, a device, a socket or a folder (a project's `.git` file, git config or index
 * can be any of them, shipped in an archive or planted by a command) is refused without reading,
 * so that looking at it cannot hang the process or fill its memory. The check is made on the
 * open file, so a path swapped between a look and the read cannot slip through.
 *
 * @param path The file.
 * @param options `maxBytes` (default 1 MiB).
 * @returns The bytes, or undefined when it is missing, not a regular file, too large or unreadable.
 *
 * @example
 * ```ts
 * import { readRegularFileSync } from '@toolshed/core/internal';
 *
 * readRegularFileSync('/p/sub/.git')?.toString('utf8'); // 'gitdir: ../.git/modules/sub\n'; undefined for a FIFO
 * ```
 */
export function readRegularFileSync(path: string, options: ReadRegularFileOptions = {}): Buffer | undefined {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
