/**
 * A mistake in how the CLI was invoked (a bad flag, a missing argument, input JSON that does not
 * parse, a settings file that is wrong): the CLI prints the message, and the command's usage when
 * it helps, and exits 2. Anything else that escapes a command is unexpected and exits 1.
 *
 * @example
 * ```ts
 * import { UsageError } from '@toolshed/cli';
 *
 * throw new UsageError('Unknown flag "--jsno".', { command: 'call' });
 * ```
 */
export class UsageError extends Error {
  /** The command whose usage is shown under the message; undefined shows the overall usage. */
  readonly command: string | undefined;
  /** Whether the usage text helps (a wrong flag) or only adds noise (a settings file with a typo). */
  readonly showUsage: boolean;

  /**
   * @param message What was wrong, with the value, and what to do.
   * @param options `command` whose usage to show; `showUsage` false to print the message alone.
   */
  constructor(message: string, options: { command?: string | undefined; showUsage?: boolean } = {}) {
    super(message);
    this.name = 'UsageError';
    this.command = options.command;
    this.showUsage = options.showUsage ?? true;
  }
}
