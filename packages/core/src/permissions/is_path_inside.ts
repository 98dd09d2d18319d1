import { isAbsolute, relative, sep } from 'node:path';

/**
 * Whether `path` is `dir` itself or lies below it. Both must be absolute and normalized (see
 * {@linkcode resolvePath}). Compares path segments, not strings: `/home/u/proj-evil` is not
 * inside `/home/u/proj`.
 *
 * @param path An absolute, normalized path.
 * @param dir An absolute, normalized directory.
 * @returns True when `path` is `dir` or below it.
 *
 * @example
 * ```ts
 * import { isPathInside } from '@toolshed/core/internal';
 *
 * isPathInside('/home/u/proj/src/a.ts', '/home/u/proj'); // true
 * isPathInside('/home/u/proj-evil/a.ts', '/home/u/proj'); // false
 * ```
 */
export function isPathInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  if (rel === '') return true;
  if (isAbsolute(rel)) return false; // another drive on Windows
  // `..foo` is a child named "..foo"; only `..` as a whole segment leaves `dir`.
  return rel !== '..' && !rel.startsWith(`..${sep}`);
}
