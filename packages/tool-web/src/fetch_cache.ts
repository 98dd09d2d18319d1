/** Options of {@linkcode FetchCache}. */
export interface FetchCacheOptions {
  /** How long an entry is served. @default 900000 (15 minutes, as Claude Code) */
  ttlMs?: number;
  /** The total size of the entries kept; the least recently used go first. @default 50000000 */
  maxSize?: number;
  /** The clock. @default Date.now */
  now?: () => number;
}

interface Slot<V> {
  value: V;
  size: number;
  expires: number;
}

/**
 * WebFetch's cache: entries expire after a time to live and, past a total size, the least
 * recently used are evicted. An entry bigger than the whole cache is not kept.
 *
 * @example
 * ```ts
 * import { FetchCache } from '@toolshed/tool-web';
 *
 * const cache = new FetchCache<string>({ ttlMs: 60_000, maxSize: 1_000_000 });
 * cache.set('https://example.com/', '# Example', 9);
 * cache.get('https://example.com/'); // '# Example'
 * ```
 */
export class FetchCache<V> {
  #slots = new Map<string, Slot<V>>();
  #size = 0;
  #ttlMs: number;
  #maxSize: number;
  #now: () => number;

  /**
   * @param options Time to live, total size and clock.
   * @throws {RangeError} If `ttlMs` or `maxSize` is negative or not a number.
   */
  constructor(options: FetchCacheOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 15 * 60 * 1000;
    this.#maxSize = options.maxSize ?? 50_000_000;
    this.#now = options.now ?? Date.now;
    if (!(this.#ttlMs >= 0))
      throw new RangeError(`FetchCache ttlMs must be a non-negative number of milliseconds, got ${options.ttlMs}`);
    if (!(this.#maxSize >= 0))
      throw new RangeError(`FetchCache maxSize must be a non-negative number, got ${options.maxSize}`);
  }

  /** The total size of the entries held. */
  get size(): number {
    return this.#size;
  }

  /** How many entries are held (expired ones not yet dropped included). */
  get count(): number {
    return this.#slots.size;
  }

  /**
   * The entry for a key, if it has not expired; it becomes the most recently used.
   *
   * @param key The key (WebFetch uses the URL).
   * @returns The value, or undefined.
   *
   * @example
   * ```ts
   * import type { FetchCache } from '@toolshed/tool-web';
   * declare const cache: FetchCache<string>;
   *
   * cache.get('https://example.com/');
   * ```
   */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (!slot) return undefined;
    this.#slots.delete(key);
    if (slot.expires <= this.#now()) {
      this.#size -= slot.size;
      return undefined;
    }
    this.#slots.set(key, slot);
    return slot.value;
  }

  /**
   * Stores an entry, evicting the least recently used until the total fits.
   *
   * @param key The key.
   * @param value The value.
   * @param size Its size (WebFetch counts characters).
   * @returns True when kept; false when it alone is larger than the cache.
   *
   * @example
   * ```ts
   * import type { FetchCache } from '@toolshed/tool-web';
   * declare const cache: FetchCache<string>;
   *
   * const markdown = '# Example Domain';
   * cache.set('https://example.com/', markdown, markdown.length);
   * ```
   */
  set(key: string, value: V, size: number): boolean {
    this.delete(key);
    if (size > this.#maxSize) return false;
    const now = this.#now();
    for (const [k, slot] of this.#slots) {
      if (slot.expires <= now) this.delete(k);
    }
    while (this.#size + size > this.#maxSize) {
      const oldest = this.#slots.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.#slots.set(key, { value, size, expires: now + this.#ttlMs });
    this.#size += size;
    return true;
  }

  /**
   * Drops an entry.
   *
   * @param key The key.
   * @returns True when there was one.
   *
   * @example
   * ```ts
   * import type { FetchCache } from '@toolshed/tool-web';
   * declare const cache: FetchCache<string>;
   *
   * cache.delete('https://example.com/');
   * ```
   */
  delete(key: string): boolean {
    const slot = this.#slots.get(key);
    if (!slot) return false;
    this.#slots.delete(key);
    this.#size -= slot.size;
    return true;
  }

  /**
   * Drops every entry.
   *
   * @example
   * ```ts
   * import type { FetchCache } from '@toolshed/tool-web';
   * declare const cache: FetchCache<string>;
   *
   * cache.clear();
   * ```
   */
  clear(): void {
    this.#slots.clear();
    this.#size = 0;
  }
}
