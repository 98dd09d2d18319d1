import { sep } from 'node:path';

/** A `.` or `..` segment. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * Whether a path is already what `path.resolve` would make of it: absolute, with no `.`, `..`
 * or empty segment and no trailing separator. Matching many paths as strings is only sound on
 * such paths; checking is far cheaper than resolving each one.
 *
 * @param path A path.
 * @returns True when `resolve(path) === path`.
 *
 * @example
 * ```ts
 * import { isNormalAbsolute } from './_is_normal_absolute.ts';
 *
 * isNormalAbsolute('/p/src/a.ts');    // true
 * isNormalAbsolute('/p/src/../.env'); // false
 * ```
 */
export function isNormalAbsolute(path: string): boolean {
  if (sep !== '/' || !path.startsWith('/')) return false;
  if (path === '/') return true;
  // `includes` first: most paths have no `/.` at all, and a dot file's is rarely a dot segment.
  return !path.endsWith('/') && !path.includes('//') && !(path.includes('/.') && DOT_SEGMENT.test(path));
}
