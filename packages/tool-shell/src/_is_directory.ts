import { statSync } from 'node:fs';
import path from 'node:path';
import type { ShellWord } from './bash_parser.ts';

/**
 * Whether a command's word names a folder, so that what it writes there may be anything below
 * it (`cp a b DIR`, a git pathspec `.`): an existing folder, or a word not known before the
 * command runs (which may be one).
 *
 * @param word The word.
 * @param dir The folder the command resolves it in.
 * @returns True for a folder or an unknown word.
 *
 * @example
 * ```ts
 * import { isDirectory } from './_is_directory.ts';
 *
 * isDirectory({ text: '.', value: '.', literal: true }, '/p'); // true
 * ```
 */
export function isDirectory(word: ShellWord, dir: string | undefined): boolean {
  if (!word.literal) return true;
  try {
    return statSync(path.resolve(dir ?? '/', word.value)).isDirectory();
  } catch {
    return false;
  }
}
