import type { ChildProcess } from 'node:child_process';
import { streamRipgrep, type RipgrepStream } from '../_ripgrep.ts';
import { hasPathParts, inPathOrder } from './_rg_path_order.ts';

/** Options of {@linkcode searchInPathOrder}. */
export interface TwoRunsOptions {
  /** The folder ripgrep runs in. */
  cwd: string;
  /** Kills both runs when aborted. */
  signal?: AbortSignal | undefined;
  /** Output the unsorted run may reach before it is given up. @default 1 MiB */
  unsortedBytes?: number | undefined;
  /**
   * Milliseconds the sorted run goes on alone before it is paused for an unsorted one (unless it
   * has by then given a third of `pageLines`). @default 15
   */
  pauseSortedAfterMs?: number | undefined;
  /** Lines the sink takes before it is full (offset + limit); unset for every line. */
  pageLines?: number | undefined;
}

/** How {@linkcode searchInPathOrder} ended. */
export interface TwoRunsOutcome {
  /** Exit code and complaint of the run whose output was used. */
  run: Pick<RipgrepStream, 'code' | 'stderr'>;
  /** The sink filled up (`onChunks` said so) before the output ended. */
  stopped: boolean;
  /** Which run's output completed the search. */
  used: 'sorted' | 'unsorted';
}

/**
 * Runs a content search of a folder so that its lines reach `onChunks` in path order, as
 * `rg --sort path` prints them, at the speed of ripgrep on every core where that matters.
 *
 * `--sort path` makes ripgrep search on one thread: right for a page that fills early (it stops
 * there, and each page is the same page every time), slow for a sparse search, where the walk
 * and the search are all the work. So the sorted run starts alone, streaming into `onChunks` as
 * before. If it has not ended after a few milliseconds, nor given a third of its page (a dense
 * search, which soon fills it), it is paused (SIGSTOP) and an unsorted run on every core starts,
 * whose output is kept while it stays small: if it ends within its bound, its output is put in
 * path order and handed on after the lines the sorted run had already given; if it outgrows the
 * bound, it is stopped and the sorted run resumes where it was (SIGCONT). Memory stays within
 * the bound either way.
 *
 * @param args ripgrep's arguments for the sorted run (they hold `--sort path`).
 * @param options The executable's path as `rg`, where to run, the signal, the callback (true stops).
 * @returns Which run was used, how it ended, and whether the sink filled up.
 *
 * @example
 * ```ts
 * import { searchInPathOrder } from './_rg_two_runs.ts';
 *
 * await searchInPathOrder(['--sort', 'path', '--null', '-n', '--regexp', 'TODO'], {
 *   rg: '/usr/bin/rg', cwd: '/repo', onChunks: (bytes) => { process.stdout.write(bytes); return false; },
 * });
 * ```
 */
