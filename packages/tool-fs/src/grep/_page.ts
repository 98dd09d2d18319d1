import type { GrepQuery, GrepSink } from './_types.ts';

/**
 * Orders relative paths as `rg --sort path` prints them: folder by folder, each folder's entries
 * by name (so `a/b` comes before `a-c`, where a plain string comparison puts it after).
 *
 * @param a A path with `/`.
 * @param b Another.
 * @returns Negative, zero or positive.
 *
 * @example
 * ```ts
 * import { comparePaths } from './_page.ts';
 *
 * ['a-c', 'a/b'].sort(comparePaths); // ['a/b', 'a-c']
 * ```
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // The separator sorts before every character of a name.
    if (x === 47) return -1;
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

/** Where {@linkcode GrepPage} writes content lines (core's `ResultSpill` in the tool). */
export interface GrepTextOut {
  write(text: string): void;
  /** The same as UTF-8 (whole characters); without it every line comes through `write`. */
  writeBytes?(bytes: Uint8Array): void;
}

/** What {@linkcode GrepPage} takes. */
export interface GrepPageOptions {
  mode: GrepQuery['mode'];
  /** Items (lines, files, counts) to skip. */
  offset: number;
  /** Items to return after the offset; 0 for all. */
  limit: number;
  /** content: print line numbers. */
  numbers: boolean;
  /** content: context lines were asked for, so groups are separated by `--`. */
  withContext: boolean;
  /** Files left out (a deny rule covers them), tested once per file. */
  denied?: ((rel: string) => boolean) | undefined;
  /** files_with_matches: a file's mtime, when the engine did not give it (newest first). */
  mtimeOf: (rel: string) => number;
  /** How a path is shown (relative to the working directory). */
  show: (rel: string) => string;
  /**
   * content: where the printed lines go, `\n` between them, in pieces of about 64 KB as they
   * come. Without it they are kept in memory and returned by {@linkcode GrepPage.result}.
   */
  out?: GrepTextOut | undefined;
}

/** What a finished {@linkcode GrepPage} holds. */
export interface GrepPageResult {
  /** Files with matches: all of them for files_with_matches and count; for content, those met up to the end of the page. */
  numFiles: number;
  filenames: string[];
  /** The lines shown (content without `out`, and count). */
  lines: string[];
  /** content: how many lines were printed (to `out`, or into `lines`). */
  numLines: number;
  /** count: matches over all files. */
  numMatches?: number;
  /** More items exist after the page. */
  cut: boolean;
}

interface Ranked {
  rel: string;
  key: number;
}

/** Characters of printed lines gathered before they go to `out` in one write. */
const FLUSH_CHARS = 64 * 1024;

/**
 * One page of Grep's output, built while an engine searches: content lines are printed in
 * the order they come (path order) and only those inside the page are kept, or written on to
 * `out` as they come, so memory does not follow the number of lines (the page is full, and the
 * engine may stop, once one line past it has come); files and counts, which need all matches for
 * their order and totals, keep only the best `offset + limit` seen so far.
 *
 * @example
 * ```ts
 * import { GrepPage } from './_page.ts';
 * import { rgSearch } from './_rg_engine.ts';
 * import type { GrepQuery } from './_types.ts';
 * const signal = AbortSignal.timeout(30_000);
 * const query: GrepQuery = { pattern: 'TODO', dir: '/repo', mode: 'content', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] };
 *
 * const page = new GrepPage({ mode: 'content', offset: 0, limit: 10, numbers: true, withContext: false, mtimeOf: () => 0, show: (f) => f });
 * await rgSearch(query, page, { rg: '/usr/bin/rg', signal });
 * page.result().lines;
 * ```
 */
export class GrepPage implements GrepSink {
  #o: GrepPageOptions;
  /** Items to keep: offset + limit, or all. */
  #keep: number;
  #ranked: Ranked[] = [];
  #total = 0;
  #matches = 0;
  #lines: string[] = [];
  /** Printed lines not yet written to `out`, each but the very first after a `\n`. */
  #buf = '';
  #printed = 0;
  #files = 0;
  #lastFile: string | undefined;
  #lastDenied = false;
  /** How the current file is shown, with its separators: worked out once per file, not per line. */
  #matchPrefix = '';
  #contextPrefix = '';
  #prev: number | undefined;
  #full = false;
  /** Whether `show` gives paths as printed (found at the first path of a run; false: runs are never taken). */
  #plainPrefix: boolean | undefined;

  /**
   * @param options The mode, the page and how to show paths.
   */
  constructor(options: GrepPageOptions) {
    this.#o = options;
    this.#keep = options.limit === 0 ? Infinity : options.offset + options.limit;
  }

  /** Items it takes before it is full: offset + limit, or Infinity for all. */
  get keeps(): number {
    return this.#keep;
  }

  /** True once a line past the page has come (content mode): nothing later can be shown. */
  get full(): boolean {
    return this.#full;
  }

  /** A file a deny rule covers: whatever it holds is dropped, so an engine need not read it. */
  skips(rel: string): boolean {
    return this.#o.denied?.(rel) === true;
  }

