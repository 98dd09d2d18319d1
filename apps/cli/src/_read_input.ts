import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '@toolshed/core/internal';
import type { CliIo } from './cli_io.ts';
import { parseJson } from './_parse_json.ts';
import { UsageError } from './usage_error.ts';

/**
 * Reads all of stdin as UTF-8 text.
 *
 * @param io The CLI's streams.
 * @returns The text.
 */
export async function readStdin(io: Pick<CliIo, 'stdin'>): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Reads a command's `<json|->` argument as a tool input: the argument itself, or stdin for `-`.
 *
 * @param value The argument as given.
 * @param options Which argument it is, for messages (the `command` and its 1-based
 *   `position`), and the CLI's streams (`io`).
 * @returns The input object.
 * @throws {UsageError} When the text is not JSON (naming the argument, line and column) or not an object.
 */
export async function readJsonInput(
  value: string,
  { io, ...where }: { command: string; position: number; io: Pick<CliIo, 'stdin'> },
): Promise<Record<string, unknown>> {
  const fromStdin = value === '-';
  const text = fromStdin ? await readStdin(io) : value;
  const what = fromStdin
    ? `The input read from stdin (argument ${where.position} of "toolshed ${where.command}" is -)`
    : `The input (argument ${where.position} of "toolshed ${where.command}")`;
  if (text.trim() === '') {
    throw new UsageError(
      `${what} is empty. Give a JSON object such as '{"file_path": "README.md"}', or - to read it from stdin.`,
      { command: where.command },
    );
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    throw new UsageError(
      `${what} is not valid JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}. Quote it as one shell argument, for example '{"text": "hi"}'.`,
      { command: where.command },
    );
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    const got = Array.isArray(parsed.value) ? 'a list' : parsed.value === null ? 'null' : `a ${typeof parsed.value}`;
    throw new UsageError(`${what} is ${got}; a tool input is a JSON object such as '{"file_path": "README.md"}'.`, {
      command: where.command,
    });
  }
  return parsed.value as Record<string, unknown>;
}

/**
 * Reads a command's `<file|->` argument as JSON: the file, or stdin for `-`.
 *
 * @param value The argument as given.
 * @param options The `command` (for messages and usage), the CLI's streams (`io`), and what a
 *   relative path resolves against (`baseDir`).
 * @returns The parsed value and a name for messages (`file "x.json"` or `stdin`).
 * @throws {UsageError} When the file cannot be read or the text is not JSON (with line and column).
 */
export async function readJsonSource(
  value: string,
  { command, io, baseDir }: { command: string; io: Pick<CliIo, 'stdin'>; baseDir: string },
): Promise<{ value: unknown; name: string }> {
  let text: string;
  let name: string;
  if (value === '-') {
    text = await readStdin(io);
    name = 'stdin';
  } else {
    const resolved = path.resolve(baseDir, value);
    name = `file "${value}"`;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const why =
        code === 'ENOENT'
          ? 'does not exist'
          : code === 'EISDIR'
            ? 'is a directory'
            : `could not be read (${describeError(e)})`;
      throw new UsageError(
        `The ${name} given to "toolshed ${command}" ${why} (resolved to ${resolved}). Pass a JSON file, or - to read stdin.`,
        { command },
      );
    }
  }
  const parsed = parseJson(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    throw new UsageError(
      `The ${name} given to "toolshed ${command}" is not valid JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}.`,
      { command },
    );
  }
  return { value: parsed.value, name };
}
