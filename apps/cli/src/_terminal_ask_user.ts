import type { AskUser, AskUserResponse } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import type { Prompter } from './_prompter.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  items?: { enum?: unknown[] };
  default?: unknown;
}

/**
 * The CLI's answer to core's `askUser` service in a terminal: it shows who asks and what, then
 * one line per field of the form — a numbered choice for an enum (several numbers, comma
 * separated, for a list), y/n for a boolean, text or a number otherwise. An empty line leaves a
 * field out (the asker applies its default); `q` at any field declines the whole form, and the
 * end of input or an abort cancels it.
 *
 * @param prompter The terminal's line reader.
 * @param io Where the questions are written (stderr).
 * @returns The service.
 *
 * @example
 * ```ts
 * import { askUserKey, createSession } from '@toolshed/core';
 * import type { CliIo } from '@toolshed/cli';
 * import { createPrompter } from './_prompter.ts';
 * import { terminalAskUser } from './_terminal_ask_user.ts';
 * declare const io: CliIo;
 * declare const cwd: string;
 *
 * const askUser = terminalAskUser(createPrompter(io), io);
 * await createSession({ cwd, services: [[askUserKey, askUser]] });
 * ```
 */
export function terminalAskUser(prompter: Prompter, io: Pick<CliIo, 'stderr'>): AskUser {
  return {
    async ask({ source, message, schema, signal }): Promise<AskUserResponse> {
      // Who asks and what come from outside (an MCP server, the model): their escape codes are shown,
      // never run, so they cannot clear the line that names the asker or draw a question of ours.
      io.stderr.write(`\n${escapeUnprintable(source)} asks: ${printableMessage(message)}\n`);
      const properties = Object.entries(
        (schema as { properties?: Record<string, FieldSchema> } | undefined)?.properties ?? {},
      );
      if (properties.length === 0) {
        const answer = await askLine(prompter, '  [y] yes, [n] no: ', signal);
        if (answer === undefined) return { action: 'cancel' };
        return /^\s*y(es)?\s*$/i.test(answer) ? { action: 'accept', content: {} } : { action: 'decline' };
      }
      io.stderr.write('  (Enter leaves a field empty; q declines)\n');
      const content: Record<string, unknown> = {};
      for (const [key, field] of properties) {
        const choices = field.enum ?? field.items?.enum;
        const label = escapeUnprintable(field.title ?? key);
        if (field.description) io.stderr.write(`  ${label}: ${printableMessage(field.description)}\n`);
        if (choices) choices.forEach((c, i) => io.stderr.write(`    ${i + 1}. ${escapeUnprintable(String(c))}\n`));
        const hint = choices
          ? field.type === 'array'
            ? 'numbers, comma separated'
            : 'a number'
          : field.type === 'boolean'
            ? 'y/n'
            : field.type === 'number' || field.type === 'integer'
              ? 'a number'
              : 'text';
        for (;;) {
          const answer = await askLine(prompter, `  ${label} (${hint}): `, signal);
          if (answer === undefined) return { action: 'cancel' };
          const text = answer.trim();
          if (text === 'q') return { action: 'decline' };
          if (text === '') break;
          const value = parseAnswer(text, field, choices);
          if (value !== undefined) {
            content[key] = value;
            break;
          }
          io.stderr.write(
            `  "${text}" is not ${hint}${choices ? ` between 1 and ${choices.length}` : ''}; try again.\n`,
          );
        }
      }
      return { action: 'accept', content };
    },
  };
}

function parseAnswer(text: string, field: FieldSchema, choices: unknown[] | undefined): unknown {
  if (choices) {
    const picks = text.split(',').map((p) => Number.parseInt(p.trim(), 10));
    if (picks.some((n) => !Number.isInteger(n) || n < 1 || n > choices.length)) return undefined;
    const values = picks.map((n) => choices[n - 1]);
    return field.type === 'array' ? values : picks.length === 1 ? values[0] : undefined;
  }
  if (field.type === 'boolean') return /^y(es)?$/i.test(text) ? true : /^no?$/i.test(text) ? false : undefined;
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(text);
    return Number.isFinite(n) && (field.type === 'number' || Number.isInteger(n)) ? n : undefined;
  }
  return text;
}

function askLine(prompter: Prompter, question: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  return Promise.race([
    prompter.ask(question),
    new Promise<undefined>((resolve) => signal?.addEventListener('abort', () => resolve(undefined), { once: true })),
  ]);
}
