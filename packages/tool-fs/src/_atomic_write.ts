import { randomBytes } from 'node:crypto';
import { chmod, chown, type FileHandle, lstat, mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { hashContent, isSettledTime, resolveRealPath } from '@toolshed/core/internal';
import { type PinnedFolder, pinFolder } from './_pinned_folder.ts';
import { readWholeFile } from './_text_file.ts';

/** Options of {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * The content hash the file must still have just before the rename; when it differs, nothing
   * is written and {@linkcode ConcurrentChangeError} is thrown. Undefined: no check.
   */
  expectHash?: string | undefined;
  /** The file must not exist yet (a create); if it appears meanwhile, nothing is written. @default false */
  expectMissing?: boolean;
  /**
   * With `expectHash`: the file's {@linkcode statSignature} when the bytes that hash was taken
   * from were read. When the file still has it, and had it since well before that read, the
   * file is not read and hashed again (for a 20 MB file, most of an Edit's time); otherwise it is.
   */
  unchangedSince?: FileSignature | undefined;
  /**
   * The bytes the file must still have just before the rename: as `expectHash`, but compared
   * byte by byte (a 20 MB compare costs a tenth of a 20 MB hash). Undefined: no check.
   */
  expectBytes?: Uint8Array | undefined;
  /**
   * Work to do while the file is flushed to disk (the flush runs off the main thread): hashing
   * what is written, say. Its errors are thrown after the flush, and nothing is written then.
   */
  whileFlushing?: (() => void) | undefined;
  /**
   * Flush the temp file to disk before the rename, so a crash cannot leave an empty or partial
   * file where the old content was. A create has no old content to lose: Write and Edit pass
   * false for one (the rename keeps it atomic for every reader either way). @default true
   */
  flush?: boolean | undefined;
  /**
   * The physical paths the call's permission check allowed the file to be written at
   * (`approvedRealPaths`): just before the rename, where the rename would land is resolved again,
   * and anywhere else (a link on the way re-pointed since the check) writes nothing and throws.
   * Undefined: no check (a tool called directly, with no decision behind it).
   */
  allowedTargets?: readonly string[] | undefined;
}

/** What identifies a file's content without reading it: see {@linkcode statSignature}. */
export interface FileSignature {
  /** Device, inode, size, modification and change times (ns). */
  signature: string;
  /** The file had not changed for a while when the signature was taken, so a change would show in its times. */
  settled: boolean;
}

/**
 * The signature of a file as it is now: take it before reading the file, and a later equal
 * signature says the file was not written since (a write changes the change time, which no
 * program can set back), unless it changed within the same timestamp tick as the read: then
 * `settled` is false and the signature is not to be trusted.
 *
 * @param file The path.
 * @returns The signature, or undefined when the file cannot be looked at.
 *
 * @example
 * ```ts
 * import { hashContent, isSettledTime } from '@toolshed/core/internal';
 * import { readFile } from 'node:fs/promises';
 * import { statSignature, writeFileAtomic } from './_atomic_write.ts';
 * const file = '/repo/a.ts';
 * const next = Buffer.from('export const a = 2;\n');
 *
 * const before = await statSignature(file);
 * const bytes = await readFile(file);
 * await writeFileAtomic(file, next, { expectHash: hashContent(bytes), unchangedSince: before });
 * ```
 */
