import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Options of {@linkcode readRegularFileSync}. */
export interface ReadRegularFileOptions {
  /** Bytes past which the file is not read. @default 1 MiB */
  maxBytes?: number;
  /** A symbolic link is not followed: it is not read, as what it leads to can change (`readShortRegularFile` only). @default false */
  noFollow?: boolean;
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

/** Why {@linkcode readShortRegularFile} did not read a file. */
export type NotReadReason =
  | { kind: 'directory' }
  /** A symbolic link, with `noFollow`. */
  | { kind: 'link' }
  | { kind: 'not-regular' }
  /** `size` is what the file held when looked at, or undefined when it grew past the bound while read. */
  | { kind: 'too-big'; size: number | undefined };

/**
 * Reads a short text file a project ships (a settings file, an agent definition, a `SKILL.md`,
 * `.mcp.json`) without trusting what its name leads to: opened without waiting for a writer, and
 * read only if the open file is a regular file of at most `maxBytes`, reading no more than that
 * even if it grows meanwhile. A FIFO, a device (`/dev/zero`), a socket, a folder or a file of
 * gigabytes (a sparse one takes no disk) is refused, with why, so that each caller can say it in
 * its own words.
 *
 * @param path The file.
 * @param options `maxBytes` (default 1 MiB).
 * @returns `{ text }` (UTF-8), or `{ notRead }` saying why it was not read.
 * @throws {Error} When it cannot be opened or read (`ENOENT`, `EACCES`…: the error's `code` says).
 *
 * @example
 * ```ts
 * import { readShortRegularFile } from '@toolshed/core/internal';
 *
 * const read = await readShortRegularFile('/repo/.claude/agents/reviewer.md');
 * if ('notRead' in read) console.warn(read.notRead.kind); // 'not-regular' for a FIFO
 * ```
 */
export async function readShortRegularFile(
  path: string,
  options: ReadRegularFileOptions = {},
): Promise<{ text: string } | { notRead: NotReadReason }> {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // With noFollow, the open itself refuses a link: no look before it that a swap could slip past.
    handle = await open(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0),
    );
  } catch (e) {
    if (options.noFollow && (e as NodeJS.ErrnoException).code === 'ELOOP') return { notRead: { kind: 'link' } };
    throw e;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { notRead: { kind: 'directory' } };
    if (!info.isFile()) return { notRead: { kind: 'not-regular' } };
    if (info.size > maxBytes) return { notRead: { kind: 'too-big', size: info.size } };
    // Sized by the file (a task file is a few hundred bytes, the bound a megabyte), with room for
    // one byte more; grown, up to one byte past the bound, for a file that grows while read.
    let buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return { notRead: { kind: 'too-big', size: undefined } };
    }
    return { text: buffer.subarray(0, length).toString('utf8') };
  } finally {
    await handle.close();
  }
}

/**
 * What to tell a person or a model about a file {@linkcode readShortRegularFile} did not read: the
 * words after the file's name.
 *
 * @param reason Why it was not read.
 * @param options The bound it was read with, and what a file of this kind should be (`tooBig`).
 * @returns For example `is over 1 MB (3221225472 bytes): a settings file is short JSON`.
 *
 * @example
 * ```ts
 * import { notReadMessage } from '@toolshed/core/internal';
 *
 * notReadMessage({ kind: 'not-regular' }, { maxBytes: 1 << 20, tooBig: 'x' }); // 'is not a regular file (a FIFO, a device or a socket is never read)'
 * ```
 */
export function notReadMessage(reason: NotReadReason, options: { maxBytes: number; tooBig: string }): string {
  switch (reason.kind) {
    case 'directory':
      return 'is a directory, not a file';
    case 'link':
      return 'is a symbolic link, which is not followed';
    case 'not-regular':
      return 'is not a regular file (a FIFO, a device or a socket is never read)';
    case 'too-big': {
      const bound = `${Math.round((options.maxBytes / (1024 * 1024)) * 10) / 10} MB`;
      return `is over ${bound}${reason.size === undefined ? '' : ` (${reason.size} bytes)`}: ${options.tooBig}`;
    }
  }
}
