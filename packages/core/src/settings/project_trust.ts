import { chmod, mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isPathInside } from '../permissions/is_path_inside.ts';

/** Options of the trust-list functions. */
export interface ProjectTrustOptions {
  /** Whose trust list: `<homeDir>/.toolshed/trusted-projects.json`. @default os.homedir() */
  homeDir?: string | undefined;
}

/** What `~/.toolshed/trusted-projects.json` holds. */
export interface TrustList {
  /**
   * Folders whose settings files apply whole (absolute, real paths); their subfolders too, except
   * below the home folder or a folder above it.
   */
  trusted: string[];
  /** Folders the user said no to when the CLI asked, so that it does not ask again. */
  declined: string[];
}

/**
 * Where the user's list of trusted project folders is kept: in the user's settings folder,
 * which no repository can write to.
 *
 * @param homeDir The home directory. @default os.homedir()
 * @returns `<homeDir>/.toolshed/trusted-projects.json`.
 *
 * @example
 * ```ts
 * import { trustFilePath } from '@toolshed/core/internal';
 *
 * trustFilePath('/home/u'); // '/home/u/.toolshed/trusted-projects.json'
 * ```
 */
export function trustFilePath(homeDir?: string): string {
  return path.join(homeDir ?? homedir(), '.toolshed', 'trusted-projects.json');
}

/**
 * Reads the trust list. A missing file is an empty list.
 *
 * @param options Whose list.
 * @returns The trusted and declined folders.
 * @throws {Error} When the file exists but is not a trust list (the message names the file and the fix).
 *
 * @example
 * ```ts
 * import { readTrustList } from '@toolshed/core/internal';
 *
 * (await readTrustList({ homeDir: '/home/u' })).trusted; // ['/home/u/src/app']
 * ```
 */
export async function readTrustList(options: ProjectTrustOptions = {}): Promise<TrustList> {
  const file = trustFilePath(options.homeDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { trusted: [], declined: [] };
    throw new Error(
      `The trust list "${file}" cannot be read (${(e as Error).message}): fix its permissions or remove it.`,
      { cause: e },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `The trust list "${file}" is not valid JSON (${(e as Error).message}): fix it or remove it, then run "toolshed trust DIR" again.`,
      { cause: e },
    );
  }
  const list = (key: string): string[] => {
    const v = (value as Record<string, unknown> | null)?.[key];
    if (v === undefined) return [];
    if (!Array.isArray(v) || v.some((d) => typeof d !== 'string' || !path.isAbsolute(d))) {
      throw new Error(
        `The trust list "${file}": "${key}" must be a list of absolute folder paths: fix it or remove the file.`,
      );
    }
    return v as string[];
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(
      `The trust list "${file}" must be an object like {"trusted": ["/path/to/project"]}: fix it or remove it.`,
    );
  }
  return { trusted: list('trusted'), declined: list('declined') };
}

/**
 * Whether the user trusts the settings files of a project folder: it, or a folder it is in,
 * was trusted with {@linkcode trustProject} (`toolshed trust DIR`). The home folder and the
 * folders above it, when trusted, count for themselves only: repositories are cloned below them.
 * A trust list that cannot be read trusts nothing.
 *
 * @param dir The project folder (the session's cwd).
 * @param options Whose list.
 * @returns True when the folder is trusted.
 *
 * @example
 * ```ts
 * import { isProjectTrusted } from '@toolshed/core';
 *
 * if (!(await isProjectTrusted('/home/u/src/app'))) console.log('only deny and ask rules apply');
 * ```
 */
export async function isProjectTrusted(dir: string, options: ProjectTrustOptions = {}): Promise<boolean> {
  let list: TrustList;
  try {
    list = await readTrustList(options);
  } catch {
    return false;
  }
  const real = await realFolder(dir);
  const home = await realFolder(options.homeDir ?? homedir());
  return list.trusted.some((t) => t === real || (coversSubfolders(t, home) && isPathInside(real, t)));
}

/**
 * Whether a trusted folder's subfolders are trusted with it: not for the home folder or a folder
 * above it, where every repository the user clones lands (a "yes" given for `~/.claude`'s own
 * files must not trust them all).
 */
function coversSubfolders(trusted: string, home: string): boolean {
  return !isPathInside(home, trusted);
}

/**
 * Adds a folder to the user's trust list (written with mode 0600), so that the settings files
 * inside it — `.toolshed/`, `.claude/` — apply whole: their allow rules, modes and hooks too,
 * and those of its subfolders, unless it is the home folder or a folder above it.
 *
 * @param dir The project folder; kept as its real, absolute path.
 * @param options Whose list.
 * @returns The folder as kept, the list's file, whether it was already trusted, and whether its
 *   subfolders are trusted with it (`subfolders`: false for the home folder and those above it).
 * @throws {Error} When the list exists but cannot be read or written.
 *
 * @example
 * ```ts
 * import { trustProject } from '@toolshed/core';
 *
 * await trustProject('/home/u/src/app'); // { dir: '/home/u/src/app', file: '/home/u/.toolshed/trusted-projects.json', already: false, subfolders: true }
 * ```
 */
export async function trustProject(
  dir: string,
  options: ProjectTrustOptions = {},
): Promise<{ dir: string; file: string; already: boolean; subfolders: boolean }> {
  const real = await realFolder(dir);
  const subfolders = coversSubfolders(real, await realFolder(options.homeDir ?? homedir()));
  const list = await readTrustList(options);
  const file = trustFilePath(options.homeDir);
  const already = list.trusted.includes(real);
  if (!already) {
    list.trusted.push(real);
    list.declined = list.declined.filter((d) => d !== real);
    await writeTrustList(file, list);
  }
  return { dir: real, file, already, subfolders };
}

/**
 * Records that the user declined to trust a folder when asked, so that the CLI does not ask
 * again; {@linkcode trustProject} still trusts it later.
 *
 * @param dir The project folder.
 * @param options Whose list.
 *
 * @example
 * ```ts
 * import { declineProjectTrust } from '@toolshed/core';
 *
 * await declineProjectTrust('/home/u/src/cloned');
 * ```
 */
export async function declineProjectTrust(dir: string, options: ProjectTrustOptions = {}): Promise<void> {
  const real = await realFolder(dir);
  const list = await readTrustList(options);
  if (list.declined.includes(real)) return;
  list.declined.push(real);
  await writeTrustList(trustFilePath(options.homeDir), list);
}

async function writeTrustList(file: string, list: TrustList): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

async function realFolder(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  try {
    return await realpath(absolute);
  } catch {
    return absolute;
  }
}
