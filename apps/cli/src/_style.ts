import { styleText } from 'node:util';
import type { CliIo } from './cli_io.ts';

/** The styles the CLI uses. */
export type CliStyle = 'green' | 'yellow' | 'red' | 'bold' | 'dim' | 'cyan';

/**
 * Colours text for a person at a terminal with Node's `util.styleText`: only when the CLI's
 * stream is a TTY and `NO_COLOR` is unset (or empty); otherwise the text is returned plain, so
 * piped output and logs never hold escape codes.
 *
 * @param text The text.
 * @param options The CLI's streams (`io`: its `isTTY` and `env`) and the `style`.
 * @returns The text, styled or plain.
 *
 * @example
 * ```ts
 * import type { CliIo } from '@toolshed/cli';
 * import { styled } from './_style.ts';
 * declare const io: CliIo;
 *
 * io.stdout.write(`${styled('allow', { io, style: 'green' })}: …\n`);
 * ```
 */
export function styled(text: string, { io, style }: { io: Pick<CliIo, 'isTTY' | 'env'>; style: CliStyle }): string {
  const env = io.env ?? process.env;
  if (!io.isTTY || (env['NO_COLOR'] ?? '') !== '') return text;
  // The CLI decides (stderr may be a terminal while stdout is piped); Node checks only stdout.
  return styleText(style, text, { validateStream: false });
}

/**
 * The level word of a notice line (`toolshed: warn: …`), yellow for `warn` and red for `error`
 * where {@linkcode styled} colours, plain otherwise and for any other level.
 *
 * @param level The level: `warn`, `error`, `info`, ….
 * @param io The CLI's streams (`isTTY` and `env`).
 * @returns The word, styled or plain.
 *
 * @example
 * ```ts
 * import type { CliIo } from '@toolshed/cli';
 * import { levelWord } from './_style.ts';
 * declare const io: CliIo;
 *
 * io.stderr.write(`toolshed: ${levelWord('warn', io)}: the hook failed\n`);
 * ```
 */
export function levelWord(level: string, io: Pick<CliIo, 'isTTY' | 'env'>): string {
  if (level === 'warn') return styled(level, { io, style: 'yellow' });
  if (level === 'error') return styled(level, { io, style: 'red' });
  return level;
}
