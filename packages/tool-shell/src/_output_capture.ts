import {
  closeSync,
  constants,
  createWriteStream,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import path from 'node:path';
import {
  LineFolder,
  readMoreHint,
  type SavedFileStats,
  savedOutputReaders,
  savedFileStats,
  type SavedOutputReaders,
} from '@toolshed/core';

// Of a line not finished yet, this much of its start is kept for the denied-quote check: the
// check looks at what comes before a line's first `:` and at whole lines up to 1 024 characters.
const GUARD_CARRY_CHARS = 4_096;

/**
 * The most a spill file holds; past it, output is counted but no longer saved.
 *
 * @example
 * ```ts
 * import { MAX_SPILL_BYTES } from './_output_capture.ts';
 *
 * MAX_SPILL_BYTES / 2 ** 20; // 256 (MiB)
 * ```
 */
export const MAX_SPILL_BYTES = 256 * 1024 * 1024;

/** What {@linkcode OutputCapture.finish} gives back. */
export interface CapturedOutput {
  /** The output, or its head and tail with a note in the middle when it is over the cap. */
  text: string;
  /** Characters of the whole output. */
  totalChars: number;
  truncated: boolean;
  /** Where the whole output was saved, when it was over the cap. */
  fullOutputPath: string | undefined;
  /** That file as written (fstat of the handle that wrote it), for the session's record. */
  fullOutputStats?: SavedFileStats;
  /** Why the whole output was not saved (from `refuseToSave`): only the head and tail remain. */
  notSavedReason?: string;
  /** Set when even the saved file had to stop (over {@linkcode MAX_SPILL_BYTES}). */
  spillTruncated: boolean;
}

/** Options of {@linkcode OutputCapture}. */
export interface OutputCaptureOptions {
  /** Where the whole output goes once it is over the cap; without one, the middle is dropped. */
  spillPath?: string | undefined;
  /**
   * Says why the whole output must not be saved (core's `deniedQuoteGuard`: it quotes a file a
   * deny rule guards), or undefined to save it; asked about whole lines as they come. A refused
   * output keeps only its head and tail, and the note says why.
   */
  refuseToSave?: ((text: string) => string | undefined) | undefined;
  /** The tools the session has to read the saved file with; the note names only these. @default Read and Grep */
  readers?: SavedOutputReaders | undefined;
}

/**
 * Collects a command's output as it comes: decodes UTF-8 leniently (a bad byte becomes U+FFFD,
 * never an exception), keeps everything in memory up to the cap, and past it keeps only the
 * head and the tail in memory while the whole goes to a file, so a huge output costs bounded
 * memory and nothing is lost. Lines longer than Read shows are folded in the file (see
 * `LineFolder`), and an output that quotes a file a deny rule guards is not saved.
 *
 * @example
 * ```ts
 * import { OutputCapture } from './_output_capture.ts';
 *
 * const capture = new OutputCapture(30_000, { spillPath: '/tmp/state/tool-results/bash-t1.txt' });
 * capture.push(Buffer.from('hello\n'));
 * (await capture.finish()).text; // 'hello\n'
 * ```
 */
export class OutputCapture {
  #decoder = new TextDecoder('utf-8', { fatal: false });
  #whole = '';
  #head = '';
  #tail = '';
  #total = 0;
  #spill: WriteStream | undefined;
  #spillBytes = 0;
  #spillTruncated = false;
  #spillError: Error | undefined;
  #spillFd: number | undefined;
  #refused: string | undefined;
  #ended: Promise<void> | undefined;
  /** The start of the line not finished yet, for the denied-quote check. */
  #carry = '';
  readonly #folder = new LineFolder();
  readonly #half: number;
  readonly #o: OutputCaptureOptions;

  /**
   * @param maxChars The cap of the returned text.
   * @param options Where the whole output goes, what refuses to save it, and the session's readers.
   */
  constructor(
    readonly maxChars: number,
    options: OutputCaptureOptions = {},
  ) {
    this.#half = Math.floor(maxChars / 2);
    this.#o = options;
  }

  /** Where the whole output goes once it is over the cap. */
  get spillPath(): string | undefined {
    return this.#o.spillPath;
  }

  /** Characters seen so far. */
  get totalChars(): number {
    return this.#total;
  }

  /**
   * Adds a chunk of raw output.
   *
   * @param chunk Bytes from the process.
   * @returns The decoded text of the chunk.
   */
  push(chunk: Uint8Array): string {
    const text = this.#decoder.decode(chunk, { stream: true });
    this.#add(text);
    return text;
  }

  #add(text: string): void {
    if (text === '') return;
    this.#total += text.length;
    if (this.#spill === undefined && this.#head === '') {
      this.#whole += text;
      if (this.#whole.length <= this.maxChars) return;
      // Over the cap: from now on only the head and the tail stay in memory.
      this.#head = this.#whole.slice(0, this.#half);
      this.#tail = this.#whole.slice(-this.#half);
      this.#openSpill(this.#whole);
      this.#whole = '';
      return;
    }
    this.#tail = (this.#tail + text).slice(-this.#half);
    this.#write(text);
  }

  #openSpill(initial: string): void {
    if (!this.spillPath) return;
    try {
      // Only the user may read what a command printed: 0600 in a 0700 folder, created anew
      // (never through a symlink or into a file someone left there).
      mkdirSync(path.dirname(this.spillPath), { recursive: true, mode: 0o700 });
      const fd = openSync(
        this.spillPath,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      this.#spillFd = fd;
      // The handle stays open past the last write: what the session records is its fstat.
      this.#spill = createWriteStream('', { fd, autoClose: false });
      this.#spill.on('error', (e) => {
        this.#spillError = e;
      });
      this.#write(initial);
    } catch (e) {
      this.#spillError = e as Error;
    }
  }

  #write(text: string): void {
    if (!this.#spill || this.#spillTruncated || this.#refused !== undefined) return;
    const refusal = this.#refusal(text);
    if (refusal !== undefined) {
      this.#refused = refusal;
      // What is already written quotes a guarded file: emptied as soon as the writes in flight end.
      void this.#endSpill().then(() => this.#empty());
      return;
    }
    text = this.#folder.fold(text);
    const bytes = Buffer.byteLength(text);
    if (this.#spillBytes + bytes > MAX_SPILL_BYTES) {
      this.#spillTruncated = true;
      this.#spill.write(`\n[Output beyond ${MAX_SPILL_BYTES} bytes was not saved.]\n`);
      return;
    }
    this.#spillBytes += bytes;
    this.#spill.write(text);
  }

  /** Asks `refuseToSave` about the lines `text` finishes (keeping the start of an unfinished one). */
  #refusal(text: string): string | undefined {
    const refuse = this.#o.refuseToSave;
    if (refuse === undefined) return undefined;
    const all = this.#carry + text;
    const nl = all.lastIndexOf('\n');
    if (nl === -1) {
      this.#carry = all.length > GUARD_CARRY_CHARS ? all.slice(0, GUARD_CARRY_CHARS) : all;
      return undefined;
    }
    this.#carry = all.slice(nl + 1, nl + 1 + GUARD_CARRY_CHARS);
    return refuse(all.slice(0, nl));
  }

  /**
   * The last lines seen, for a live tail.
   *
   * @param lines How many lines.
   * @returns Up to that many lines, each cut to 200 characters.
   */
  lastLines(lines = 5): string[] {
    const recent = (this.#head === '' ? this.#whole : this.#tail).slice(-4000);
    return recent
      .replace(/\r(?!\n)/g, '\n')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(-lines)
      .map((l) => (l.length > 200 ? `${l.slice(0, 197)}...` : l));
  }

  /**
   * Ends the capture: flushes the decoder and the spill file.
   *
   * @returns The text to show and where the whole output is.
   */
  async finish(): Promise<CapturedOutput> {
    this.#add(this.#decoder.decode());
    if (this.#head === '') {
      return {
        text: this.#whole,
        totalChars: this.#total,
        truncated: false,
        fullOutputPath: undefined,
        spillTruncated: false,
      };
    }
    if (this.#spill && this.#refused === undefined && this.#carry !== '') {
      this.#refused = this.#o.refuseToSave?.(this.#carry);
    }
    const { saved, stats } = await this.#closeSpill();
    const elided = this.#total - this.#head.length - this.#tail.length;
    const note = `\n\n[... ${elided} characters elided from the middle; ${this.#where(saved)} ...]\n\n`;
    const out: CapturedOutput = {
      text: `${this.#head}${note}${this.#tail}`,
      totalChars: this.#total,
      truncated: true,
      fullOutputPath: saved,
      spillTruncated: this.#spillTruncated,
    };
    if (stats) out.fullOutputStats = stats;
    if (this.#refused !== undefined) out.notSavedReason = this.#refused;
    return out;
  }

  /** Ends the spill file: its stats from the handle that wrote it, or, when refused, nothing left of it. */
  async #closeSpill(): Promise<{ saved: string | undefined; stats: SavedFileStats | undefined }> {
    const spill = this.#spill;
    const fd = this.#spillFd;
    if (!spill || fd === undefined) return { saved: undefined, stats: undefined };
    await this.#endSpill();
    try {
      if (this.#refused !== undefined) {
        // What was written quotes a guarded file: nothing of it stays on disk.
        this.#empty();
        rmSync(this.spillPath!, { force: true });
        return { saved: undefined, stats: undefined };
      }
      if (this.#spillError) return { saved: undefined, stats: undefined };
      return { saved: this.spillPath, stats: savedFileStats(fstatSync(fd)) };
    } catch (e) {
      this.#spillError ??= e as Error;
      return { saved: undefined, stats: undefined };
    } finally {
      // Forgotten first: a number the system hands out again must never be truncated.
      this.#spillFd = undefined;
      closeSync(fd);
    }
  }

  /** Ends the spill stream once (its handle stays open: see {@linkcode OutputCapture.finish}). */
  #endSpill(): Promise<void> {
    const spill = this.#spill;
    if (!spill) return Promise.resolve();
    this.#ended ??= new Promise<void>((resolve) => spill.end(resolve));
    return this.#ended;
  }

  /** Cuts the spill file to nothing, through the handle that wrote it. */
  #empty(): void {
    if (this.#spillFd === undefined) return;
    try {
      ftruncateSync(this.#spillFd, 0);
    } catch {
      // Closed already, or the file system refuses: finish() removes the file.
    }
  }

  /** The note's account of where the whole output is. */
  #where(saved: string | undefined): string {
    if (this.#refused !== undefined)
      return (
        `the whole output was not saved to a file: ${this.#refused}. Only the start and the end are shown; ` +
        'narrow the command (a more specific pattern or path, or one that leaves that file out) to see the rest'
      );
    if (saved === undefined)
      return `the whole output could not be saved${this.#spillError ? ` (${this.#spillError.message})` : ''}`;
    const fold = this.#folder.note();
    const readers = this.#o.readers ?? savedOutputReaders(undefined);
    const hint = readMoreHint(saved, readers);
    return `the whole output (${this.#total} characters) is saved in ${saved}; ${hint[0]!.toLowerCase()}${hint.slice(1)}${fold === '' ? '' : ` ${fold}`}`;
  }
}
