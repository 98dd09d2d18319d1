import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, open, rm, rmdir, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Output a search holds ahead of its turn, kept in a file of its own rather than in memory: a
 * run printing everything that is wanted (every line of a dense search) goes on searching on its
 * core while the run before it streams, where pausing it at the memory bound left that core idle
 * for half the search. Chunks go in and come out in order, whole chunks at a time (each is whole
 * lines), while more may be going in: {@linkcode next} catches up with {@linkcode append}.
 *
 * The file is made on the first append (in a folder of its own under the system's temporary
 * folder, readable by its owner only) and loses its name at once where the system allows it
 * (POSIX: nothing is left if the process dies mid-search); it is closed (and, elsewhere,
 * removed) by {@linkcode remove}.
 *
 * @example
 * ```ts
 * import { HeldSpill } from './_held_spill.ts';
 *
 * const spill = new HeldSpill();
 * spill.append(Buffer.from('a\u00001:x\n'));
 * spill.append(Buffer.from('b\u00001:y\n'));
 * (await spill.next(1 << 20))?.toString(); // 'a\u00001:x\nb\u00001:y\n'
 * await spill.next(1 << 20); // undefined: caught up
 * await spill.remove();
 * ```
 */
export class HeldSpill {
  /** The folder and the open file, made on the first append. */
  #file: Promise<{ dir: string; handle: FileHandle }> | undefined;
  /** The writes, one after another. */
  #writes: Promise<void> = Promise.resolve();
  /** Chunks appended since the last write began. */
  #waiting: Buffer[] = [];
  #waitingBytes = 0;
  #writeCount = 0;
  /** The lengths of the chunks written and not yet read, in order. */
  #lengths: number[] = [];
  /** The first write or read that failed: every later call rejects with it. */
  #error: unknown;
  #failed = false;
  /** Bytes appended (their writes may be under way). */
  #queued = 0;
  /** Bytes written. */
  #written = 0;
  /** Bytes read back. */
  #read = 0;

  /** Bytes appended and not yet handed to a write: memory, which grows where the disk falls behind. */
  get unwritten(): number {
    return this.#waitingBytes;
  }

  /** Writes made so far (each takes every chunk appended while the one before was under way). */
  get writes(): number {
    return this.#writeCount;
  }

  /**
   * Adds a chunk after those appended before. Chunks appended while a write is under way are
   * written together by the next one (one `writev`): a write per chunk of ripgrep's output (8 KB)
   * went one after another through the thread pool, slower than ripgrep prints.
   *
   * @param bytes Whole lines.
   */
  append(bytes: Buffer): void {
    this.#queued += bytes.length;
    this.#waiting.push(bytes);
    this.#waitingBytes += bytes.length;
    this.#file ??= makeFile();
    if (this.#waiting.length === 1) this.#writes = this.#writes.then(() => this.#writeWaiting());
  }

  /** Writes every chunk appended since the last write, at the end of the file. */
  async #writeWaiting(): Promise<void> {
    const chunks = this.#waiting.splice(0);
    const size = this.#waitingBytes;
    this.#waitingBytes = 0;
    if (this.#failed) return;
    this.#writeCount++;
    try {
      const { handle } = await this.#file!;
      let done = 0;
      let buffers = chunks;
      while (done < size) {
        const { bytesWritten } = await handle.writev(buffers, this.#written + done);
        done += bytesWritten;
        if (done < size) buffers = [Buffer.concat(chunks).subarray(done)];
      }
      this.#written += size;
      this.#lengths.push(...chunks.map((c) => c.length));
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * The next chunks appended, as one buffer of at most `maxBytes` (or one chunk, if that is
   * longer), once written; undefined when everything appended has been read back.
   *
   * @param maxBytes How much to read at once, at most (but at least one chunk).
   * @returns The bytes, or undefined when caught up.
   * @throws {Error} When the file could not be made, written or read.
   */
  async next(maxBytes: number): Promise<Buffer | undefined> {
    for (;;) {
      if (this.#failed) throw spillError(this.#error);
      if (this.#read < this.#written) break;
      if (this.#queued === this.#read) return undefined;
      await this.#writes;
    }
    let size = this.#lengths.shift()!;
    while (this.#lengths.length > 0 && size + this.#lengths[0]! <= maxBytes) size += this.#lengths.shift()!;
    const { handle } = await this.#file!;
    const buffer = Buffer.allocUnsafe(size);
    let done = 0;
    try {
      while (done < size) {
        const { bytesRead } = await handle.read(buffer, done, size - done, this.#read + done);
        if (bytesRead === 0) throw new Error(`the file ended ${size - done} bytes early`);
        done += bytesRead;
      }
    } catch (error) {
      this.#fail(error);
      throw spillError(error);
    }
    this.#read += size;
    return buffer;
  }

  /** Closes and deletes the file (and its folder), once the writes under way are over. */
  async remove(): Promise<void> {
    const file = this.#file;
    if (file === undefined) return;
    this.#failed = true;
    await this.#writes;
    try {
      const { dir, handle } = await file;
      await handle.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    } catch {
      // Never made: nothing to remove.
    }
  }

  #fail(error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#error = error;
  }
}

/**
 * A new file, readable and writable by its owner only, in a folder of its own; its name and
 * folder are removed at once where the system lets an open file lose its name (POSIX), so that
 * nothing is left behind by a process that ends without removing it (process.exit, SIGTERM,
 * kill -9, a crash): the data lives as long as the handle. Elsewhere {@linkcode HeldSpill.remove}
 * removes them.
 */
async function makeFile(): Promise<{ dir: string; handle: FileHandle }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-grep-held-'));
  const file = path.join(dir, 'held');
  let handle: FileHandle;
  try {
    handle = await open(file, 'w+', 0o600);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  try {
    await unlink(file);
    await rmdir(dir);
  } catch {
    // Windows keeps an open file's name: removed by remove().
  }
  return { dir, handle };
}

/** What the search rejects with when the held output could not be kept on disk: what to do depends on why. */
function spillError(cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const dir = os.tmpdir();
  const advice =
    code === 'ENOENT' || code === 'ENOTDIR'
      ? `${dir}, which does not exist (${reason}); create it or point TMPDIR at a folder that exists`
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `${dir}, which this process cannot write in (${reason}); point TMPDIR at a folder it can write in`
        : `${dir} (${reason}); free space there, or point TMPDIR at a folder with room`;
  return new Error(`Grep could not keep ripgrep's output in a temporary file under ${advice}, or give a head_limit`, {
    cause,
  });
}
