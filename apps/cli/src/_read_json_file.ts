import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeError, notReadMessage, readShortRegularFile } from '@toolshed/core/internal';
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
  { flag, baseDir, inProject = false }: { flag: string; baseDir: string; inProject?: boolean },
): Promise<{ value: unknown; path: string }> {
  const resolved = path.resolve(baseDir, file);
  let text: string;
  try {
    // A path the user typed may be a pipe (<(…)); one found in a project is read only as a regular file.
    text = inProject ? await readRegularFile(resolved) : await readFile(resolved, 'utf8');
  } catch (e) {
    if (e instanceof NotReadable) {
      throw new UsageError(
        `The ${flag} file "${file}" ${e.message} (resolved to ${resolved}). Check the path given to ${flag}.`,
        {
          showUsage: false,
        },
      );
    }
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

/** Larger than any configuration: a file past it is refused, not read. */
const MAX_BYTES = 1024 * 1024;

/** Why a path that exists is not read. */
class NotReadable extends Error {}

/**
 * Reads a regular file of at most 1 MB. A FIFO, a device or a socket (a repository's `.mcp.json`
 * can link to `/dev/zero` or a pipe) is refused without reading: opening it does not wait for a
 * writer, and nothing is read from it.
 */
async function readRegularFile(file: string): Promise<string> {
  const read = await readShortRegularFile(file, { maxBytes: MAX_BYTES });
  if ('text' in read) return read.text;
  throw new NotReadable(
    notReadMessage(read.notRead, { maxBytes: MAX_BYTES, tooBig: 'too large for a configuration file' }),
  );
}