export async function statSignature(file: string): Promise<FileSignature | undefined> {
  const st = await stat(file, { bigint: true }).catch(() => undefined);
  if (!st) return undefined;
  const now = Date.now();
  return {
    signature: `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
    // Both times, in ms (a whole second stays one): a coarse file system's stamp settles later.
    settled: isSettledTime(Number(st.ctimeNs) / 1e6, now) && isSettledTime(Number(st.mtimeNs) / 1e6, now),
  };
}

/**
 * Thrown by {@linkcode writeFileAtomic} when the file changed between the check and the write.
 *
 * @example
 * ```ts
 * import { ConcurrentChangeError, writeFileAtomic } from './_atomic_write.ts';
 * declare const file: string, bytes: Buffer, expectHash: string;
 *
 * try {
 *   await writeFileAtomic(file, bytes, { expectHash });
 * } catch (e) {
 *   if (e instanceof ConcurrentChangeError) console.log('someone else wrote it first');
 * }
 * ```
 */
export class ConcurrentChangeError extends Error {
  /**
   * @param file The path.
   */
  constructor(file: string) {
    super(
      `${file} was changed by something else while it was being written; nothing was written. Read it again and redo the change.`,
    );
    this.name = 'ConcurrentChangeError';
  }
}

/**
 * Writes a file atomically: a temp file in the same folder, flushed, given the old file's mode
 * (and owner, where allowed), then renamed over the target. Through a symlink the link's target
 * is written and the link kept. Parent folders are created. On any failure the target is left
 * as it was and the temp file removed. On Linux the folder is opened first and every step acts in
 * it ({@linkcode pinFolder}): a folder link re-pointed during the write neither moves the file nor
 * leaves the temp file where the link led (with `allowedTargets`, the folder is checked first).
 *
 * @param file The path to write (absolute).
 * @param data The bytes, or pieces of them in order (written with one `writev`, not joined first).
 * @param options A content hash (or the bytes) the file must still have, or that it must not
 *   exist; work to do while the data is flushed.
 * @returns The path actually written (the symlink's target, when `file` is a link).
 * @throws {ConcurrentChangeError} When `expectHash`/`expectMissing` no longer hold.
 * @throws {Error} What the file system reports (no permission, disk full).
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from './_atomic_write.ts';
 * declare const hashBefore: string;
 *
 * await writeFileAtomic('/repo/a.ts', Buffer.from('x'), { expectHash: hashBefore });
 * ```
 */
export async function writeFileAtomic(
  file: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<string> {
  const target = await linkTarget(file);
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  const name = path.basename(target);
  // Every step below acts in the folder as opened and checked here (see pinFolder).
  const folder = await pinFolder(dir, { file, name, allowedTargets: options.allowedTargets });
  try {
    await writeInFolder(folder, { file, target, name }, data, options);
  } finally {
    await folder.close();
  }
  return target;
}

/** writeFileAtomic's work once its folder is open: the temp file, the checks, the rename. */
async function writeInFolder(
  folder: PinnedFolder,
  names: { file: string; target: string; name: string },
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions,
): Promise<void> {
  const { file, target, name } = names;
  const at = folder.entry(name);
  const old = await stat(at).catch(() => undefined);
  const temp = folder.entry(`.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', old ? old.mode & 0o7777 : 0o666);
  let renamed = false;
  try {
    try {
      // One write, then the flush, off the main thread, while `whileFlushing` (hashing what is
      // written, say) runs on it: writeFile would split the write into awaited pieces.
      const io = writeAll(handle, data).then(() => (options.flush === false ? undefined : handle.sync()));
      try {
        options.whileFlushing?.();
      } finally {
        await io;
      }
    } finally {
      await handle.close();
    }
    if (old) {
      // open() applies the umask; the old file's mode is what the user has and must stay.
      await chmod(temp, old.mode & 0o7777);
      await chown(temp, old.uid, old.gid).catch(() => undefined);
    }
    if (options.expectMissing && (await lstat(at).catch(() => undefined))) throw new ConcurrentChangeError(target);
    const since = options.unchangedSince;
    const untouched = since?.settled === true && (await statSignature(at))?.signature === since.signature;
    if ((options.expectHash !== undefined || options.expectBytes !== undefined) && !untouched) {
      const now = await readWholeFile(at).catch(() => undefined);
      if (now === undefined) throw new ConcurrentChangeError(target);
      if (options.expectBytes !== undefined && !now.equals(options.expectBytes))
        throw new ConcurrentChangeError(target);
      if (options.expectHash !== undefined && hashContent(now) !== options.expectHash)
        throw new ConcurrentChangeError(target);
    }
    // Named by path (no /proc): the links on the way are checked again just before the rename.
    if (!folder.pinned && options.allowedTargets !== undefined)
      assertAllowedTarget(file, target, options.allowedTargets);
    await rename(temp, at);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temp).catch(() => undefined);
  }
}

/**
 * Throws unless the rename to `target` lands at one of the paths the permission check allowed,
 * as the links on its way are now: where the folder could not be pinned (no /proc). Between this
 * and the rename a link could still move; on Linux the pinned folder leaves no such window.
 */
function assertAllowedTarget(file: string, target: string, allowed: readonly string[]): void {
  let lands: string;
  try {
    lands = resolveRealPath(target, { cwd: '/' });
  } catch (e) {
    throw new Error(`${file} cannot be written: ${(e as Error).message}; nothing was written.`);
  }
  if (allowed.length === 0 || allowed.includes(lands)) return;
  throw new Error(
    `${file} changed between its permission check and the write: it now leads to "${lands}", not to "${allowed[0]}", which was checked; nothing was written. A link on its way was re-pointed meanwhile; if that was meant, run the call again so that the new place is checked.`,
  );
}

async function writeAll(handle: FileHandle, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
  if (data instanceof Uint8Array) {
    let at = 0;
    while (at < data.length) {
      const { bytesWritten } = await handle.write(data, at, data.length - at);
      at += bytesWritten;
    }
    return;
  }
  // One writev for all the pieces (a 20 MB file spliced around a one-line change is three), and
  // another for whatever a short write left.
  let parts = data.filter((part) => part.length > 0);
  let position = 0;
  while (parts.length > 0) {
    const { bytesWritten } = await handle.writev(parts as Uint8Array[], position);
    position += bytesWritten;
    let skip = bytesWritten;
    while (parts.length > 0 && skip >= parts[0]!.length) {
      skip -= parts[0]!.length;
      parts = parts.slice(1);
    }
    if (skip > 0) parts = [parts[0]!.subarray(skip), ...parts.slice(1)];
  }
}

async function linkTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    // A dangling link is written at the place it points to, as `echo > link` would: through a
    // chain of links to its end (where the permission check resolved it), not at the next link.
    const st = await lstat(file).catch(() => undefined);
    if (st?.isSymbolicLink()) return resolveRealPath(file, { cwd: path.dirname(file) });
    return file;
  }
}
