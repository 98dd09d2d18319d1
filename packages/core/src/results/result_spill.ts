import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAscii } from 'node:buffer';
import { buildPreview, DEFAULT_PREVIEW_CHARS, fileStem, formatCount, linkIntoPlace } from './result_budget.ts';
import { savedFileStats, type SavedFileStats } from './saved_results.ts';
import { LineFolder } from './line_folder.ts';
import type { SavedOutputReaders } from './saved_output_hint.ts';

/** Bytes gathered before one write to the file (pieces over a third of it are written on their own). */
const RESULT_SPILL_BATCH_BYTES = 1024 * 1024;

/** Options of {@linkcode ResultSpill}. */
export interface ResultSpillOptions {
  /** The id of the `tool_use`; names the file, as {@linkcode persistLargeResult} names it. */
  toolUseId: string;
  /** The session's state directory; the file goes to `<stateDir>/tool-results/`. */
  stateDir: string;
  /** Over this many characters the text goes to a file and a preview is returned (the tool's `maxResultSizeChars`). */
  maxChars: number;
  /** How many characters of the start the preview shows. @default 2000 */
  previewChars?: number;
  /**
   * As {@linkcode PersistLargeResultOptions.refuseToSave} (see {@linkcode deniedQuoteGuard}): asked
   * about each piece written once the text is over `maxChars`, so pieces should be whole lines.
   * A refused output is not saved (what was written is removed) and is cut to `maxChars`.
   */
  refuseToSave?: ((text: string) => string | undefined) | undefined;
  /**
   * Flush the file to disk before it gets its name, as {@linkcode persistLargeResult} does. The file
   * only has to outlive the session (close() removes it), so a streamed result skips the flush
   * unless asked. @default false
   */
  sync?: boolean;
  /**
   * The tools the session has to read the file with; the preview names only these
   * (`savedOutputReaders(ctx.tools)`). @default Read and Grep
   */
  readers?: SavedOutputReaders | undefined;
}

/** What {@linkcode ResultSpill.finish} returns. */
export interface ResultSpillOutcome {
  /** The whole text when it stayed within `maxChars`; else the preview (or the cut text, with a note). */
  content: string;
  /** Characters written in all. */
  totalChars: number;
  /** The file with the whole text, when it went to one. */
  persistedPath?: string;
  /**
   * That file as written, from the handle that wrote it: pass it on as the tool result's
   * `persistedStats`, so the session records this file as its own (and not one renamed over it).
   */
  persistedStats?: SavedFileStats;
  /** Why saving failed; `content` is then the first `maxChars` characters with a note. */
  persistError?: string;
  /** Why the output was not saved (from `refuseToSave`); `content` is then cut, with a note. */
  notSavedReason?: string;
}

/**
 * A tool result written as it is made, for tools whose output can be far larger than what a
 * model is sent (a search that prints every line): the text is held in memory while it is within
 * `maxChars`, and once it passes that it goes to `<stateDir>/tool-results/<toolUseId>.txt` piece
 * by piece, with only the start kept for the preview. {@linkcode ResultSpill.finish} returns the
 * text, or the same preview {@linkcode persistLargeResult} would have made, so the pipeline (which
 * never saves a preview twice) passes it on as it is. Memory stays near `maxChars` whatever the
 * output's size; {@linkcode ResultSpill.peakHeldChars} tells how near.
 *
 * @example
 * ```ts
 * import { ResultSpill } from '@toolshed/core';
 *
 * const spill = new ResultSpill({ toolUseId: 'toolu_1', stateDir: '/tmp/toolshed/s1', maxChars: 50_000 });
 * for (let i = 0; i < 100_000; i++) spill.write(`line ${i}\n`);
 * const { content, persistedPath } = await spill.finish(); // a preview, and the file's path
 * ```
 */
export class ResultSpill {
  readonly #o: ResultSpillOptions;
  readonly #previewChars: number;
  #held: string[] = [];
  #heldChars = 0;
  #peak = 0;
  #total = 0;
  /** Once spilled (or given up): the first `maxChars` characters, for the preview or a cut result. */
  #head: string | undefined;
  #fd: number | undefined;
  #dir = '';
  #tmp = '';
  #error: string | undefined;
  #refused: string | undefined;
  #finished = false;
  /** Bytes of the text waiting to go to the file: written in a few large writes, not one per piece. */
  #batch: Buffer | undefined;
  #batched = 0;
  #peakBatched = 0;
  #writes = 0;
  /** Lines longer than Read shows are folded as they go to the file (the preview says so). */
  readonly #folder = new LineFolder();

