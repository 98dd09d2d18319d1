import { readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { deniedPathFilter, type ToolContext } from '@toolshed/core';
import { closestNames, isPathInside, realWorkingDirectories, resolvePath } from '@toolshed/core/internal';

/**
 * Resolves a path a model gave against the session's working directory (`~` against home).
 *
 * @param given The path as given.
 * @param cwd The session's cwd.
 * @returns An absolute, normalized path.
 *
 * @example
 * ```ts
 * import { toAbsolute } from './_paths.ts';
 *
 * toAbsolute('src/a.ts', '/repo'); // '/repo/src/a.ts'
 * ```
 */
export function toAbsolute(given: string, cwd: string): string {
  return resolvePath(given, cwd);
}

/**
 * The path with symlinks resolved, so a file reached through a link and through its target is
 * one entry of the file-state cache. Parts that do not exist yet are kept as given.
 *
 * @param abs An absolute path.
 * @returns The canonical absolute path.
 *
 * @example
 * ```ts
 * import { canonicalPath } from './_paths.ts';
 *
 * await canonicalPath('/repo/link-to-a.ts'); // '/repo/a.ts'
 * ```
 */
export async function canonicalPath(abs: string): Promise<string> {
  try {
    return await realpath(abs);
  } catch {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    return path.join(await canonicalPath(parent), path.basename(abs));
  }
}

/**
 * The `Edit(...)` rule that names one file as the model gave it, in Claude Code's rule syntax:
 * `//abs` for an absolute path (a single `/` would be relative to the settings file), `~/…` as
 * is, `./rel` for a path relative to the working directory.
 *
 * @param given The path as the model gave it.
 * @returns The rule, for permission suggestions.
 *
 * @example
 * ```ts
 * import { editRuleFor } from './_paths.ts';
 *
 * editRuleFor('/repo/a.ts'); // 'Edit(//repo/a.ts)'
 * editRuleFor('src/a.ts');   // 'Edit(./src/a.ts)'
 * ```
 */
export function editRuleFor(given: string): string {
  if (given.startsWith('~/')) return `Edit(${path.posix.normalize(given)})`;
  if (path.isAbsolute(given)) return `Edit(/${path.normalize(given)})`;
  return `Edit(./${path.normalize(given).replace(/^\.\//, '')})`;
}

// Paths that are devices or streams whatever they point to: reading them blocks or never ends.
const DEVICE_PATHS = new Set([
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/full',
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/console',
  '/dev/ptmx',
]);

/**
 * Why a path must not be opened as a file, judged by its name alone (devices, stdio links,
 * `/proc/…/fd/N`), so nothing is opened to find out.
 *
 * @param abs An absolute path.
 * @returns A message, or undefined when the name is not a known device.
 *
 * @example
 * ```ts
 * import { deviceByName } from './_paths.ts';
 *
 * deviceByName('/dev/zero'); // 'a device file'
 * ```
 */
export function deviceByName(abs: string): string | undefined {
  if (DEVICE_PATHS.has(abs)) return 'a device file';
  if (/^\/dev\/fd\/\d+$/.test(abs) || /^\/proc\/(self|thread-self|\d+)\/fd\/\d+$/.test(abs))
    return 'a file descriptor of a running process';
  if (/^\/dev\/(tty|pts\/|sd|nvme|loop|mem|kmem|port)/.test(abs)) return 'a device file';
  return undefined;
}

/**
 * What kind of special file a stat describes, for a refusal; undefined for a regular file or a
 * directory.
 *
 * @param st The stat (of the link target).
 * @returns `a FIFO (named pipe)`, `a socket`, `a character device`, `a block device`, or undefined.
 *
 * @example
 * ```ts
 * import { stat } from 'node:fs/promises';
 * import { specialKind } from './_paths.ts';
 *
 * specialKind(await stat('/dev/null')); // 'a character device'
 * ```
 */
export function specialKind(st: Stats): string | undefined {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return undefined;
}

/**
 * Whether a path lies inside the session's working directories (symlinks resolved), where a
 * tool may say what else is in a folder before the permission layer has looked at the call.
 *
 * @param abs An absolute path.
 * @param ctx The call's context.
 * @returns True inside a working directory.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { insideWorkingDirectories } from './_paths.ts';
 * declare const ctx: ToolContext;
 *
 * await insideWorkingDirectories('/repo/src/a.ts', ctx); // true for a session on /repo
 * ```
 */
export async function insideWorkingDirectories(
  abs: string,
  ctx: Pick<ToolContext, 'cwd' | 'permissions'>,
): Promise<boolean> {
  const real = await canonicalPath(abs);
  return realWorkingDirectories(ctx.permissions, ctx.cwd).some((dir) => isPathInside(real, dir));
}

/**
 * A one-line message for a missing file, with the near names in its folder ("did you mean")
 * or the first missing folder on the way.
 *
 * @param abs The absolute path that does not exist.
 * @param cwd The session's cwd, to say it when the path was relative.
 * @param options `listNear: false` leaves the folder's names out (for a check that runs before permissions); `ctx`, the
 *   call's context, leaves out every name a deny or ask rule covers, so the message never names a file the caller may
 *   not read. @default { listNear: true }
 * @returns The message.
 *
 * @example
 * ```ts
 * import { missingFileMessage } from './_paths.ts';
 *
 * await missingFileMessage('/repo/src/mian.ts', '/repo'); // 'File does not exist: /repo/src/mian.ts. Did you mean /repo/src/main.ts?'
 * ```
 */
export async function missingFileMessage(
  abs: string,
  cwd: string,
  options: { listNear?: boolean; ctx?: Pick<ToolContext, 'cwd' | 'permissions'> } = {},
): Promise<string> {
  const head = `File does not exist: ${abs}.`;
  if (options.listNear === false) return `${head} The session's working directory is ${cwd}.`;
  const dir = path.dirname(abs);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    const missing = await firstMissingAncestor(dir);
    return `${head} The folder ${missing} does not exist either (the session's working directory is ${cwd}).`;
  }
  const base = path.basename(abs);
  const lower = base.toLowerCase();
  const stem = lower.replace(/\.[^.]*$/, '');
  const near = new Set<string>();
  for (const name of names) {
    const l = name.toLowerCase();
    if (l === lower || (stem && l.replace(/\.[^.]*$/, '') === stem)) near.add(name);
  }
  for (const name of closestNames(base, names, { max: 3 })) near.add(name);
  const hidden = options.ctx ? deniedPathFilter('Read', options.ctx) : undefined;
  const list = [...near]
    .map((n) => path.join(dir, n))
    .filter((p) => hidden?.(p) === undefined)
    .slice(0, 3);
  return list.length > 0
    ? `${head} Did you mean ${list.join(' or ')}?`
    : `${head} The session's working directory is ${cwd}.`;
}

async function firstMissingAncestor(dir: string): Promise<string> {
  let missing = dir;
  for (let p = path.dirname(dir); p !== missing; missing = p, p = path.dirname(p)) {
    try {
      await stat(p);
      return missing;
    } catch {
      // keep climbing
    }
  }
  return missing;
}
