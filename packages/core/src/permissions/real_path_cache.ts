import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as onNextTurn } from 'node:timers';
import { resolveRealPath } from './resolve_real_path.ts';
import { isSettledTime } from '../settled_time.ts';

/**
 * A resolved rule root, with the paths its resolution looked up and what each was then; or, for
 * a root that could not be resolved (its symlinks loop), the error, kept while the same holds.
 */
interface RootEntry {
  real: string | undefined;
  failure: unknown;
  lookups: string[];
  stamps: string[];
  /** The {@linkcode epoch} at which it was last proven current. */
  epoch: number;
}

/** Roots kept; the cache is dropped when full (a session has few rules, and a dropped root is just resolved again). */
const MAX_ROOTS = 20_000;

const roots = new Map<string, RootEntry>();
/** Per path looked up: its `lstat` stamp as last seen. */
const lookupStamps = new Map<string, string>();
/** What a folder's `stat` said as last seen (`ino` 0 and times NaN: it could not be read). */
interface FolderStamp {
  ino: number;
  ctimeMs: number;
  mtimeMs: number;
}
/** Per folder holding looked-up paths: its stamp as last seen, and whether it had settled then. */
const folders = new Map<string, { stamp: FolderStamp; settled: boolean; entries: Set<string> }>();
/** Grows whenever a looked-up path is found changed: roots checked at an older epoch look again. */
let epoch = 0;
let turn = 0;
let refreshedTurn = -1;
let turnScheduled = false;
/** Folders `stat`ed by {@linkcode refresh} so far: tests count them. */
let folderChecks = 0;

/**
 * A rule root's physical path (see {@linkcode resolveRealPath}), resolved once and then reused
 * while every path its resolution looked up is as it was. That is checked at most once per
 * turn of the event loop for all roots together, folder by folder: a folder whose stamp (inode,
 * change and modification times) is as it was, and had settled, vouches for every entry in it
 * with one `stat`; in a folder that changed (or changed too recently to trust: {@linkcode isSettledTime}),
 * each looked-up entry is `lstat`ed again. So a thousand rules below the working directory cost a
 * handful of `stat`s per check, and a symlink made, removed or replaced anywhere on a root's way
 * (`ln -s ~/.ssh secrets`) is still followed at the next check, as by an uncached resolution.
 *
 * What this cannot see: a mount made over a folder on the way (which needs root).
 *
 * @param lexical The root, absolute and lexically normal.
 * @param homeDir What `~` stands for.
 * @returns The physical path.
 * @throws {ToolshedError} As {@linkcode resolveRealPath} (looping symlinks, a path too long); the
 *   failure is cached and watched as a result is, so a loop that is replaced is seen at the next check.
 *
 * @example
 * ```ts
 * import os from 'node:os';
 * import { cachedRealPath } from './real_path_cache.ts';
 *
 * cachedRealPath('/p/secrets', os.homedir()); // '/home/u/.ssh' when /p/secrets -> ~/.ssh
 * ```
 */
export function cachedRealPath(lexical: string, homeDir: string): string {
  refresh();
  const key = `${homeDir}\0${lexical}`;
  const cached = roots.get(key);
  if (cached !== undefined) {
    if (cached.epoch === epoch || cached.lookups.every((p, i) => lookupStamps.get(p) === cached.stamps[i])) {
      cached.epoch = epoch;
      if (cached.real === undefined) throw cached.failure;
      return cached.real;
    }
  }
  const seen = new Set<string>();
  let real: string | undefined;
  let failure: unknown;
  try {
    real = resolveRealPath(lexical, { cwd: '/', homeDir, onLookup: (p) => seen.add(p) });
  } catch (e) {
    failure = e;
  }
  const lookups = [...seen];
  const stamps = lookups.map(entryStamp);
  // Stamped after the resolution: resolved again, so a change in between is not cached.
  if (resolvesTo(lexical, homeDir) !== (real ?? FAILED)) {
    roots.delete(key);
  } else {
    if (roots.size >= MAX_ROOTS) roots.clear();
    watch(lookups, stamps);
    // A failure is watched as closely as a result: when a looping link is re-pointed, the root
    // resolves again at the next check, and a rule compiled while it looped is compiled afresh.
    roots.set(key, { real, failure, lookups, stamps, epoch });
  }
  if (real === undefined) throw failure;
  return real;
}

