import type { ChildProcess } from 'node:child_process';

/** Runs paused by a search in this process: killed if the process exits or is stopped meanwhile. */
const pausedRuns = new Set<ChildProcess>();

/** The signals that end a Node process by default (their default action would leave a paused run stopped). */
const ENDING_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Stops `child` (SIGSTOP) until {@linkcode resume}. A stopped process outlives its parent: left
 * when Node exits mid-search (`process.exit`, or SIGTERM, SIGINT or SIGHUP, whose default action
 * runs no `exit` listener), it would sit stopped until the machine restarts. So while a run is
 * paused, every paused run is killed on the way out; a signal nothing else listens for is then
 * raised again, so that the process ends as it would have.
 *
 * @param child A running ripgrep.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { pause, resume } from './_paused_runs.ts';
 *
 * const child = spawn('rg', ['TODO']);
 * pause(child);
 * resume(child);
 * ```
 */
export function pause(child: ChildProcess): void {
  if (!child.kill('SIGSTOP')) return;
  if (pausedRuns.size === 0) {
    process.once('exit', killPausedRuns);
    for (const signal of ENDING_SIGNALS) process.on(signal, onEndingSignal);
  }
  pausedRuns.add(child);
  child.once('exit', () => forget(child));
}

/**
 * Lets a run {@linkcode pause} stopped go on; nothing for one that is not paused.
 *
 * @param child The run, or undefined.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { pause, resume } from './_paused_runs.ts';
 *
 * const child = spawn('rg', ['TODO']);
 * pause(child);
 * resume(child); // SIGCONT
 * ```
 */
export function resume(child: ChildProcess | undefined): void {
  if (child === undefined || !pausedRuns.has(child)) return;
  child.kill('SIGCONT');
  forget(child);
}

function forget(child: ChildProcess): void {
  if (!pausedRuns.delete(child) || pausedRuns.size > 0) return;
  stopWatching();
}

function stopWatching(): void {
  process.removeListener('exit', killPausedRuns);
  for (const signal of ENDING_SIGNALS) process.removeListener(signal, onEndingSignal);
}

function killPausedRuns(): void {
  for (const child of pausedRuns) child.kill('SIGKILL');
  pausedRuns.clear();
}

function onEndingSignal(signal: NodeJS.Signals): void {
  // Only this listener: Node's default action (ending the process) was given up for it.
  const alone = process.listenerCount(signal) === 1;
  killPausedRuns();
  stopWatching();
  if (alone) process.kill(process.pid, signal);
}

/**
 * Whether `child` is stopped by {@linkcode pause} (and not yet resumed).
 *
 * @param child A run.
 * @returns True while it is paused.
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { isPaused, pause } from './_paused_runs.ts';
 *
 * const child = spawn('rg', ['TODO']);
 * pause(child);
 * isPaused(child); // true
 * ```
 */
export function isPaused(child: ChildProcess): boolean {
  return pausedRuns.has(child);
}
