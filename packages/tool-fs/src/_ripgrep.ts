import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
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
 * import { findRipgrep } from './_ripgrep.ts';
 *
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
 * import { runRipgrep } from './_ripgrep.ts';
 *
 * const run = await runRipgrep('/usr/bin/rg', ['--files'], { cwd: '/repo' });
 * ```
 */
export function runRipgrep(
  rg: string,
  args: readonly string[],
  options: { cwd: string; signal?: AbortSignal },
): Promise<RipgrepRun> {
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

/** What {@linkcode streamRipgrep} returns. */
export interface RipgrepStream {
  /** 0 matches, 1 none, 2 an error; null when stopped by a signal (see `stopped`). */
  code: number | null;
  /** ripgrep's complaint (its first 64 KB). */
  stderr: string;
  /** The caller stopped it (its `onRecord` returned true): the child was sent SIGTERM. */
  stopped: boolean;
  /** The signal the child died of, if any. */
  signal: NodeJS.Signals | null;
}

/**
 * How ripgrep names the file a caller hands it as fd 3 ({@linkcode StreamRipgrepOptions.fd3}),
 * in its arguments and in its output.
 */
export const FD3_PATH = '/dev/fd/3';

/** Options of {@linkcode streamRipgrep}. */
export interface StreamRipgrepOptions {
  /**
   * The folder ripgrep runs in. `/proc/self/fd/N` runs it in a folder this process holds open:
   * the child changes to it before exec closes its copy of fd N, so it lands in the folder opened,
   * wherever the folder's path leads by then.
   */
  cwd: string;
  /**
   * A file this process opened, given to ripgrep as its fd 3 (name it {@linkcode FD3_PATH} in the
   * arguments): ripgrep then searches that file, not what a path leads to by the time it runs.
   */
  fd3?: number | undefined;
  signal?: AbortSignal | undefined;
  /** What ends one record of the output: `\n` for lines, `\0` for `--files-with-matches --null`. */
  separator: '\n' | '\0';
  /** Called for each record, in order; return true to stop ripgrep (nothing more is read). */
  onRecord?: ((record: string) => boolean | void) | undefined;
  /**
   * Instead of `onRecord`: called with each run of whole records as it comes (every one ends with
   * the separator), for a caller that walks them itself rather than have each cut out; return
   * true to stop ripgrep.
   */
  onRecords?: ((records: string) => boolean | void) | undefined;
  /**
   * Instead of `onRecord` and `onRecords`: each run of whole records as the bytes ripgrep wrote
   * (every run ends with the separator, so it is never cut inside a character), for a caller that
   * passes output on without decoding it; the caller may change the bytes. Return true to stop.
   */
  onChunks?: ((records: Buffer) => boolean | void) | undefined;
  /** Called with the child once spawned (to pause, resume or stop it from outside). */
  onSpawn?: ((child: ChildProcess) => void) | undefined;
}

const MAX_STDERR = 64 * 1024;

/**
 * Runs ripgrep without a shell, with the user's ripgrep config ignored, and hands its output
 * to `onRecord` record by record as it comes, so that nothing but the current chunk is held;
 * once `onRecord` returns true, ripgrep is sent SIGTERM (SIGKILL if it is still there a second
 * later) and the rest of its output is dropped. Resolves when the child has exited.
 *
 * @param rg The executable.
 * @param args The arguments (after `--no-config`).
 * @param options The folder, the record separator, the callback and an abort signal (kills rg).
 * @returns How ripgrep ended.
 * @throws {Error} When rg cannot be started, or with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * import { streamRipgrep } from './_ripgrep.ts';
 *
 * const lines: string[] = [];
 * await streamRipgrep('/usr/bin/rg', ['-n', 'TODO'], { cwd: '/repo', separator: '\n', onRecord: (l) => lines.push(l) >= 10 });
 * ```
 */
export function streamRipgrep(
  rg: string,
  args: readonly string[],
  options: StreamRipgrepOptions,
): Promise<RipgrepStream> {
  return new Promise((resolve, reject) => {
    options.signal?.throwIfAborted();
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
    if (options.fd3 !== undefined) stdio.push(options.fd3);
    const child = spawn(rg, ['--no-config', ...args], { cwd: options.cwd, stdio });
    options.onSpawn?.(child);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let stderr = '';
    let stopped = false;
    let failed: Error | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      rest = '';
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 1000);
      killTimer.unref();
    };
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const onRecords = options.onRecords;
    const feed = (text: string) => {
      rest += text;
      if (onRecords !== undefined) {
        const end = rest.lastIndexOf(options.separator);
        if (end === -1) return;
        const records = end === rest.length - 1 ? rest : rest.slice(0, end + 1);
        rest = rest.slice(end + 1);
        let done: boolean | void;
        try {
          done = onRecords(records);
        } catch (e) {
          failed = e as Error;
          done = true;
        }
        if (done) stop();
        return;
      }
      const onRecord = options.onRecord!;
      let at = 0;
      for (let end = rest.indexOf(options.separator, at); end !== -1; end = rest.indexOf(options.separator, at)) {
        const record = rest.slice(at, end);
        at = end + 1;
        let done: boolean | void;
        try {
          done = onRecord(record);
        } catch (e) {
          failed = e as Error;
          done = true;
        }
        if (done) return stop();
      }
      rest = rest.slice(at);
    };
    const onChunks = options.onChunks;
    const sepByte = options.separator.charCodeAt(0);
    let restBytes: Buffer | undefined;
    const give = (records: Buffer): boolean => {
      let done: boolean | void;
      try {
        done = onChunks!(records);
      } catch (e) {
        failed = e as Error;
        done = true;
      }
      if (done) {
        restBytes = undefined;
        stop();
      }
      return done === true;
    };
    // Only the record cut by a chunk's end is copied (joined with the next chunk's start), not
    // every chunk: output of every line is tens of megabytes.
    const feedBytes = (bytes: Buffer) => {
      let from = 0;
      if (restBytes !== undefined) {
        const first = bytes.indexOf(sepByte);
        if (first === -1) {
          restBytes = Buffer.concat([restBytes, bytes]);
          return;
        }
        const joined = Buffer.concat([restBytes, bytes.subarray(0, first + 1)]);
        restBytes = undefined;
        if (give(joined)) return;
        from = first + 1;
      }
      const end = bytes.lastIndexOf(sepByte);
      if (end < from) {
        if (from < bytes.length) restBytes = Buffer.from(bytes.subarray(from));
        return;
      }
      if (end + 1 < bytes.length) restBytes = Buffer.from(bytes.subarray(end + 1));
      give(from === 0 && end === bytes.length - 1 ? bytes : bytes.subarray(from, end + 1));
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      if (stopped) return;
      if (onChunks !== undefined) feedBytes(chunk);
      else feed(decoder.write(chunk));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += chunk.toString('utf8');
    });
    child.on('error', (e) => {
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      reject(new Error(`Could not run ripgrep (${rg}): ${e.message}`));
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      if (options.signal?.aborted) return reject(options.signal.reason ?? new Error('aborted'));
      if (failed) return reject(failed);
      if (!stopped && onChunks !== undefined) {
        if (restBytes !== undefined) feedBytes(Buffer.from(options.separator));
      } else if (!stopped) {
        const tail = decoder.end();
        if (rest + tail !== '') feed(tail + options.separator);
      }
      resolve({ code, stderr, stopped, signal });
    });
  });
}