/**
 * {@linkcode cachedRealPath}, or the lexical path itself where it cannot be resolved (its symlinks
 * loop): what a rule's root is matched by then. The failure is cached and watched like a result,
 * so once the loop is replaced by a link elsewhere, the next check sees the new physical root.
 *
 * @param lexical The root, absolute and lexically normal.
 * @param homeDir What `~` stands for.
 * @returns The physical path, or `lexical`.
 *
 * @example
 * ```ts
 * import os from 'node:os';
 * import { physicalRootOf } from './real_path_cache.ts';
 *
 * physicalRootOf('/p/keys', os.homedir()); // '/p/keys' while /p/keys -> /p/keys loops
 * ```
 */
export function physicalRootOf(lexical: string, homeDir: string): string {
  try {
    return cachedRealPath(lexical, homeDir);
  } catch {
    return lexical;
  }
}

/** Roots pinned at most; past it a root is matched by its lexical path only. */
const MAX_PINS = 20_000;
/** Each root's physical path as this process first resolved it: see {@linkcode pinnedPhysicalRoot}. */
const pins = new Map<string, string>();

/**
 * A root's physical path as this process first resolved it ({@linkcode physicalRootOf}), and
 * never again: what an allow rule's root and a working directory are matched by. A folder that
 * is replaced by a link later (`rm -rf docs && ln -s ~/.ssh docs`, one write inside the project)
 * must not carry an allow rule or a working directory to where the link now points; a root that
 * was a link when first resolved keeps that target. Deny and ask rules follow the links as they
 * are now ({@linkcode physicalRootOf}), so this narrows what is allowed, never what is denied.
 * Permission contexts pin their allow roots and working directories when they are made; to
 * follow a link re-pointed on purpose, start a new process.
 *
 * @param lexical The root, absolute and lexically normal.
 * @param homeDir What `~` stands for.
 * @returns The physical path pinned, or `lexical` where it could not be resolved (or the pins are full).
 *
 * @example
 * ```ts
 * import os from 'node:os';
 * import { pinnedPhysicalRoot } from './real_path_cache.ts';
 *
 * pinnedPhysicalRoot('/p/docs', os.homedir()); // '/p/docs', even after /p/docs -> ~/.ssh
 * ```
 */
export function pinnedPhysicalRoot(lexical: string, homeDir: string): string {
  const key = `${homeDir}\0${lexical}`;
  const pinned = pins.get(key);
  if (pinned !== undefined) return pinned;
  // Full: left unpinned and matched lexically, so an allow rule then follows no link at all.
  if (pins.size >= MAX_PINS) return lexical;
  const real = physicalRootOf(lexical, homeDir);
  pins.set(key, real);
  return real;
}

const FAILED = '\0failed';

function resolvesTo(lexical: string, homeDir: string): string {
  try {
    return resolveRealPath(lexical, { cwd: '/', homeDir });
  } catch {
    return FAILED;
  }
}

/** Records the paths a resolution looked up, and the folders holding them, for {@linkcode refresh}. */
function watch(lookups: string[], stamps: string[]): void {
  lookups.forEach((p, i) => {
    if (lookupStamps.get(p) !== stamps[i]) {
      if (lookupStamps.has(p)) epoch++;
      lookupStamps.set(p, stamps[i]!);
    }
    const dir = dirname(p);
    let folder = folders.get(dir);
    // Not settled yet: the next refresh looks at its entries themselves before trusting its stamp.
    if (folder === undefined)
      folders.set(dir, (folder = { stamp: folderStamp(dir), settled: false, entries: new Set() }));
    folder.entries.add(p);
  });
}

/**
 * The cache's epoch after this turn's refresh: it moves whenever a path some root's resolution
 * looked up is found changed, so a value derived from cached roots at an epoch still holds
 * while the epoch is the same.
 *
 * @returns The epoch.
 *
 * @example
 * ```ts
 * import type { CompiledPathRule } from '@toolshed/core/internal';
 * import { rootCacheEpoch } from './real_path_cache.ts';
 * declare let compiled: CompiledPathRule & { epoch: number };
 * declare function recompile(): CompiledPathRule & { epoch: number };
 *
 * if (compiled.epoch !== rootCacheEpoch()) compiled = recompile();
 * ```
 */
export function rootCacheEpoch(): number {
  refresh();
  return epoch;
}

