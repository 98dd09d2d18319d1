import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live (not zombie) processes whose command line contains a marker: how tests check that a
 * killed command left no orphans behind.
 *
 * @param marker A string unique to the test, such as `sleep 1000.<random>`'s argument.
 * @returns The pids.
 *
 * @example
 * ```ts
 * expect(liveProcessesWith('1000.123456')).toEqual([]);
 * ```
 */
export function liveProcessesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && state !== 'X') pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/**
 * A unique `sleep` duration: its text in the process list is the marker.
 *
 * @returns For example `1000.482913`.
 *
 * @example
 * ```ts
 * const marker = uniqueSleep();
 * await runCommand(`sleep ${marker} & sleep ${marker}`, { cwd, timeoutMs: 300 });
 * ```
 */
export function uniqueSleep(): string {
  return `1000.${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
}
