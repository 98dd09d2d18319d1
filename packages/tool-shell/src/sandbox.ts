import { accessSync, constants, existsSync, lstatSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { ToolshedError } from '@toolshed/core';
import { gitConfiguredPaths } from '@toolshed/core/internal';

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
 * Entries inside writable directories that stay read-only: hooks and settings that would let a command escape later.
 *
 * @example
 * ```ts
 * import { SANDBOX_PROTECTED } from '@toolshed/tool-shell/internal';
 *
 * SANDBOX_PROTECTED.includes('.git/hooks'); // true
 * ```
 */
export const SANDBOX_PROTECTED: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.toolshed',
  '.claude',
  '.mcp.json',
  '.husky',
];

/**
 * The protected entries of the writable directories that do not exist yet, so that
 * {@linkcode quarantineCreated} can tell which ones a sandboxed command created. bubblewrap can
 * only keep an existing path read-only; `.git/hooks` counts only where `.git` exists.
 *
 * @param writable The writable directories.
 * @returns Absolute paths of missing protected entries.
 *
 * @example
 * ```ts
 * import { missingProtectedEntries } from '@toolshed/tool-shell/internal';
 *
 * missingProtectedEntries(['/p']); // ['/p/.toolshed', '/p/.claude', '/p/.mcp.json', '/p/.husky'] in a fresh project
 * ```
 */
export function missingProtectedEntries(writable: readonly string[]): string[] {
  const missing: string[] = [];
  for (const dir of writable) {
    for (const entry of SANDBOX_PROTECTED) {
      const full = path.join(dir, entry);
      if (existsSync(full)) continue;
      // A command may make a repository (`git init`); it may not add hooks to an existing one.
      if (entry.startsWith('.git/') && (!existsSync(path.join(dir, '.git')) || entry === '.git/config')) continue;
      missing.push(full);
    }
  }
  // The hooks folder and the included config files a repository's config names, not made yet.
  for (const kept of gitKept(writable)) if (!existsSync(kept)) missing.push(kept);
  return missing;
}

/**
 * The hooks folders and config files the git config of the writable directories' repositories
 * names ({@linkcode gitConfiguredPaths}) that lie inside a writable directory.
 */
function gitKept(writable: readonly string[]): string[] {
  const { hooks, configs } = gitConfiguredPaths(writable, os.homedir());
  return [...hooks, ...configs].filter((kept) => writable.some((dir) => kept.startsWith(`${dir}/`)));
}

/**
 * Moves protected entries a sandboxed command created (settings, `.mcp.json`, git hooks, which
 * would run outside the sandbox later) into a quarantine directory.
 *
 * @param missing What {@linkcode missingProtectedEntries} returned before the command.
 * @param quarantineDir Where to move them.
 * @returns One note per moved entry, for the model.
 *
 * @example
 * ```ts
 * import { missingProtectedEntries, quarantineCreated } from '@toolshed/tool-shell/internal';
 *
 * const before = missingProtectedEntries(['/p']);
 * // … the command runs …
 * quarantineCreated(before, '/state/sandbox-quarantine'); // ['The sandbox does not let commands create /p/.mcp.json; …']
 * ```
 */
export function quarantineCreated(missing: readonly string[], quarantineDir: string): string[] {
  const notes: string[] = [];
  for (const entry of missing) {
    if (!existsSync(entry)) continue;
    const target = path.join(quarantineDir, `${Date.now()}-${entry.replace(/[\\/]/g, '_')}`);
    try {
      mkdirSync(quarantineDir, { recursive: true });
      renameSync(entry, target);
      notes.push(
        `The sandbox does not let commands create ${entry} (it would act outside the sandbox later); it was moved to ${target}. Use the Write or Edit tool, which asks for approval.`,
      );
    } catch (e) {
      notes.push(
        `The sandboxed command created ${entry}, which acts outside the sandbox, and it could not be moved away (${(e as Error).message}); check it before trusting it.`,
      );
    }
  }
  return notes;
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
 * `/tmp`, the writable directories bound read-write (their git hooks and config, the hooks folder
 * their config names and the files it includes, `.husky`, `.toolshed`, `.claude` and `.mcp.json` kept read-only, so a sandboxed command cannot plant what runs
 * unsandboxed later), no network unless allowed, a seccomp program when given (see
 * {@linkcode unixSocketFilter}), `masked` paths hidden (an empty tmpfs over a folder, an empty
 * file over a file), its own PID namespace, and death with the parent.
 *
 * @param spec What is writable, the network, the start directory.
 * @returns The arguments to put before the shell and its `-c script`.
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
  for (const dir of spec.writable) {
    if (existsSync(dir)) args.push('--bind', dir, dir);
  }
  for (const dir of spec.writable) {
    // `.git` bound onto itself is a mount point, which cannot be renamed: otherwise
    // `mv .git .git2 && mkdir -p .git/hooks` would leave the read-only hooks behind.
    const parents = new Set(
      SANDBOX_PROTECTED.filter((e) => e.includes('/')).map((e) => path.join(dir, path.dirname(e))),
    );
    for (const parent of parents) if (existsSync(parent)) args.push('--bind', parent, parent);
    for (const entry of SANDBOX_PROTECTED) {
      const protectedEntry = path.join(dir, entry);
      if (existsSync(protectedEntry)) args.push('--ro-bind', protectedEntry, protectedEntry);
    }
  }
  // The hooks folder a repository's config names (`core.hooksPath`), which git runs as it runs
  // `.git/hooks`, and the files that config includes, git config as much as `.git/config` is.
  // Outside the writable directories they are read-only already.
  for (const kept of gitKept(spec.writable)) {
    if (!existsSync(kept)) continue;
    // Each folder between the writable directory and it bound onto itself, so that none can be
    // renamed away (`mv scripts old && mkdir -p scripts/hooks`): a mount point cannot be.
    const dir = spec.writable.find((d) => kept.startsWith(`${d}/`))!;
    const between: string[] = [];
    for (let above = path.dirname(kept); above.startsWith(`${dir}/`); above = path.dirname(above))
      between.unshift(above);
    for (const above of between) args.push('--bind', above, above);
    args.push('--ro-bind', kept, kept);
  }
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
  return args;
}
