import { createHash } from 'node:crypto';
import { isAbsolute, normalize, parse } from 'node:path';

/** What the cache remembers about one read of a file. */
export interface FileState {
  /** The absolute, normalized path (the cache key). */
  path: string;
  /** sha256 hex of the whole file content as it was read (see {@linkcode hashContent}). */
  contentHash: string;
  /** The file's mtime at the read. */
  mtimeMs: number;
  /**
   * The file's change time at the read, when the reader recorded it. Unlike the mtime, no one can
   * set it back (`touch -r` restores an mtime), so a tool that trusts an unchanged stat instead of
   * hashing the file again compares this too.
   */
  ctimeMs?: number;
  /** The file's size in bytes at the read. */
  size: number;
  /** The first line read, when the read asked for a range. */
  offset?: number;
  /** How many lines were read, when the read asked for a range. */
  limit?: number;
  /** Only a range of the file was read. */
  partial: boolean;
  /** When the read happened (`Date.now()`). */
  readAt: number;
  /** The text as read, kept for diffs and "unchanged" checks; left out when too large to keep. */
  content?: string;
}

/**
 * What {@linkcode FileStateCache.record} takes: a {@linkcode FileState} without its path; `readAt`
 * defaults to now. `contentHash` may be a function, called once, on the entry's first use: a tool
 * that wrote a large file records it at once while the hash is still being taken elsewhere.
 */
export type FileStateInput = Omit<FileState, 'path' | 'readAt' | 'contentHash'> & {
  readAt?: number;
  contentHash: string | (() => string);
};

/** Options of {@linkcode FileStateCache}. */
export interface FileStateCacheOptions {
  /** How many files are remembered; the least recently used is dropped first. @default 100 */
  maxEntries?: number;
  /** Total UTF-8 bytes of stored `content`; a single content over a quarter of this is not stored. @default 26214400 (25 MB) */
  maxBytes?: number;
}

/** What {@linkcode FileStateCache.checkFresh} says about a file. */
export type FreshnessCheck =
  | { status: 'fresh' }
  | { status: 'not_read' }
  | { status: 'partial' }
  | { status: 'stale'; reason: string };

/** The default of {@linkcode FileStateCacheOptions.maxEntries}. */
export const DEFAULT_FILE_STATE_MAX_ENTRIES = 100;
/** The default of {@linkcode FileStateCacheOptions.maxBytes}: 25 MB. */
export const DEFAULT_FILE_STATE_MAX_BYTES = 25 * 1024 * 1024;

/**
 * The sha256 hex digest of a file's content; strings are hashed as UTF-8, so hashing the text of
 * a UTF-8 file and hashing its bytes agree.
 *
 * @param content The text or the bytes.
 * @returns 64 lowercase hex characters.
 *
 * @example
 * ```ts
 * import { hashContent } from '@toolshed/core/internal';
 *
 * hashContent('') === 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'; // true
 * ```
 */
export function hashContent(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * What file tools have read in a session, for Edit/Write staleness checks and Read's "unchanged
 * since last read" stub. An LRU keyed by absolute normalized path (symlinks are the caller's to
 * resolve), bounded by entry count and by the bytes of stored content. Equal content hashes mean
 * fresh even when the mtime moved, so a formatter or `touch` does not force a re-read.
 *
 * @example
 * ```ts
 * import { FileStateCache } from '@toolshed/core';
 * import fs from 'node:fs/promises';
 *
 * const cache = new FileStateCache();
 * const text = await fs.readFile('/repo/a.ts', 'utf8');
 * const st = await fs.stat('/repo/a.ts');
 * cache.record('/repo/a.ts', {
 *   contentHash: FileStateCache.hashContent(text), mtimeMs: st.mtimeMs, size: st.size, partial: false, content: text,
 * });
 * cache.checkFresh('/repo/a.ts', { contentHash: FileStateCache.hashContent(text), mtimeMs: st.mtimeMs }); // { status: 'fresh' }
 * ```
 */
