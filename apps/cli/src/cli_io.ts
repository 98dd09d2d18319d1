import type { AnyTool } from '@toolshed/core';

/** Where the CLI writes text: `process.stdout`, or a collector in tests. */
export interface TextSink {
  write(chunk: string): unknown;
}

/**
 * The CLI's connection to the world, so that tests run it in-process with fake streams.
 *
 * @example
 * ```ts
 * import type { CliIo } from '@toolshed/cli';
 *
 * const io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, isTTY: Boolean(process.stdin.isTTY) };
 * ```
 */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  /** Read for `-` arguments and for permission prompts. */
  stdin: NodeJS.ReadableStream;
  /** A person is at the terminal: ask permission prompts on stderr instead of denying. */
  isTTY: boolean;
  /** Aborts running tool calls (Ctrl-C); they end as cancelled results and the session still closes. */
  signal?: AbortSignal;
  /**
   * Takes Ctrl-C over while the listener is registered (chat: abort the turn, then exit),
   * instead of aborting `signal`. Returns the function that unregisters it.
   */
  onInterrupt?: (listener: () => void) => () => void;
  /**
   * The terminal's spinner, shown on stderr while calls run; the entry point gives one only
   * when stdout and stderr are terminals, `NO_COLOR` is unset and `TERM` is not `dumb` (then
   * `stdout` and `stderr` are written through it, so that output never shares its line).
   * Prompts pause it. @default no spinner
   */
  spinner?: CliSpinner;
  /** Reads `TOOLSHED_DEBUG`. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Test hook: ad-hoc tools added to the pool (the session's `tools` option, family `custom`),
   * so tests can drive the CLI before the family packages have tools.
   */
  extraTools?: readonly AnyTool[];
}

/**
 * A spinner on the terminal while calls run (see {@linkcode CliIo.spinner}).
 *
 * @example
 * ```ts
 * import type { CliSpinner } from '@toolshed/cli';
 * declare const spinner: CliSpinner;
 * declare function ask(): Promise<string>;
 *
 * spinner.start('Bash npm test');
 * const answer = await spinner.pause(() => ask()); // no frame is drawn over the question
 * spinner.stop();
 * ```
 */
export interface CliSpinner {
  /** Starts spinning with this text (shown after a short delay), or changes the text of a running spinner. */
  start(text: string): void;
  /** Stops and erases the spinner line. */
  stop(): void;
  /** Erases the spinner and draws none until `work` settles (a prompt waiting for its answer). */
  pause<T>(work: () => Promise<T>): Promise<T>;
}
