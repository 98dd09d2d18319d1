import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, stat } from 'node:fs/promises';
import { homedir, tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ToolshedError } from './errors.ts';

/** The error code of a state folder that is not safely the user's own (a symlink, another owner). */
export const STATE_DIR_UNSAFE = 'state_dir_unsafe' as const;

/** Options of {@linkcode prepareStateDir}. */
export interface PrepareStateDirOptions {
  /** The session's id; names its folder below the per-user root (sanitized). */
  sessionId: string;
  /** The user's home folder. @default os.homedir() */
  homeDir?: string | undefined;
  /** Where `XDG_STATE_HOME` is read from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** The system's temporary folder, for the fallback. @default os.tmpdir() */
  tmpDir?: string;
}

/** Where a session keeps its state, as {@linkcode prepareStateDir} chose it. */
export interface StateDirPlace {
  /** The per-user root (`$XDG_STATE_HOME/toolshed`, `~/.toolshed/state` or `<tmp>/toolshed-<uid>`), mode 0700. */
  root: string;
  /** The session's own folder, `<root>/<session id>`; created when something is first saved. */
  dir: string;
  /** Which place was chosen. */
  kind: 'xdg' | 'home' | 'tmp';
}

/**
 * Chooses and prepares the per-user private place for a session's state: `$XDG_STATE_HOME/toolshed`
 * when that variable is an absolute path, else `~/.toolshed/state`, and when the home folder cannot
 * hold it (missing, read-only, not a folder), a per-user folder `toolshed-<uid>` in the system's
 * temporary folder (as it does when the home folder does not exist). The root is created with mode 0700 (an existing one of the user's with wider
 * bits is narrowed to 0700), and refused when it is a symlink, not a folder or owned by someone
 * else: a folder another local user created first could be read or swapped by them. The session's
 * own folder, `<root>/<session id>`, is only named here; it is created (0700) when a result is
 * first saved.
 *
 * @param options The session id, and the home, environment and temporary folder to look at.
 * @returns The root, the session's folder and which place was chosen.
 * @throws {ToolshedError} `state_dir_unsafe` when the root is a symlink, not a folder or another
 *   user's; the message names the path and what to do (remove it, or pass `stateDir`).
 *
 * @example
 * ```ts
 * import { prepareStateDir } from '@toolshed/core/internal';
 *
 * const place = await prepareStateDir({ sessionId: 's1' });
 * place.dir; // '/home/me/.toolshed/state/s1'
 * ```
 */
export async function prepareStateDir(options: PrepareStateDirOptions): Promise<StateDirPlace> {
  const env = options.env ?? process.env;
  const name = stateDirName(options.sessionId);
  const xdg = env.XDG_STATE_HOME;
  const home = options.homeDir ?? safeHomedir();
  const candidates: { root: string; kind: StateDirPlace['kind'] }[] = [];
  if (xdg && path.isAbsolute(xdg)) candidates.push({ root: path.join(xdg, 'toolshed'), kind: 'xdg' });
  // A home that does not exist is not created here: it falls back to the temporary folder.
  else if (home && path.isAbsolute(home) && (await isDirectory(home)))
    candidates.push({ root: path.join(home, '.toolshed', 'state'), kind: 'home' });
  for (const { root, kind } of candidates) {
    try {
      await mkdir(root, { recursive: true, mode: 0o700 });
    } catch (e) {
      // A home that cannot hold the folder (read-only, missing, a file) falls back to the temporary
      // folder; something already at the root's place (a dangling symlink) is judged below.
      if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT'].includes(errnoCode(e) ?? '')) continue;
      if (errnoCode(e) !== 'EEXIST') throw e;
    }
    await assertPrivateDir(root);
    return { root, dir: path.join(root, name), kind };
  }
  const root = path.join(options.tmpDir ?? tmpdir(), `toolshed-${userTag()}`);
  try {
    // Not recursive: the temporary folder exists, and EEXIST must be looked at, not ignored.
    await mkdir(root, { mode: 0o700 });
  } catch (e) {
    if (errnoCode(e) !== 'EEXIST') throw e;
  }
  await assertPrivateDir(root);
  return { root, dir: path.join(root, name), kind: 'tmp' };
}

/**
 * Checks that a folder is safely the current user's own: a real folder (not a symlink), owned by
 * the user, and not open to the group or others (a folder of the user's with wider bits is
 * narrowed to 0700). On Windows, where there are no uids, only the symlink and folder checks apply.
 *
 * @param dir The folder.
 * @throws {ToolshedError} `state_dir_unsafe` when it is a symlink, not a folder or another user's.
 *
 * @example
 * ```ts
 * import { assertPrivateDir } from '@toolshed/core/internal';
 *
 * await assertPrivateDir('/tmp/toolshed-1000');
 * ```
 */
export async function assertPrivateDir(dir: string): Promise<void> {
  const st = await lstat(dir);
  const fix = 'Remove it (or let its owner remove it), or pass the stateDir option to choose another folder.';
  if (st.isSymbolicLink()) {
    throw new ToolshedError(
      STATE_DIR_UNSAFE,
      `The state folder "${dir}" is a symlink; Toolshed keeps results only in a real folder of its own. ${fix}`,
    );
  }
  if (!st.isDirectory()) {
    throw new ToolshedError(STATE_DIR_UNSAFE, `The state folder "${dir}" is not a folder. ${fix}`);
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined) return;
  if (st.uid !== uid) {
    throw new ToolshedError(
      STATE_DIR_UNSAFE,
      `The state folder "${dir}" belongs to uid ${st.uid}, not to you (uid ${uid}): whoever owns it could read or change saved results. ${fix}`,
    );
  }
  if ((st.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/**
 * The folder name of a session below the state root: the id itself when it is a plain name
 * (`[A-Za-z0-9._-]`, not `.` or `..`, at most 100 characters), else a sanitized name with a
 * hash, so that an id such as `../x` cannot leave the root.
 *
 * @param sessionId The session's id.
 * @returns A single path segment.
 *
 * @example
 * ```ts
 * import { stateDirName } from '@toolshed/core/internal';
 *
 * stateDirName('3f2a-…');  // '3f2a-…'
 * stateDirName('../etc');   // '___etc-1b4f0e9851'
 * ```
 */
export function stateDirName(sessionId: string): string {
  if (/^[A-Za-z0-9._-]{1,100}$/.test(sessionId) && sessionId !== '.' && sessionId !== '..') return sessionId;
  const hash = createHash('sha256').update(sessionId).digest('hex').slice(0, 10);
  const clean = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
  return clean ? `${clean}-${hash}` : `session-${hash}`;
}

function userTag(): string {
  if (typeof process.getuid === 'function') return String(process.getuid());
  try {
    return userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_') || 'user';
  } catch {
    return 'user';
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
