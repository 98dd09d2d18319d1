import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Where ripgrep is: `RIPGREP_PATH` when set, else `rg` on `PATH`.
 *
 * @param env The environment to look in.
 * @returns The executable's path, or undefined when there is none.
 *
 * @example
 * ```ts
 * findRipgrep(); // '/usr/bin/rg'
 * ```
 */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.RIPGREP_PATH;
  if (explicit) return isExecutable(explicit) ? explicit : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What {@linkcode runRipgrep} returns. */
export interface RipgrepRun {
  /** 0 matches, 1 none, 2 an error (possibly with matches too). */
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs ripgrep without a shell, with the user's ripgrep config ignored, and collects its output.
 *
 * @param rg The executable.
 * @param args The arguments (after `--no-config`).
 * @param options The folder to run in and an abort signal (kills rg).
 * @returns Exit code and output.
 * @throws {Error} When rg cannot be started, or with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * const run = await runRipgrep('/usr/bin/rg', ['--files'], { cwd: '/repo' });
 * ```
 */
export function runRipgrep(rg: string, args: readonly string[], options: { cwd: string; signal?: AbortSignal }): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const child = spawn(rg, ['--no-config', ...args], { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(new Error(`Could not run ripgrep (${rg}): ${e.message}`));
    });
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) return reject(options.signal.reason ?? new Error('aborted'));
      resolve({ code: code ?? 2, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}