export async function searchInPathOrder(
  args: readonly string[],
  options: TwoRunsOptions & { rg: string; onChunks: (bytes: Buffer) => boolean },
): Promise<TwoRunsOutcome> {
  const { rg, cwd, signal, onChunks } = options;
  let sortedChild: ChildProcess | undefined;
  let unsortedChild: ChildProcess | undefined;
  let handedOff = false;
  let sortedDone = false;
  let sinkFull = false;
  // Lines the sorted run has given, counted only while the unsorted run may still take over.
  let counting = true;
  let given = 0;
  const sorted = streamRipgrep(rg, args, {
    cwd,
    signal,
    separator: '\n',
    onSpawn: (child) => {
      sortedChild = child;
    },
    onChunks: (bytes) => {
      if (handedOff) return true;
      // Counted before the sink sees them: it may rewrite the bytes.
      if (counting) given += recordsIn(bytes);
      sinkFull = onChunks(bytes);
      // Output already in the pipe can fill the page of a paused run: it must run to take the SIGTERM.
      if (sinkFull) resume(sortedChild);
      return sinkFull;
    },
  }).finally(() => {
    sortedDone = true;
    // The page is full or the walk is over: the unsorted run has nothing left to add.
    if (!handedOff) unsortedChild?.kill('SIGKILL');
  });
  // Handled here too: it may end (an abort) while the unsorted run is awaited.
  sorted.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    sorted.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.pauseSortedAfterMs ?? 15);
    }),
  ]);
  clearTimeout(timer);
  // Ended, full, or on course to fill its page soon (or not sorted at all): the run goes on alone.
  const sortAt = args.indexOf('--sort');
  if (sortedDone || sinkFull || sortAt === -1 || given * 3 >= (options.pageLines ?? Number.POSITIVE_INFINITY)) {
    counting = false;
    const run = await sorted;
    return { run, stopped: run.stopped, used: 'sorted' };
  }
  if (sortedChild !== undefined) pause(sortedChild);
  const unsortedArgs = [...args.slice(0, sortAt), ...args.slice(sortAt + 2)];
  const maxBytes = options.unsortedBytes ?? 1024 * 1024;
  const chunks: Buffer[] = [];
  let total = 0;
  let wide: RipgrepStream;
  try {
    wide = await streamRipgrep(rg, unsortedArgs, {
      cwd,
      signal,
      separator: '\n',
      onSpawn: (child) => {
        unsortedChild = child;
      },
      onChunks: (bytes) => {
        if (sortedDone) return true;
        total += bytes.length;
        if (total > maxBytes) {
          counting = false;
          return true;
        }
        // Kept as handed over: each chunk of a child's output is memory of its own.
        chunks.push(bytes);
        return false;
      },
    });
  } catch (e) {
    sortedChild?.kill('SIGKILL');
    await sorted.catch(() => {});
    throw e;
  }
  const output = Buffer.concat(chunks, total);
  // A name with a line break reads as two lines: its records are not sorted or counted the same
  // way here as line by line (nor safely: see isPathPart), so the sorted run gives them.
  if (sortedDone || wide.stopped || wide.signal !== null || hasPathParts(output)) {
    counting = false;
    resume(sortedChild);
    const run = await sorted;
    return { run, stopped: run.stopped, used: 'sorted' };
  }
  handedOff = true;
  // SIGKILL, as a stopped process would keep a SIGTERM pending.
  sortedChild?.kill('SIGKILL');
  await sorted.catch(() => {});
  if (sinkFull) return { run: wide, stopped: true, used: 'sorted' };
  const rest = afterRecords(inPathOrder(output), given);
  const stopped = rest.length > 0 && onChunks(rest);
  return { run: wide, stopped, used: 'unsorted' };
}

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
 */
function pause(child: ChildProcess): void {
  if (!child.kill('SIGSTOP')) return;
  if (pausedRuns.size === 0) {
    process.once('exit', killPausedRuns);
    for (const signal of ENDING_SIGNALS) process.on(signal, onEndingSignal);
  }
  pausedRuns.add(child);
  child.once('exit', () => forget(child));
}

/** Lets a run {@linkcode pause} stopped go on; nothing for one that is not paused. */
function resume(child: ChildProcess | undefined): void {
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

/** Lines with a path (`path\0…\n`) in a run of ripgrep's `--null` output; `--` separators are not. */
function recordsIn(bytes: Buffer): number {
  let count = 0;
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) count++;
    pos = nl + 1;
  }
  return count;
}

/**
 * What follows the first `count` lines of `sorted` (which has no separator lines).
 *
 * @param sorted Lines, each ending in `\n`.
 * @param count How many to skip.
 * @returns The rest, as a view of `sorted`.
 *
 * @example
 * ```ts
 * import { afterRecords } from './_rg_two_runs.ts';
 *
 * afterRecords(Buffer.from('a\n\nb\n'), 1).toString(); // '\nb\n'
 * ```
 */
export function afterRecords(sorted: Buffer, count: number): Buffer {
  let pos = 0;
  for (let i = 0; i < count && pos < sorted.length; i++) {
    const nl = sorted.indexOf(10, pos);
    pos = nl === -1 ? sorted.length : nl + 1;
  }
  return sorted.subarray(pos);
}
