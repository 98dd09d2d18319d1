// Runs the real `toolshed` in a child process (the bundle, or the sources when the bundle is
// older than them: see _test_cli.ts), for tests that must see what a user's shell would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cliNodeArgs } from './_test_cli.ts';

/** A running `toolshed` process and what it has printed so far. */
export interface ToolshedProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in stderr (rejects when the process ends first). */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
}

/** Starts `toolshed ARGS` with `HOME` set to `home` (and `env` on top), in `cwd`. */
export function startToolshed(
  args: readonly string[],
  options: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string },
): ToolshedProcess {
  const child = spawn(process.execPath, [...cliNodeArgs(), ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, TOOLSHED_DEBUG: '', HOME: options.home, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const l of listeners) l();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForStderr(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = err.match(pattern);
          if (m) {
            listeners.delete(check);
            resolve(m);
          }
        };
        listeners.add(check);
        check();
        void exited.then(() => {
          if (listeners.has(check)) reject(new Error(`toolshed exited before printing ${pattern}; stderr:\n${err}`));
        });
      });
    },
  };
}

/** Runs `toolshed ARGS` to the end. */
export async function runToolshed(
  args: readonly string[],
  options: { home: string; cwd?: string; env?: Record<string, string>; stdin?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startToolshed(args, { stdin: '', ...options });
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}
