import { accessSync, constants, existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { ToolshedError } from '@toolshed/core';
import { gitConfiguredPaths, isPathInside } from '@toolshed/core/internal';
import {
  inWritable,
  keptPaths,
  linkTarget,
  PROTECTED_NAMES,
  type ProtectedSnapshot,
  protectedSnapshot,
} from './_protected_tree.ts';
import { quarantineNew } from './_sandbox_quarantine.ts';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** The Bash sandbox was asked for but cannot run here (no bubblewrap, or user namespaces are off). */
    shell_sandbox_unavailable: true;
  }
}

/**
 * The error code when the sandbox is on and bubblewrap cannot be found.
 *
 * @example
 * ```ts
 * import { ToolshedError } from '@toolshed/core';
 * import { SANDBOX_UNAVAILABLE } from '@toolshed/tool-shell';
 * import { findBwrap } from '@toolshed/tool-shell/internal';
 *
 * try {
 *   findBwrap();
 * } catch (e) {
 *   if (ToolshedError.isInstance(e) && e.code === SANDBOX_UNAVAILABLE) console.error(e.message);
 * }
 * ```
 */
export const SANDBOX_UNAVAILABLE = 'shell_sandbox_unavailable' as const;

/** What {@linkcode bwrapArguments} needs. */
export interface SandboxSpec {
  /** Directories the command may write (the working directories, `allowWrite`). */
  writable: readonly string[];
  /** Allow the network. */
  network: boolean;
  /** The directory the command starts in. */
  cwd: string;
  /** The file descriptor, in bwrap, of a seccomp program to load (`--seccomp FD`). */
  seccompFd?: number;
  /**
   * Paths hidden from the command: a folder gets an empty tmpfs over it, a file an empty
   * read-only file (deny-listed paths, the home directory's secrets folders).
   */
  masked?: readonly string[];
  /** The home directory, whose shell start-up files are kept when it is writable. @default os.homedir() */
  home?: string;
  /** What {@linkcode sandboxProtection} found before the command; found here when not given. */
  protection?: SandboxProtection;
}

/**
 * What a sandboxed command never sees in the home directory: keys, cloud and registry
 * credentials.
 *
 * @example
 * ```ts
 * import { SANDBOX_HOME_SECRETS } from '@toolshed/tool-shell';
 *
 * SANDBOX_HOME_SECRETS.includes('.ssh'); // true
 * ```
 */
export const SANDBOX_HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/git/credentials',
  '.password-store',
  '.local/share/keyrings',
];

