import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Resolves a path as the kernel does: `..` goes to the parent of where the path so far really
 * is, after its links, not to the parent of its last name (`l/../x` with `l -> .claude/agents`
 * is `.claude/x`, where `path.resolve` says `./x`). Paths without `..` resolve as `path.resolve`
 * does; a part that does not exist is taken as written.
 *
 * @param base The folder a relative path starts from.
 * @param value The path.
 * @returns The absolute path the kernel would open.
 *
 * @example
 * ```ts
 * import { resolveLikeKernel } from './_kernel_path.ts';
 *
 * resolveLikeKernel('/p', 'src/../a.ts'); // '/p/a.ts' (when /p/src is no link)
 * ```
 */
export function resolveLikeKernel(base: string, value: string): string {
  const parts = value.split('/');
  if (!parts.includes('..')) return path.resolve(base, value);
  let current = value.startsWith('/') ? '/' : path.resolve(base);
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part !== '..') {
      current = path.join(current, part);
      continue;
    }
    let real = current;
    try {
      real = realpathSync.native(current);
    } catch {
      // Not there: nothing to follow.
    }
    current = path.dirname(real);
  }
  return current;
}