  /**
   * @param options Where the file goes and the limit.
   * @throws {RangeError} When `maxChars` is not a non-negative number or `previewChars` not a non-negative integer.
   */
  constructor(options: ResultSpillOptions) {
    if (typeof options.maxChars !== 'number' || Number.isNaN(options.maxChars) || options.maxChars < 0)
      throw new RangeError(`maxChars must be a non-negative number or Infinity, got ${String(options.maxChars)}.`);
    this.#previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
    if (!Number.isSafeInteger(this.#previewChars) || this.#previewChars < 0)
      throw new RangeError(`previewChars must be a non-negative integer, got ${String(options.previewChars)}.`);
    this.#o = options;
  }

  /** Characters written so far. */
  get totalChars(): number {
    return this.#total;
  }

  /** True once the text is over `maxChars` (it is going to a file, or was refused or failed). */
  get spilled(): boolean {
    return this.#head !== undefined;
  }

  /** The most characters of the text held in memory at once (for tests of bounded memory). */
  get peakHeldChars(): number {
    return this.#peak;
  }

  /**
   * The most bytes waiting to be written to the file at once (for tests of bounded memory): at
   * most 1 MB, whatever the text's size.
   */
  get peakBatchedBytes(): number {
    return this.#peakBatched;
  }

  /** How many writes to the file were made (for tests that pieces are gathered, not written one by one). */
  get fileWrites(): number {
    return this.#writes;
  }

  /**
   * Adds text at the end.
   *
   * @param text The next piece (whole lines, when `refuseToSave` is set).
   * @throws {Error} After {@linkcode ResultSpill.finish}.
   */
  write(text: string): void {
    if (this.#finished) throw new Error('ResultSpill.write was called after finish().');
    if (text === '') return;
    this.#total += text.length;
    if (this.#head === undefined) {
      this.#held.push(text);
      this.#heldChars += text.length;
      if (this.#heldChars > this.#peak) this.#peak = this.#heldChars;
      if (this.#heldChars <= this.#o.maxChars) return;
      const whole = this.#held.join('');
      this.#held = [];
      this.#heldChars = 0;
      this.#head = whole.slice(0, Math.min(this.#o.maxChars, whole.length));
      this.#open();
      this.#append(whole);
      return;
    }
    this.#append(text);
  }

  /**
   * Adds text given as its UTF-8 bytes (whole characters: a piece never ends inside one), for
   * output passed on as it was read: once the text is past `maxChars`, with no `refuseToSave`,
   * ASCII bytes are copied to the file as they are, never decoded; anything else is decoded and
   * goes as {@linkcode ResultSpill.write} would take it. The bytes are not kept after the call.
   *
   * @param bytes The next piece, as UTF-8.
   * @throws {Error} After {@linkcode ResultSpill.finish}.
   */
  writeBytes(bytes: Uint8Array): void {
    if (this.#finished) throw new Error('ResultSpill.writeBytes was called after finish().');
    const length = bytes.length;
    if (length === 0) return;
    if (this.#head === undefined || this.#fd === undefined || this.#o.refuseToSave !== undefined || !isAscii(bytes)) {
      this.write(Buffer.from(bytes.buffer, bytes.byteOffset, length).toString('utf8'));
      return;
    }
    this.#total += length;
    bytes = this.#folder.foldAscii(bytes);
    const folded = bytes.length;
    try {
      if (folded > RESULT_SPILL_BATCH_BYTES - this.#batched) {
        this.#flush();
        if (folded * 3 > RESULT_SPILL_BATCH_BYTES) {
          let at = 0;
          while (at < folded) {
            this.#writes++;
            at += writeSync(this.#fd, bytes, at, folded - at);
          }
          return;
        }
      }
      this.#batch ??= Buffer.allocUnsafe(RESULT_SPILL_BATCH_BYTES);
      this.#batch.set(bytes, this.#batched);
      this.#batched += folded;
      if (this.#batched > this.#peakBatched) this.#peakBatched = this.#batched;
    } catch (e) {
      this.#error = (e as Error).message;
      this.#drop();
    }
  }

  #open(): void {
    this.#dir = join(resolve(this.#o.stateDir), 'tool-results');
    this.#tmp = join(this.#dir, `.${fileStem(this.#o.toolUseId)}.${process.pid}.${randomUUID()}.tmp`);
    try {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      // Only the user may read it: 0600, created anew (never through a symlink or into a file left there).
      this.#fd = openSync(
        this.#tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (e) {
      this.#error = (e as Error).message;
    }
  }

  #append(text: string): void {
    if (this.#fd === undefined) return;
    const refusal = this.#o.refuseToSave?.(text);
    if (refusal !== undefined) {
      this.#refused = refusal;
      this.#drop();
      return;
    }
    text = this.#folder.fold(text);
    try {
      // A UTF-16 unit takes at most 3 bytes in UTF-8: a piece that might not fit goes after a flush.
      const room = RESULT_SPILL_BATCH_BYTES - this.#batched;
      if (text.length * 3 > room) {
        this.#flush();
        if (text.length * 3 > RESULT_SPILL_BATCH_BYTES) {
          this.#writes++;
          writeSync(this.#fd, text);
          return;
        }
      }
      this.#batch ??= Buffer.allocUnsafe(RESULT_SPILL_BATCH_BYTES);
      this.#batched += this.#batch.write(text, this.#batched);
      if (this.#batched > this.#peakBatched) this.#peakBatched = this.#batched;
    } catch (e) {
      this.#error = (e as Error).message;
      this.#drop();
    }
  }

  /** Writes what is batched (every byte: writeSync may write less than asked). */
  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined || this.#fd === undefined) return;
    let at = 0;
    while (at < this.#batched) {
      this.#writes++;
      at += writeSync(this.#fd, batch, at, this.#batched - at);
    }
    this.#batched = 0;
  }

  #drop(): void {
    this.#batch = undefined;
    this.#batched = 0;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    rmSync(this.#tmp, { force: true });
  }

  /**
   * Ends the text: the file is closed and named `<toolUseId>.txt` (never over an existing one).
   *
   * @returns The text or its preview, and where the whole text is.
   */
  async finish(): Promise<ResultSpillOutcome> {
    this.#finished = true;
    const totalChars = this.#total;
    if (this.#head === undefined) {
      const content = this.#held.join('');
      this.#held = [];
      return { content, totalChars };
    }
    const header = `Output too large: ${formatCount(totalChars)} characters, over this tool's limit of ${formatCount(this.#o.maxChars)} characters.`;
    if (this.#refused !== undefined) {
      return {
        content:
          `${this.#head}\n[${header} It was not saved to a file: ${this.#refused}. ` +
          `Only the first ${formatCount(this.#head.length)} characters are shown; narrow the call (a more specific pattern or path, ` +
          'or one that leaves that file out) to see the rest.]',
        totalChars,
        notSavedReason: this.#refused,
      };
    }
    const fd = this.#fd;
    if (fd !== undefined && this.#error === undefined) {
      try {
        this.#flush();
        if (this.#o.sync) fsyncSync(fd);
        const path = await linkIntoPlace(this.#tmp, { dir: this.#dir, stem: fileStem(this.#o.toolUseId) });
        rmSync(this.#tmp, { force: true });
        // The file as this handle wrote it, named and its temp name gone: what the session records.
        const persistedStats = savedFileStats(fstatSync(fd));
        const note = this.#folder.note();
        return {
          content: buildPreview(this.#head, {
            path,
            header: note === '' ? header : `${header} ${note}`,
            previewChars: this.#previewChars,
            totalChars,
            readers: this.#o.readers,
          }),
          totalChars,
          persistedPath: path,
          persistedStats,
        };
      } catch (e) {
        this.#error = (e as Error).message;
      } finally {
        this.#drop();
      }
    }
    const persistError =
      `could not write the ${formatCount(totalChars)}-character output to '${this.#dir}': ${this.#error}. ` +
      `Make the state directory '${this.#o.stateDir}' writable, or choose another stateDir.`;
    return {
      content: `${this.#head}\n[${header} It could not be saved (${persistError}); only the first ${formatCount(this.#head.length)} characters are shown.]`,
      totalChars,
      persistError,
    };
  }
}