/** Once per turn: finds which looked-up paths changed, folder by folder. */
function refresh(): void {
  const thisTurn = currentTurn();
  if (refreshedTurn === thisTurn) return;
  refreshedTurn = thisTurn;
  const now = Date.now();
  for (const [dir, folder] of folders) {
    const stamp = folderStamp(dir);
    if (folder.settled && sameStamp(stamp, folder.stamp)) continue;
    for (const p of folder.entries) {
      const seen = entryStamp(p);
      if (lookupStamps.get(p) !== seen) {
        lookupStamps.set(p, seen);
        epoch++;
      }
    }
    folder.stamp = stamp;
    folder.settled = stamp.ino !== 0 && isSettledTime(stamp.ctimeMs, now) && isSettledTime(stamp.mtimeMs, now);
  }
}

const UNREADABLE: FolderStamp = { ino: 0, ctimeMs: Number.NaN, mtimeMs: Number.NaN };

/**
 * A folder's inode and change and modification times. Milliseconds as a double keep a fraction
 * of a microsecond: a folder is trusted only once its times are settled ({@linkcode isSettledTime}:
 * 50 ms old, or two seconds on a file system that keeps whole seconds), and any later change then
 * sets its change time to a later clock reading, so no change hides in the rounding. One plain
 * `stat` (no BigInts, no text), as {@linkcode refresh} makes one per watched folder per check.
 */
function folderStamp(dir: string): FolderStamp {
  folderChecks++;
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    return st === undefined ? UNREADABLE : { ino: st.ino, ctimeMs: st.ctimeMs, mtimeMs: st.mtimeMs };
  } catch {
    return UNREADABLE;
  }
}

function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  // An unreadable folder (times NaN) is never the same: its entries are looked at again.
  return a.ino === b.ino && a.ctimeMs === b.ctimeMs && a.mtimeMs === b.mtimeMs;
}

/**
 * What a looked-up path is, as far as resolving through it goes: missing, or its inode and kind
 * (a link with its target). Not its times: a folder's change as files come and go in it does
 * not change where a path through it leads.
 */
function entryStamp(p: string): string {
  try {
    const st = lstatSync(p, { bigint: true });
    const kind = st.isSymbolicLink() ? `l>${readlinkSync(p)}` : st.isDirectory() ? 'd' : 'f';
    return `${st.dev}:${st.ino}:${kind}`;
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/**
 * The turn of the event loop: checks within one synchronous stretch share one refresh.
 *
 * @returns A number that grows from one turn to the next.
 *
 * @example
 * ```ts
 * import { currentTurn } from './real_path_cache.ts';
 * declare const entry: { turn: number };
 * declare function revalidate(entry: { turn: number }): void;
 *
 * if (entry.turn !== currentTurn()) revalidate(entry);
 * ```
 */
export function currentTurn(): number {
  if (!turnScheduled) {
    turnScheduled = true;
    onNextTurn(() => {
      turn++;
      turnScheduled = false;
    }).unref();
  }
  return turn;
}

/**
 * Has the next use of the cache look at the watched folders again, even within this turn of the
 * event loop: a permission decision begins with it, so that it sees every change made to a root's
 * way before it began (the folders are looked at once, by the first check that needs a root; a
 * decision about a call with no path looks at none). Costs nothing until then.
 *
 * @example
 * ```ts
 * import { checkRootsAgain, physicalRootOf } from './real_path_cache.ts';
 *
 * checkRootsAgain();
 * physicalRootOf('/p/secrets', '/home/u'); // one stat per watched folder, then reused this turn
 * ```
 */
export function checkRootsAgain(): void {
  refreshedTurn = -1;
}

/**
 * How many folder `stat`s the cache has made so far (each check looks at every watched folder
 * once): a test counts them to see what a check costs.
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { rootCacheFolderChecks } from './real_path_cache.ts';
 *
 * const before = rootCacheFolderChecks();
 * ```
 */
export function rootCacheFolderChecks(): number {
  return folderChecks;
}

/**
 * Forgets every cached and pinned root (for tests, after something the cache cannot see, such as
 * a mount, or to follow a link re-pointed on purpose: see {@linkcode pinnedPhysicalRoot}).
 *
 * @example
 * ```ts
 * import { clearRootCache } from './real_path_cache.ts';
 *
 * clearRootCache();
 * ```
 */
export function clearRootCache(): void {
  roots.clear();
  pins.clear();
  lookupStamps.clear();
  folders.clear();
  epoch++;
  turn++;
}
