import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { ToolshedError } from '@toolshed/core';

/**
 * The error code when the sandbox is on and bubblewrap cannot be found.
 *
 * @example
 * ```ts
 * if (ToolshedError.isInstance(e) && e.code === SANDBOX_UNAVAILABLE) console.error(e.message);
 * ```
 */
export const SANDBOX_UNAVAILABLE = 'shell_sandbox_unavailable';

/** What {@linkcode bwrapArguments} needs. */
export interface SandboxSpec {
  /** Directories the command may write (the working directories, `allowWrite`). */
  writable: readonly string[];
  /** Allow the network. */
  network: boolean;
  /** The directory the command starts in. */
  cwd: string;
}

/**
 * Entries inside writable directories that stay read-only: hooks and settings that would let a command escape later.
 *
 * @example
 * ```ts
 * SANDBOX_PROTECTED.includes('.git/hooks'); // true
 * ```
 */
export const SANDBOX_PROTECTED: readonly string[] = ['.git/hooks', '.git/config', '.toolshed', '.claude', '.mcp.json'];

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
 * findBwrap(); // '/usr/bin/bwrap'
 * ```
 */
export function findBwrap(preferred?: string): string {
  const candidates = preferred
    ? [preferred]
    : [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'bwrap')), '/usr/bin/bwrap'];
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
 * `/tmp`, the writable directories bound read-write (their git hooks and config, `.toolshed`,
 * `.claude` and `.mcp.json` kept read-only, so a sandboxed command cannot plant what runs
 * unsandboxed later), no network unless allowed, its own PID namespace, and death with the parent.
 *
 * @param spec What is writable, the network, the start directory.
 * @returns The arguments to put before the shell and its `-c script`.
 *
 * @example
 * ```ts
 * spawn(findBwrap(), [...bwrapArguments({ writable: ['/p'], network: false, cwd: '/p' }), 'bash', '-c', 'ls']);
 * ```
 */
export function bwrapArguments(spec: SandboxSpec): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const dir of spec.writable) {
    if (existsSync(dir)) args.push('--bind', dir, dir);
  }
  for (const dir of spec.writable) {
    for (const entry of SANDBOX_PROTECTED) {
      const protectedEntry = path.join(dir, entry);
      if (existsSync(protectedEntry)) args.push('--ro-bind', protectedEntry, protectedEntry);
    }
  }
  if (!spec.network) args.push('--unshare-net');
  args.push('--unshare-pid', '--die-with-parent', '--chdir', spec.cwd);
  return args;
}
