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
  /** Reads `TOOLSHED_DEBUG`. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Test hook: ad-hoc tools added to the pool (the session's `tools` option, family `custom`),
   * so tests can drive the CLI before the family packages have tools.
   */
  extraTools?: readonly AnyTool[];
}