// Classic BPF, as seccomp reads it: { u16 code; u8 jt; u8 jf; u32 k } in host byte order.
const LD_ABS_W = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;
const RET_KILL_PROCESS = 0x80000000;
const AF_UNIX = 1;
/** Per architecture: the audit arch value, and the numbers of socket() and io_uring_setup(). */
const SYSCALLS: Readonly<Record<string, { arch: number; socket: number; ioUringSetup: number }>> = {
  x64: { arch: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { arch: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

/**
 * A seccomp program that makes `socket(AF_UNIX, …)` fail with EPERM (and `io_uring_setup`,
 * which could open sockets without the socket call). A read-only root still lets a command
 * connect to any Unix socket on it — a Docker daemon's, an SSH or GPG agent's — with the
 * network off, so bubblewrap loads this unless `allowUnixSockets` is set. `socketpair` still
 * works (it reaches nothing outside). A syscall of another architecture (x32, 32-bit) ends the
 * process, since its numbers are not checked.
 *
 * @param arch `process.arch` of the host.
 * @returns The program's bytes, for `bwrap --seccomp FD`.
 * @throws {ToolshedError} `shell_sandbox_unavailable` on an architecture without syscall numbers here.
 *
 * @example
 * ```ts
 * import { unixSocketFilter } from '@toolshed/tool-shell/internal';
 *
 * unixSocketFilter('x64').length; // 88: eleven 8-byte instructions
 * ```
 */
export function unixSocketFilter(arch: string = process.arch): Buffer {
  const numbers = SYSCALLS[arch];
  if (!numbers) {
    throw new ToolshedError(
      SANDBOX_UNAVAILABLE,
      `The Bash sandbox cannot block Unix sockets on the "${arch}" architecture (only x64 and arm64 are known), so the command was not run. Set sandbox.allowUnixSockets: true to run without that filter.`,
    );
  }
  // Jump offsets count from the next instruction: ALLOW is 8, EPERM 9, KILL 10.
  const program: Array<[number, number, number, number]> = [
    [LD_ABS_W, 0, 0, 4], // 0: seccomp_data.arch
    [JEQ_K, 0, 8, numbers.arch], // 1: another architecture → KILL
    [LD_ABS_W, 0, 0, 0], // 2: seccomp_data.nr
    [JGE_K, 5, 0, 0x40000000], // 3: x32 syscalls → EPERM
    [JEQ_K, 4, 0, numbers.ioUringSetup], // 4: io_uring_setup → EPERM
    [JEQ_K, 0, 2, numbers.socket], // 5: not socket → ALLOW
    [LD_ABS_W, 0, 0, 16], // 6: the low half of args[0], the domain
    [JEQ_K, 1, 0, AF_UNIX], // 7: AF_UNIX → EPERM, else ALLOW
    [RET_K, 0, 0, RET_ALLOW], // 8
    [RET_K, 0, 0, RET_EPERM], // 9
    [RET_K, 0, 0, RET_KILL_PROCESS], // 10
  ];
  const bytes = Buffer.alloc(program.length * 8);
  const le = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  program.forEach(([code, jt, jf, k], i) => {
    le.setUint16(i * 8, code, true);
    le.setUint8(i * 8 + 2, jt);
    le.setUint8(i * 8 + 3, jf);
    le.setUint32(i * 8 + 4, k, true);
  });
  return bytes;
}

/**
 * Names kept read-only wherever they are in a writable directory (`node_modules` aside), and
 * moved to the quarantine when a command creates them: what core's permission layer protects at
 * any depth (its `PROTECTED_NAME_TABLE`, the one source of both): agent settings (`.toolshed`,
 * `.claude`, `.mcp.json`, `.claude.json`), husky's hooks, editor settings that run code (`.vscode`
 * whole, `.idea`), direnv's `.envrc`, `.gitconfig`, `.gitmodules` and `.ripgreprc`. A `package.json`
 * stays writable, but a command may change only its dependencies and version (anything else is put
 * back). Git folders are kept too (their hooks, config, `config.worktree`, `commondir` and
 * `objects/info/alternates`, and `.git` files), and the home's start-up files, `.ssh` and
 * `.config/git` when the home is writable: see {@linkcode bwrapArguments}.
 *
 * @example
 * ```ts
 * import { SANDBOX_PROTECTED } from '@toolshed/tool-shell/internal';
 *
 * SANDBOX_PROTECTED.includes('.vscode'); // true
 * ```
 */
export const SANDBOX_PROTECTED: readonly string[] = PROTECTED_NAMES;

/** What the sandbox keeps for one command: the protected entries then, and the kept paths not made yet. */
export interface SandboxProtection {
  /** The protected entries of the writable directories before the command. */
  snapshot: ProtectedSnapshot;
  /** The hooks folders and included config files git config names that did not exist: none may be made. */
  missing: string[];
}

/**
 * What the sandbox keeps read-only for one command, found before it runs: the protected entries
 * of the writable directories at any depth (see {@linkcode SANDBOX_PROTECTED}; nested clones,
 * submodules, linked worktrees), and the hooks folders and included files the git config of their
 * repositories names. {@linkcode quarantineCreated} compares with it after the command.
 *
 * @param writable The writable directories.
 * @param options `home`: the home directory (default `os.homedir()`).
 * @returns The snapshot and the kept paths that do not exist yet.
 *
 * @example
 * ```ts
 * import { sandboxProtection } from '@toolshed/tool-shell/internal';
 *
 * sandboxProtection(['/p']).snapshot.entries.has('/p/.git/hooks'); // true in a repository
 * ```
 */
export function sandboxProtection(writable: readonly string[], options: { home?: string } = {}): SandboxProtection {
  // Walked and bound as real paths: a working directory given through a link is a link to the
  // walk (not a folder, so nothing under it was found) and to the mounts made under it.
  const home = realPath(options.home ?? os.homedir());
  const snapshot = protectedSnapshot([...new Set(writable.map(realPath))], { home });
  // The kept paths were looked at by the snapshot: the ones it has no entry for are missing.
  const missing = [
    ...gitKept(snapshot.writable, snapshot).filter((kept) => !existsSync(kept)),
    ...keptPaths(snapshot).filter((kept) => !snapshot.entries.has(kept)),
  ];
  return { snapshot, missing };
}

/**
 * The hooks folders and config files the git config of the writable directories' repositories,
 * and of every repository found in them, names ({@linkcode gitConfiguredPaths}) that lie inside a
 * writable directory.
 */
function gitKept(writable: readonly string[], snapshot: ProtectedSnapshot): string[] {
  const tops = [...writable];
  for (const entry of snapshot.entries.values()) {
    // Only a .git file that can be read without waiting: gitConfiguredPaths reads it plainly, and a
    // FIFO planted as `sub/.git` froze the process there.
    if (entry.kind === 'gitfile' && linkTarget(entry) !== undefined) tops.push(path.dirname(entry.path));
  }
  for (const dir of snapshot.gitDirs) if (path.basename(dir) === '.git') tops.push(path.dirname(dir));
  const { hooks, configs } = gitConfiguredPaths([...new Set(tops)], snapshot.home ?? os.homedir());
  return [...hooks, ...configs].filter((kept) => inWritable(kept, writable));
}

/**
 * Moves protected entries a sandboxed command created (settings, `.mcp.json`, git hooks and
 * config, in the project or a repository nested in it, which would run outside the sandbox later)
 * into a quarantine directory. What `git init`, `git clone` or `git worktree add` makes in a new
 * repository stays: sample hooks, a config with only their settings.
 *
 * @param before What {@linkcode sandboxProtection} returned before the command.
 * @param quarantineDir Where to move them.
 * @returns One note per moved entry, for the model.
 *
 * @example
 * ```ts
 * import { quarantineCreated, sandboxProtection } from '@toolshed/tool-shell/internal';
 *
 * const before = sandboxProtection(['/p']);
 * // … the command runs …
 * quarantineCreated(before, '/state/sandbox-quarantine'); // ['The sandbox does not let commands create /p/.mcp.json; …']
 * ```
 */
export function quarantineCreated(before: SandboxProtection, quarantineDir: string): string[] {
  return quarantineNew(before, quarantineDir);
}

/** The path with its links resolved, or as given when it does not exist. */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where to bind a protected entry: itself, or where it leads when it is a link (bwrap cannot mount
 * over a link); nothing for a link to nowhere or out of the writable directories (read-only
 * already). A link swapped for something else is caught after the command.
 */
function boundPath(entry: string, writable: readonly string[]): string | undefined {
  let real: string;
  try {
    real = realpathSync(entry);
  } catch {
    return undefined;
  }
  if (real === entry) return entry;
  return inWritable(real, writable) ? real : undefined;
}

/**
 * Finds the bubblewrap binary: the path given, else `bwrap` on PATH, else `/usr/bin/bwrap`.
 *
 * @param preferred A path from the options.
 * @returns The binary's path.
 * @throws {ToolshedError} `shell_sandbox_unavailable` when there is none, saying how to install
 *   it or turn the sandbox off; the command is never run without the sandbox instead.
 *
 * @example
 * ```ts
 * import { findBwrap } from '@toolshed/tool-shell/internal';
 *
 * findBwrap(); // '/usr/bin/bwrap'
 * ```
 */
export function findBwrap(preferred?: string): string {
  const candidates = preferred
    ? [preferred]
    : [
        ...(process.env.PATH ?? '')
          .split(path.delimiter)
          .filter(Boolean)
          .map((dir) => path.join(dir, 'bwrap')),
        '/usr/bin/bwrap',
      ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next one
    }
  }
  const where = preferred ? `at "${preferred}" (sandbox.bwrapPath)` : 'on PATH or at /usr/bin/bwrap';
  throw new ToolshedError(
    SANDBOX_UNAVAILABLE,
    `The Bash sandbox is enabled but bubblewrap (bwrap) was not found ${where}, so the command was not run. Install bubblewrap (for example \`apt-get install bubblewrap\`) or turn the sandbox off (shellTools({ sandbox: { enabled: false } })).`,
  );
}

/**
 * The bubblewrap arguments for one command: the root read-only, `/dev`, `/proc`, a private
 * `/tmp`, the writable directories bound read-write — at any depth in them the hooks, config,
 * `config.worktree` and `commondir` of every git folder (nested clones, submodules, linked
 * worktrees) and `.git` files, the hooks folders their config names and the files it includes,
 * {@linkcode SANDBOX_PROTECTED} and the home's shell start-up files kept read-only, so a sandboxed
 * command cannot plant what runs unsandboxed later — no network unless allowed, a seccomp program when given (see
 * {@linkcode unixSocketFilter}), `masked` paths hidden (an empty tmpfs over a folder, an empty
 * file over a file), its own PID namespace, and death with the parent.
 *
 * @param spec What is writable, the network, the start directory.
 * @returns The arguments to put before the shell and its `-c script`.
 * @throws {ToolshedError} `shell_sandbox_unavailable` when keeping the protected entries takes more
 *   arguments than bubblewrap accepts (about 1 500 repositories), naming them.
 *
 * @example
 * ```ts
 * import { bwrapArguments, findBwrap } from '@toolshed/tool-shell/internal';
 * import { spawn } from 'node:child_process';
 *
 * spawn(findBwrap(), [...bwrapArguments({ writable: ['/p'], network: false, cwd: '/p' }), 'bash', '-c', 'ls']);
 * ```
 */
export function bwrapArguments(spec: SandboxSpec): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Bound where they really are, as the protected entries under them are: bwrap mounts a folder
  // given through a link over the link, and what was bound under the real path was not seen there.
  const reals = [...new Set(spec.writable.map(realPath))];
  for (const dir of reals) {
    if (existsSync(dir)) args.push('--bind', dir, dir);
  }
  // The link itself stays where the root's copy shows it, except under the sandbox's own /tmp
  // (and not in a folder bound from outside, where it is already).
  for (const dir of spec.writable) {
    const real = realPath(dir);
    const shown = inWritable(dir, reals);
    const inTmp = dir !== '/tmp' && isPathInside(dir, '/tmp');
    if (real !== dir && inTmp && !shown && existsSync(real)) args.push('--symlink', real, dir);
  }
  const protection =
    spec.protection ?? sandboxProtection(spec.writable, spec.home === undefined ? {} : { home: spec.home });
  const writable = protection.snapshot.writable;
  // Each bound path, read-only or onto itself; bound in path order, so that a folder's mount never
  // covers one made below it.
  const binds = new Map<string, '--bind' | '--ro-bind'>();
  // A git folder bound onto itself is a mount point, which cannot be renamed: otherwise
  // `mv .git .git2 && mkdir -p .git/hooks` would leave the read-only hooks behind. Only one right
  // in a writable directory: a deeper one's folder above it (`mv vendor vendor2`, `mv .git/modules
  // m`) can be renamed anyway, so the check after the command is what catches it, and each mount
  // more slows bwrap's set-up for every command (it grows with the square of their number).
  for (const dir of protection.snapshot.gitDirs) if (writable.includes(path.dirname(dir))) binds.set(dir, '--bind');
  for (const entry of protection.snapshot.entries.values()) {
    // A `.git` link to a folder: the git folder it leads to is kept as any is, not made read-only whole.
    if (entry.kind === 'gitfile' && isDirectory(entry.path)) continue;
    // npm install rewrites package.json: what else changed in it is put back after the command.
    if (entry.kind === 'package-json') continue;
    const bound = boundPath(entry.path, writable);
    if (bound !== undefined) binds.set(bound, '--ro-bind');
  }
  // The hooks folder a repository's config names (`core.hooksPath`), which git runs as it runs
  // `.git/hooks`, and the files that config includes, git config as much as `.git/config` is.
  // Outside the writable directories they are read-only already.
  for (const kept of gitKept(writable, protection.snapshot)) {
    if (!existsSync(kept)) continue;
    // Each folder between the writable directory and it bound onto itself, so that none can be
    // renamed away (`mv scripts old && mkdir -p scripts/hooks`): a mount point cannot be.
    const dir = writable.find((d) => isPathInside(kept, d))!;
    for (let above = path.dirname(kept); above !== dir && isPathInside(above, dir); above = path.dirname(above))
      if (!binds.has(above)) binds.set(above, '--bind');
    binds.set(kept, '--ro-bind');
  }
  for (const bound of [...binds.keys()].sort()) args.push(binds.get(bound)!, bound, bound);
  // Masks come last, so they cover whatever was bound above them.
  for (const hidden of spec.masked ?? []) {
    let st;
    try {
      st = lstatSync(hidden);
    } catch {
      continue;
    }
    if (st.isDirectory()) args.push('--tmpfs', hidden);
    else if (!st.isSymbolicLink()) args.push('--ro-bind', '/dev/null', hidden);
  }
  if (!spec.network) args.push('--unshare-net');
  if (spec.seccompFd !== undefined) args.push('--seccomp', String(spec.seccompFd));
  args.push('--unshare-pid', '--die-with-parent', '--chdir', spec.cwd);
  if (args.length + 8 > BWRAP_MAX_ARGS) throw tooManyMounts(args.length, protection.snapshot);
  return args;
}

/** bubblewrap refuses a command line longer than this (its MAX_ARGS), the command's own words included. */
const BWRAP_MAX_ARGS = 9000;

function tooManyMounts(count: number, snapshot: ProtectedSnapshot): ToolshedError {
  const repositories = [...snapshot.gitDirs].map((dir) => (path.basename(dir) === '.git' ? path.dirname(dir) : dir));
  const some = repositories.slice(0, 3).join(', ');
  return new ToolshedError(
    SANDBOX_UNAVAILABLE,
    `The Bash sandbox cannot keep the protected entries of the writable directories read-only: that takes ${count} bubblewrap arguments (${snapshot.gitDirs.size} git folders, ${snapshot.entries.size} protected entries), more than bubblewrap accepts (${BWRAP_MAX_ARGS}), so the command was not run. Remove repositories that are not needed (${some}${repositories.length > 3 ? ', …' : ''}), or narrow the working directories and allowWrite to the folders the work needs.`,
  );
}