export class FileStateCache {
  /** The same function as {@linkcode hashContent}. */
  static readonly hashContent: (content: string | Uint8Array) => string = hashContent;

  readonly #maxEntries: number;
  readonly #maxBytes: number;
  // Map iteration order is insertion order: the first key is the least recently used.
  readonly #entries = new Map<string, Readonly<FileState>>();
  /** The UTF-8 bytes of each stored `content`, counted once when it was recorded. */
  readonly #contentBytes = new Map<string, number>();
  #bytes = 0;

  /**
   * @param options The bounds; see {@linkcode FileStateCacheOptions}.
   * @throws {RangeError} When `maxEntries` is not a positive integer or `maxBytes` is not a non-negative number.
   */
  constructor(options: FileStateCacheOptions = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_FILE_STATE_MAX_ENTRIES;
    const maxBytes = options.maxBytes ?? DEFAULT_FILE_STATE_MAX_BYTES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`FileStateCache maxEntries must be a positive integer, got ${String(maxEntries)}.`);
    }
    if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0) {
      throw new RangeError(`FileStateCache maxBytes must be a non-negative number, got ${String(maxBytes)}.`);
    }
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** How many files are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** The UTF-8 bytes of all stored `content`. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Remembers a read of `path`, replacing an earlier one, and makes it the most recently used.
   * Content over a quarter of `maxBytes` is not stored (the hash still is); then the least
   * recently used entries are dropped until both bounds hold. A `contentHash` given as a function
   * is called the first time the entry's hash is read, and only then.
   *
   * @param path The absolute path that was read.
   * @param state What was read.
   * @returns The entry as stored.
   * @throws {TypeError} When `path` is not absolute.
   *
   * @example
   * ```ts
   * import type { FileStateCache } from '@toolshed/core';
   * declare const cache: FileStateCache;
   * declare const contentHash: string, mtimeMs: number, size: number;
   *
   * cache.record('/repo/a.ts', { contentHash, mtimeMs, size, partial: true, offset: 10, limit: 50 });
   * ```
   */
  record(path: string, state: FileStateInput): Readonly<FileState> {
    const key = keyOf(path);
    const { content, readAt, contentHash, ...rest } = state;
    const entry = { ...rest, path: key, readAt: readAt ?? Date.now() } as FileState;
    if (typeof contentHash === 'string') entry.contentHash = contentHash;
    else {
      let known: string | undefined;
      Object.defineProperty(entry, 'contentHash', { enumerable: true, get: () => (known ??= contentHash()) });
    }
    // UTF-8 takes at least one byte per UTF-16 unit: a text longer than the bound in units is
    // over it in bytes, and is not measured (for a 20 MB text written by Write or Edit, counting
    // its bytes was a quarter of the call).
    const limit = this.#maxBytes / 4;
    const contentBytes = content === undefined || content.length > limit ? 0 : Buffer.byteLength(content, 'utf8');
    if (content !== undefined && content.length <= limit && contentBytes <= limit) entry.content = content;
    this.#remove(key);
    const frozen = Object.freeze(entry);
    this.#entries.set(key, frozen);
    if (entry.content !== undefined) {
      this.#contentBytes.set(key, contentBytes);
      this.#bytes += contentBytes;
    }
    this.#evict();
    return frozen;
  }

  /**
   * The remembered read of `path`, made the most recently used.
   *
   * @param path The absolute path.
   * @returns The entry, or `undefined` when the file was not read (or was evicted).
   * @throws {TypeError} When `path` is not absolute.
   *
   * @example
   * ```ts
   * import type { FileStateCache } from '@toolshed/core';
   * declare const cache: FileStateCache;
   *
   * cache.get('/repo/a.ts')?.partial;
   * ```
   */
  get(path: string): Readonly<FileState> | undefined {
    const key = keyOf(path);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /**
   * Forgets `path` (after a delete or a move, say).
   *
   * @param path The absolute path.
   * @returns Whether there was an entry.
   * @throws {TypeError} When `path` is not absolute.
   *
   * @example
   * ```ts
   * import type { FileStateCache } from '@toolshed/core';
   * declare const cache: FileStateCache;
   *
   * cache.delete('/repo/a.ts');
   * ```
   */
  delete(path: string): boolean {
    return this.#remove(keyOf(path));
  }

  /**
   * Forgets every file.
   *
   * @example
   * ```ts
   * import type { FileStateCache } from '@toolshed/core';
   * declare const cache: FileStateCache;
   *
   * cache.clear();
   * cache.size; // 0
   * ```
   */
  clear(): void {
    this.#entries.clear();
    this.#contentBytes.clear();
    this.#bytes = 0;
  }

  /**
   * Whether `path` may be edited given what is on disk now: `not_read` when it was never read
   * (or was evicted), `stale` when its content hash differs from the read's, `partial` when only
   * a range was read, `fresh` otherwise. An mtime change alone is fresh.
   *
   * @param path The absolute path.
   * @param current The hash and mtime of the file as it is now.
   * @returns The verdict; `stale` carries a reason a model can act on.
   * @throws {TypeError} When `path` is not absolute.
   *
   * @example
   * ```ts
   * import { type FileStateCache } from '@toolshed/core';
   * import { hashContent } from '@toolshed/core/internal';
   * import fs from 'node:fs/promises';
   * declare const cache: FileStateCache;
   * declare const path: string;
   *
   * const st = await fs.stat(path);
   * const check = cache.checkFresh(path, { contentHash: hashContent(await fs.readFile(path)), mtimeMs: st.mtimeMs });
   * if (check.status === 'stale') console.log({ is_error: true, content: check.reason });
   * ```
   */
  checkFresh(path: string, current: { contentHash: string; mtimeMs: number }): FreshnessCheck {
    const entry = this.get(path);
    if (entry === undefined) return { status: 'not_read' };
    // Stale is checked before partial: a re-read of the whole file answers both, and "it changed" says more.
    if (entry.contentHash !== current.contentHash) {
      return {
        status: 'stale',
        reason:
          `${entry.path} changed on disk since it was read at ${new Date(entry.readAt).toISOString()} ` +
          `(content differs; last modified ${safeIso(current.mtimeMs)}). Read it again before changing it.`,
      };
    }
    if (entry.partial) return { status: 'partial' };
    return { status: 'fresh' };
  }

  /**
   * Whether a Read of `path` would return what the model already has: the same range as the
   * remembered read and the same content hash. Read then answers with a short stub.
   *
   * @param path The absolute path.
   * @param read The range asked for now and the file's current hash.
   * @returns `true` when unchanged.
   * @throws {TypeError} When `path` is not absolute.
   *
   * @example
   * ```ts
   * import type { FileStateCache } from '@toolshed/core';
   * declare const cache: FileStateCache;
   * declare const path: string, contentHash: string;
   *
   * if (cache.isUnchangedRead(path, { offset: undefined, limit: undefined, contentHash })) console.log('File unchanged since last read.');
   * ```
   */
  isUnchangedRead(
    path: string,
    read: { offset?: number | undefined; limit?: number | undefined; contentHash: string },
  ): boolean {
    const entry = this.get(path);
    return (
      entry !== undefined &&
      entry.offset === read.offset &&
      entry.limit === read.limit &&
      entry.contentHash === read.contentHash
    );
  }

  #remove(key: string): boolean {
    const old = this.#entries.get(key);
    if (old === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= this.#contentBytes.get(key) ?? 0;
    this.#contentBytes.delete(key);
    return true;
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) return;
      this.#remove(key);
    }
  }
}

function keyOf(path: string): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new TypeError(
      `FileStateCache needs an absolute path, got '${String(path)}'; resolve it against the session's cwd first.`,
    );
  }
  const normalized = normalize(path);
  // `/a/b/` and `/a/b` are the same file; keep a root (`/`, `C:\`) as it is.
  return normalized !== parse(normalized).root && /[\\/]$/.test(normalized) ? normalized.slice(0, -1) : normalized;
}

function safeIso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'unknown' : d.toISOString();
}
