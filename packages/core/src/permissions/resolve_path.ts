import { homedir } from 'node:os';
import { resolve } from 'node:path';

/**
 * Resolves a path the way the permission layer compares paths: `~` and `~/…` against the home
 * directory, anything relative against `cwd`, then normalized (`.` and `..` removed).
 *
 * This is lexical only: symlinks are not followed. The path guard of the permission layer
 * judges paths with {@linkcode resolveRealPath}, which follows them (so a link inside the
 * project that points outside it is judged by its target).
 *
 * @param path The path as given (absolute, relative or `~`-prefixed).
 * @param cwd The directory relative paths are resolved against.
 * @returns An absolute, normalized path.
 *
 * @example
 * ```ts
 * import { resolvePath } from '@toolshed/core/internal';
 *
 * resolvePath('src/../README.md', '/home/u/proj'); // '/home/u/proj/README.md'
 * resolvePath('~/notes.txt', '/anywhere');         // '/home/u/notes.txt'
 * ```
 */
export function resolvePath(path: string, cwd: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}
