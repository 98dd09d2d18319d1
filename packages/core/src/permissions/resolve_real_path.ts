import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { ToolshedError } from '../errors.ts';

/** The error code of a path that cannot be resolved (circular or too many symlinks). */
export const PATH_UNRESOLVABLE = 'path_unresolvable' as const;

/** As many symlinks as Linux follows for one path before ELOOP. */
const MAX_SYMLINKS = 40;

/** Options of {@linkcode resolveRealPath}. */
export interface ResolveRealPathOptions {
  /** What a relative path resolves against; it is resolved through symlinks too. */
  cwd: string;
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /** Told every path looked at (before its `lstat`), for a cache that must know what to watch. */
  onLookup?: ((path: string) => void) | undefined;
}

/**
 * Resolves a path the way the kernel would when a tool opens it: `~` expanded, relative paths
 * against `cwd`, then one component at a time, following every symlink (a `..` after a symlink
 * goes up from the link's target, as `open(2)` does). A path that does not exist yet resolves
 * through its nearest existing parent, so a new file in a symlinked directory is judged by where
 * it would really be written; a dangling symlink is followed to where its target would be created.
 *
 * Synchronous on purpose: a handful of `lstat` calls per path, and the permission layer needs it
 * in places that are not async.
 *
 * @param path The path as a tool declared it.
 * @param options `cwd` and `homeDir`.
 * @returns The absolute physical path.
 * @throws {ToolshedError} With code `path_unresolvable` when symlinks loop (or more than 40 are
 *   followed), or when the path is too long for the file system to look at (ENAMETOOLONG),
 *   so that the guard fails closed: the message names the path. It never hangs.
 *
 * @example
 * ```ts
 * import { resolveRealPath } from '@toolshed/core/internal';
 *
 * // /p/link -> /etc
 * resolveRealPath('link/passwd', { cwd: '/p' });   // '/etc/passwd'
 * resolveRealPath('link/new.txt', { cwd: '/p' });  // '/etc/new.txt' (does not exist yet)
 * ```
 */
export function resolveRealPath(path: string, options: ResolveRealPathOptions): string {
  const home = options.homeDir ?? homedir();
  let abs: string;
  if (path === '~') abs = home;
  else if (path.startsWith('~/')) abs = `${home}/${path.slice(2)}`;
  else if (isAbsolute(path)) abs = path;
  else abs = `${isAbsolute(options.cwd) ? options.cwd : resolve(options.cwd)}/${path}`;

  const pending = split(abs);
  const resolved: string[] = [];
  // How many of the last segments of `resolved` do not exist: below them nothing can be a link.
  let missing = 0;
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === '..') {
      resolved.pop();
      if (missing > 0) missing--;
      continue;
    }
    const candidate = `/${[...resolved, segment].join('/')}`;
    if (missing > 0) {
      resolved.push(segment);
      missing++;
      continue;
    }
    let isLink = false;
    options.onLookup?.(candidate);
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch (e) {
      // Too long to look at is too long to vouch for: a link could hide below it (fail closed).
      if ((e as NodeJS.ErrnoException).code === 'ENAMETOOLONG') {
        throw new ToolshedError(
          PATH_UNRESOLVABLE,
          `The path "${path.length > 200 ? `${path.slice(0, 200)}…` : path}" cannot be resolved: it is too long for the file system (ENAMETOOLONG at ${candidate.length} characters); use a shorter path`,
        );
      }
      // ENOENT, ENOTDIR, EACCES: nothing to follow here; the rest is taken as written.
      resolved.push(segment);
      missing = 1;
      continue;
    }
    if (!isLink) {
      resolved.push(segment);
      continue;
    }
    if (++hops > MAX_SYMLINKS) {
      throw new ToolshedError(
        PATH_UNRESOLVABLE,
        `The path "${path}" cannot be resolved: its symlinks loop (more than ${MAX_SYMLINKS} followed, at "${candidate}"); remove the circular link or use another path`,
      );
    }
    let target: string;
    try {
      target = readlinkSync(candidate);
    } catch {
      resolved.push(segment);
      continue;
    }
    if (isAbsolute(target) && candidate.startsWith('/proc/')) assertProcLinkNamesTarget(candidate, target, path);
    if (isAbsolute(target)) resolved.length = 0;
    pending.unshift(...split(target));
  }
  return `/${resolved.join('/')}`;
}

/**
 * A /proc link (`/proc/<pid>/fd/N`, `cwd`, `root`, `exe`, `map_files/…`) is followed by the kernel
 * to the object itself, whatever its text says; the text names that object only while it is
 * still there and in this mount namespace. For a deleted file it reads `/p/.env (deleted)`, for
 * another namespace's root `/`: a name no rule covers for a file a rule denies. Followed as text
 * only when the text leads to the same object (device and inode); otherwise unresolvable.
 */
function assertProcLinkNamesTarget(candidate: string, target: string, path: string): void {
  let door: Stats | undefined;
  let named: Stats | undefined;
  try {
    door = statSync(candidate);
    named = statSync(target);
  } catch {
    // One of them cannot be looked at: what the link opens is not known.
  }
  if (door !== undefined && named !== undefined && door.dev === named.dev && door.ino === named.ino) return;
  throw new ToolshedError(
    PATH_UNRESOLVABLE,
    `The path "${path}" cannot be resolved: "${candidate}" is a /proc link whose text "${target}" is not what it opens (a deleted file, or one seen from another mount namespace); name the file by its own path instead`,
  );
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '' && s !== '.');
}