  file(rel: string, mtimeMs?: number): void {
    if (this.#o.denied?.(rel)) return;
    this.#total++;
    this.#rank({ rel, key: -(mtimeMs ?? this.#o.mtimeOf(rel)) });
  }

  count(rel: string, count: number): void {
    if (this.#o.denied?.(rel)) return;
    this.#total++;
    this.#matches += count;
    this.#rank({ rel, key: count });
  }

  line(rel: string, n: number, match: boolean, text: string, textStart = 0): void {
    if (this.#full) return;
    if (rel !== this.#lastFile) {
      this.#lastFile = rel;
      this.#lastDenied = this.#o.denied?.(rel) === true;
      if (this.#lastDenied) return;
      this.#files++;
      this.#prev = undefined;
      const name = this.#o.show(rel);
      this.#matchPrefix = `${name}:`;
      this.#contextPrefix = `${name}-`;
      if (this.#o.withContext && this.#printed > 0) this.#print('--');
    } else if (this.#lastDenied) {
      return;
    } else if (this.#o.withContext && this.#prev !== undefined && n !== this.#prev + 1) {
      this.#print('--');
    }
    this.#prev = n;
    const prefix = match ? this.#matchPrefix : this.#contextPrefix;
    if (!this.#o.numbers) this.#print(prefix + (textStart === 0 ? text : text.slice(textStart)));
    else if (textStart > 0) this.#print(prefix + text);
    else this.#print(`${prefix}${n}${match ? ':' : '-'}${text}`);
  }

  get takesRuns(): boolean {
    const o = this.#o;
    return !this.#full && o.out?.writeBytes !== undefined && !o.withContext && o.numbers && this.#plainPrefix !== false;
  }

  canTakeRun(files: readonly string[], count: number): boolean {
    const o = this.#o;
    const at = this.#printed;
    if (!this.takesRuns || at < o.offset || at + count > this.#keep) return false;
    for (const rel of files) if (o.denied?.(rel) || !this.#plain(rel)) return false;
    return true;
  }

  takeRun(bytes: Buffer, files: readonly string[], count: number): void {
    const out = this.#o.out!;
    if (files.length > 0) {
      const last = files[files.length - 1]!;
      this.#files += files.length;
      this.#lastFile = last;
      this.#lastDenied = false;
      this.#prev = undefined;
      this.#matchPrefix = `${last}:`;
      this.#contextPrefix = `${last}-`;
    }
    const at = this.#printed;
    this.#printed += count;
    // Lines are joined with `\n` (as #print does): the run's last `\n` waits for the next line.
    if (this.#buf !== '') out.write(this.#buf);
    this.#buf = '';
    if (at !== this.#o.offset) out.write('\n');
    out.writeBytes!(bytes.subarray(0, bytes.length - 1));
  }

  /** True when `show` gives `rel` as it is; once it does not, runs are never taken (#plainPrefix false). */
  #plain(rel: string): boolean {
    if (this.#o.show(rel) === rel) {
      this.#plainPrefix = true;
      return true;
    }
    // A path shown some other way (a search of a subfolder, shown from the working directory).
    if (this.#plainPrefix === undefined) this.#plainPrefix = false;
    return false;
  }

  /**
   * The page: what is still gathered goes to `out`.
   *
   * @returns The shown items and the totals.
   */
  result(): GrepPageResult {
    const { mode, offset } = this.#o;
    if (mode === 'content') {
      if (this.#buf !== '') this.#o.out?.write(this.#buf);
      this.#buf = '';
      const numLines = Math.max(0, Math.min(this.#printed, this.#keep) - offset);
      return { numFiles: this.#files, filenames: [], lines: this.#lines, numLines, cut: this.#full };
    }
    this.#trim();
    const shown = this.#ranked.slice(offset, this.#keep);
    const cut = this.#total > this.#keep;
    if (mode === 'files_with_matches') {
      return {
        numFiles: this.#total,
        filenames: shown.map((r) => this.#o.show(r.rel)),
        lines: [],
        numLines: 0,
        cut,
      };
    }
    return {
      numFiles: this.#total,
      filenames: [],
      lines: shown.map((r) => `${this.#o.show(r.rel)}:${r.key}`),
      numLines: shown.length,
      numMatches: this.#matches,
      cut,
    };
  }

  #print(text: string): void {
    const at = this.#printed++;
    if (at >= this.#keep) {
      this.#full = true;
      return;
    }
    if (at < this.#o.offset) return;
    const out = this.#o.out;
    if (out === undefined) {
      this.#lines.push(text);
      return;
    }
    this.#buf = at === this.#o.offset ? text : `${this.#buf}\n${text}`;
    if (this.#buf.length >= FLUSH_CHARS) {
      out.write(this.#buf);
      // The next line starts with its `\n`: a piece never ends in the middle of a line's break.
      this.#buf = '';
    }
  }
  #rank(item: Ranked): void {
    this.#ranked.push(item);
    // Sorted and cut down now and then: memory and time follow the page, not the matches.
    if (this.#ranked.length >= 2 * this.#keep + 1024) this.#trim();
  }

  #trim(): void {
    const files = this.#o.mode === 'files_with_matches';
    // Files newest first (ties by path), counts by path.
    this.#ranked.sort(
      files ? (a, b) => a.key - b.key || comparePaths(a.rel, b.rel) : (a, b) => comparePaths(a.rel, b.rel),
    );
    if (this.#ranked.length > this.#keep) this.#ranked.length = this.#keep;
  }
}
