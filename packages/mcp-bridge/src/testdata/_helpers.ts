// Test helpers: where the npm-installed MCP servers live, free ports, and a child process that
// announces it is listening.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(PACKAGE_DIR, 'node_modules', '.bin');
export const EVERYTHING = path.join(BIN, 'mcp-server-everything');
export const FILESYSTEM = path.join(BIN, 'mcp-server-filesystem');
export const INSPECTOR = path.join(BIN, 'mcp-inspector');
export const FAULT_SERVER = path.join(PACKAGE_DIR, 'src', 'testdata', 'fault_server.mjs');
export const BAD_START_SERVER = path.join(PACKAGE_DIR, 'src', 'testdata', 'bad_start_server.mjs');
export const NAMED_TOOLS_SERVER = path.join(PACKAGE_DIR, 'src', 'testdata', 'named_tools_server.mjs');
export const LOG_FLOOD_SERVER = path.join(PACKAGE_DIR, 'src', 'testdata', 'log_flood_server.mjs');

/** A port that was free a moment ago, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a process and resolves once its output matches `ready` (or rejects when it exits first). */
export function startProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ready: RegExp; cwd?: string },
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      cwd: options.cwd ?? PACKAGE_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (options.ready.test(output)) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code} before it was ready: ${output}`)));
  });
}

/** Kills a child and waits for it to exit. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
