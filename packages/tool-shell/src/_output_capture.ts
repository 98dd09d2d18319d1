import { constants, createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import path from 'node:path';

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
  /** Set when even the saved file had to stop (over {@linkcode MAX_SPILL_BYTES}). */
  spillTruncated: boolean;
}

/**
 * Collects a command's output as it comes: decodes UTF-8 leniently (a bad byte becomes U+FFFD,
 * never an exception), keeps everything in memory up to the cap, and past it keeps only the
 * head and the tail in memory while the whole goes to a file, so a huge output costs bounded
 * memory and nothing is lost.
 *
 * @example
 * ```ts
 * import { OutputCapture } from './_output_capture.ts';
 *
 * const capture = new OutputCapture(30_000, '/tmp/state/tool-results/bash-t1.txt');
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
  readonly #half: number;

  /**
   * @param maxChars The cap of the returned text.
   * @param spillPath Where the whole output goes once it is over the cap; without one, the
   *   middle is dropped.
   */
  constructor(
    readonly maxChars: number,
    readonly spillPath: string | undefined,
  ) {
    this.#half = Math.floor(maxChars / 2);
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
      this.#spill = createWriteStream('', { fd });
      this.#spill.on('error', (e) => {
        this.#spillError = e;
      });
      this.#write(initial);
    } catch (e) {
      this.#spillError = e as Error;
    }
  }

  #write(text: string): void {
    if (!this.#spill || this.#spillTruncated) return;
    const bytes = Buffer.byteLength(text);
    if (this.#spillBytes + bytes > MAX_SPILL_BYTES) {
      this.#spillTruncated = true;
      this.#spill.write(`\n[Output beyond ${MAX_SPILL_BYTES} bytes was not saved.]\n`);
      return;
    }
    this.#spillBytes += bytes;
    this.#spill.write(text);
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
    const spill = this.#spill;
    if (spill) await new Promise<void>((resolve) => spill.end(resolve));
    const saved = spill && !this.#spillError ? this.spillPath : undefined;
    const elided = this.#total - this.#head.length - this.#tail.length;
    const where = saved
      ? `the whole output (${this.#total} characters) is saved in ${saved}; read it with Read (offset and limit) or search it with Grep`
      : `the whole output could not be saved${this.#spillError ? ` (${this.#spillError.message})` : ''}`;
    const note = `\n\n[... ${elided} characters elided from the middle; ${where} ...]\n\n`;
    return {
      text: `${this.#head}${note}${this.#tail}`,
      totalChars: this.#total,
      truncated: true,
      fullOutputPath: saved,
      spillTruncated: this.#spillTruncated,
    };
  }
}
