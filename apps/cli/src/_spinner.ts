// A tiny spinner of our own rather than a library (yocto-spinner, ora): the CLI must pause it
// while a prompt waits for an answer and keep it off a line that other output is still writing,
// and it decides itself when a terminal may show one (both streams terminals, NO_COLOR unset,
// TERM not dumb). yocto-spinner also installs SIGINT and SIGTERM handlers that exit the
// process, where the CLI's first Ctrl-C cancels the running calls and still closes the session.
import type { CliSpinner, TextSink } from './cli_io.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Back to the start of the line and erase it. */
const CLEAR = '\r\u001b[K';

/** A terminal stream: a sink that may know its width. */
export interface TerminalStream extends TextSink {
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@linkcode terminalSpinner}. */
export interface TerminalSpinnerOptions {
  /** The environment: `NO_COLOR` (set and not empty) and `TERM=dumb` turn the spinner off. @default process.env */
  env?: Record<string, string | undefined>;
  /** Milliseconds between frames. @default 80 */
  intervalMs?: number;
  /** Milliseconds a call runs before the spinner shows, so that quick calls do not flicker. @default 120 */
  delayMs?: number;
}

/**
 * The spinner of a terminal, with the streams the CLI writes through so that output and spinner
 * never share a line: every write clears the spinner first, and the spinner draws only where a
 * line has ended (never over a half-written line or a prompt). Returns no spinner, and the
 * streams unchanged, unless stdout and stderr are both terminals, `NO_COLOR` is unset or empty
 * and `TERM` is not `dumb`.
 *
 * @param streams The process's `stdout` and `stderr`.
 * @param options The environment and the timings.
 * @returns The streams to write through and the spinner, if any.
 *
 * @example
 * ```ts
 * import { terminalSpinner } from './_spinner.ts';
 *
 * const { stdout, stderr, spinner } = terminalSpinner({ stdout: process.stdout, stderr: process.stderr });
 * spinner?.start('Bash npm test');
 * stderr.write('toolshed: Bash: step 1\n'); // the spinner line is cleared first, and drawn again after
 * spinner?.stop();
 * stdout.write('done\n');
 * ```
 */
export function terminalSpinner(
  streams: { stdout: TerminalStream; stderr: TerminalStream },
  options: TerminalSpinnerOptions = {},
): { stdout: TextSink; stderr: TextSink; spinner: CliSpinner | undefined } {
  const env = options.env ?? process.env;
  const enabled =
    streams.stdout.isTTY === true &&
    streams.stderr.isTTY === true &&
    (env['NO_COLOR'] ?? '') === '' &&
    env['TERM'] !== 'dumb';
  if (!enabled) return { ...streams, spinner: undefined };
  const state = new SpinnerState(streams.stderr, options.intervalMs ?? 80, options.delayMs ?? 120);
  const through = (stream: TerminalStream): TextSink => ({ write: (chunk: string) => state.write(stream, chunk) });
  return { stdout: through(streams.stdout), stderr: through(streams.stderr), spinner: state };
}

class SpinnerState implements CliSpinner {
  #text = '';
  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  /** The spinner line is on the screen. */
  #shown = false;
  /** The last thing written ended a line, so the spinner may take the next one. */
  #atLineStart = true;
  #paused = 0;

  constructor(
    readonly stderr: TerminalStream,
    readonly intervalMs: number,
    readonly delayMs: number,
  ) {}

  start(text: string): void {
    this.#text = text;
    if (this.#timer) return;
    this.#startedAt = Date.now();
    this.#frame = 0;
    const tick = () => {
      this.#draw();
      this.#timer = setTimeout(tick, this.intervalMs);
      this.#timer.unref();
    };
    this.#timer = setTimeout(tick, this.delayMs);
    // A spinner never keeps the process alive.
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  async pause<T>(work: () => Promise<T>): Promise<T> {
    this.#paused++;
    this.#clear();
    try {
      return await work();
    } finally {
      this.#paused--;
      // A prompt's answer ended with Enter, so the cursor is at the start of a line again; the
      // seconds shown count from here, as the time spent answering was not the call's.
      this.#atLineStart = true;
      if (this.#paused === 0) this.#startedAt = Date.now();
    }
  }

  write(stream: TerminalStream, chunk: string): unknown {
    this.#clear();
    if (chunk !== '') this.#atLineStart = chunk.endsWith('\n');
    return stream.write(chunk);
  }

  #draw(): void {
    if (this.#paused > 0 || !this.#atLineStart) return;
    const seconds = Math.floor((Date.now() - this.#startedAt) / 1000);
    const frame = FRAMES[this.#frame++ % FRAMES.length]!;
    let line = `${frame} ${this.#text}${seconds >= 1 ? ` (${seconds}s)` : ''}`;
    // A line wider than the terminal would wrap, and "\r" would then erase only its last row.
    // A terminal that does not say its size (0 columns) gets the usual 80.
    const width = (this.stderr.columns || 80) - 1;
    if (line.length > width) line = `${line.slice(0, Math.max(0, width - 1))}…`;
    this.stderr.write(`${CLEAR}${line}`);
    this.#shown = true;
  }

  #clear(): void {
    if (!this.#shown) return;
    this.#shown = false;
    this.stderr.write(CLEAR);
  }
}
