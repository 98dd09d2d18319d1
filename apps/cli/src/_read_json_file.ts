import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '@toolshed/core/internal';
import { parseJson } from './_parse_json.ts';
import { UsageError } from './usage_error.ts';

/**
 * Reads and parses a JSON file named by a flag. Every failure is a {@linkcode UsageError} that
 * names the flag, the file (as given and resolved) and, for bad JSON, the line and column.
 *
 * @param file The path as given on the command line.
 * @param options The `flag` that named it (such as `--settings`), and what a relative path
 *   resolves against (`baseDir`).
 * @returns The parsed value and the absolute path.
 * @throws {UsageError} When the file is missing, unreadable or not JSON.
 */
export async function readJsonFile(
  file: string,
  { flag, baseDir }: { flag: string; baseDir: string },
): Promise<{ value: unknown; path: string }> {
  const resolved = path.resolve(baseDir, file);
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a directory, not a file'
          : `could not be read (${describeError(e)})`;
    throw new UsageError(
      `The ${flag} file "${file}" ${why} (resolved to ${resolved}). Check the path given to ${flag}.`,
      { showUsage: false },
    );
  }
  // Editors on Windows save a byte order mark that JSON.parse rejects.
  const parsed = parseJson(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    throw new UsageError(
      `The ${flag} file "${file}" is not valid JSON: ${parsed.message} at line ${parsed.line}, column ${parsed.column}. Fix the JSON there (a common cause is a trailing comma or a missing quote).`,
      { showUsage: false },
    );
  }
  return { value: parsed.value, path: resolved };
}
