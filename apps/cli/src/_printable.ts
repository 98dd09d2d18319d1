/** C0 and C1 controls, DEL, line and paragraph separators, and bidi controls: what can rewrite a terminal line. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A string a repository chose (a server name, a command), quoted for the terminal: JSON quotes,
 * with every control, line-separator and bidi character written as `\uXXXX`, so that an escape
 * code in a cloned project's `.mcp.json` cannot clear or rewrite what a question shows.
 *
 * @param text Any string.
 * @returns It in double quotes, printable.
 *
 * @example
 * ```ts
 * import { quoted } from './_printable.ts';
 *
 * quoted('issues\u001b[2K'); // '"issues\\u001b[2K"'
 * ```
 */
export function quoted(text: string): string {
  return escapeUnprintable(JSON.stringify(text));
}

/**
 * The text with every control, line-separator and bidi character written as `\uXXXX`.
 *
 * @param text Any string.
 * @returns The same text, safe to print on one terminal line.
 *
 * @example
 * ```ts
 * import { escapeUnprintable } from './_printable.ts';
 *
 * escapeUnprintable('https://x.example/\u202e'); // 'https://x.example/\\u202e'
 * ```
 */
export function escapeUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A message for the terminal (a settings error, a session notice) whose parts may come from a
 * cloned project: every control, line-separator and bidi character written as `\uXXXX`, except
 * the newlines and tabs that lay it out.
 *
 * @param text The message.
 * @returns It, safe to print.
 *
 * @example
 * ```ts
 * import { printableMessage } from './_printable.ts';
 *
 * printableMessage('key "model\u001b[1A" is not a settings key\n- next'); // 'key "model\\u001b[1A" is not a settings key\n- next'
 * ```
 */
export function printableMessage(text: string): string {
  return text.replace(UNPRINTABLE, (c) =>
    c === '\n' || c === '\t' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
