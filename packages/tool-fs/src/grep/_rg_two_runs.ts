import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { streamRipgrep, type RipgrepStream } from '../_ripgrep.ts';
import { countRecords, dropRecords, hasPathParts, inPathOrder } from './_rg_path_order.ts';
import { pause, resume } from './_paused_runs.ts';
import { PIECE_SHARES } from './_rg_cut.ts';
import { cachedCutTree } from './_rg_cut_cache.ts';
import { searchPiecesInOrder } from './_rg_ordered_pieces.ts';

/** Pages up to this many lines are written by ripgrep line by line (its buffer holds about 130 such lines). */
const SMALL_PAGE_LINES = 100;

/**
 * Output of a piece written line by line past which its run is started again writing 8 KB at a
 * time: about 3 000 lines, a few milliseconds of writes one line each, which cost ripgrep six
 * times its search where every line matches.
 */
export const DENSE_BYTES = 256 * 1024;

/** Options of {@linkcode searchInPathOrder}. */
export interface TwoRunsOptions {
  /** The folder ripgrep runs in. */
  cwd: string;
  /** Kills both runs when aborted. */
  signal?: AbortSignal | undefined;
  /** Output pieces ahead of their turn may hold (or the unsorted run reach) before they are paused (it is given up). @default 1 MiB */
  unsortedBytes?: number | undefined;
  /**
   * Milliseconds the first piece (or, where the tree is not cut, the sorted run) goes on alone
   * before others join (unless it has by then given a third of `pageLines`). @default 15
   */
  pauseSortedAfterMs?: number | undefined;
  /** Lines the sink takes before it is full (offset + limit); unset for every line. */
  pageLines?: number | undefined;
  /**
   * The shares of the tree its pieces cover (see {@linkcode cachedCutTree}); empty never to cut it.
   * @default PIECE_SHARES for a page, one share per core for every line
   */
  pieceShares?: readonly number[] | undefined;
  /**
   * Output after which a piece's run that writes line by line is started again writing 8 KB at a
   * time. @default DENSE_BYTES
   */
  denseBytes?: number | undefined;
  /** Cores to search on. @default os.availableParallelism() */
  cores?: number | undefined;
}

/** How {@linkcode searchInPathOrder} ended. */
export interface TwoRunsOutcome {
  /** Exit code and complaint of the run whose output was used. */
  run: Pick<RipgrepStream, 'code' | 'stderr'>;
  /** The sink filled up (`onChunks` said so) before the output ended. */
  stopped: boolean;
  /** Which run's output completed the search: the sorted run, the unsorted one, or sorted pieces. */
  used: 'sorted' | 'unsorted' | 'pieces';
}

/**
 * Runs a content search of a folder so that its lines reach `onChunks` in path order, as
 * `rg --sort path` prints them, at the speed of ripgrep on every core where that matters.
 *
 * `--sort path` makes ripgrep search on one thread: right for a page that fills early (it stops
 * there, and each page is the same page every time), slow for a sparse search, where the walk
 * and the search are all the work. So the folder is cut into pieces in walk order
 * ({@linkcode cachedCutTree}: a few folders read, `--glob` exclusions, reused by the searches of
 * the next half minute), each searched by its own sorted
 * run, as many at once as there are cores, their output handed on piece after piece
 * ({@linkcode searchPiecesInOrder}): the lines of one sorted run, on every core, and a page stops
 * every run once it is full. For every line, a piece per core, each going on into a temporary
 * file past the memory bound while the pieces before it stream. For a page, four pieces in two
 * rounds, the first going alone for a few milliseconds, and on alone while it gives a third of
 * the page by then (a dense search, which a second run would only slow).
 *
 * Where the tree cannot be cut (one core, a name no glob can say), the older way: the sorted run
 * starts alone; if it has not ended after a few milliseconds, nor given a third of its page, it
 * is paused (SIGSTOP) and an unsorted run on every core starts, whose output is kept while it
 * stays small: if it ends within its bound, its output is put in path order and handed on after
 * the lines the sorted run had already given; if it outgrows the bound, it is stopped and the
 * sorted run resumes where it was (SIGCONT). Memory stays within the bound either way.
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
  const cores = options.cores ?? os.availableParallelism();
  const page = Number.isFinite(options.pageLines ?? Infinity);
  // A page: pieces in two rounds on every core. Every line: a piece per core.
  const shares = options.pieceShares ?? (page ? PIECE_SHARES : Array.from({ length: cores }, () => 1 / cores));
  const pieces =
    args.includes('--sort') && cores > 1 && shares.length > 1 ? await cachedCutTree(cwd, shares) : undefined;
  if (pieces !== undefined) {
    signal?.throwIfAborted();
    const outcome = await searchPiecesInOrder(args, pieces, {
      rg,
      cwd,
      signal,
      concurrency: cores,
      heldBytes: options.unsortedBytes,
      // Every line is wanted: past the memory bound, a piece ahead goes on searching into a
      // temporary file (paused, it left its core idle for half the search: every line 1.4x `rg`).
      spillAhead: !page,
      // For a page, the first piece goes alone for a moment, and on alone if it is filling the
      // page fast (a dense search: a second run would only take a core from it).
      soloMs: page ? (options.pauseSortedAfterMs ?? 15) : 0,
      soloRecords: page ? options.pageLines! / 3 : 0,
      // A page may end inside a piece whose output is less than ripgrep's 8 KB at a time: lines
      // come as found, from every piece of a small page, and from the pieces after the first of
      // any page (the first goes on alone only where its output is dense).
      lineBufferedFrom: !page ? Infinity : options.pageLines! <= SMALL_PAGE_LINES ? 0 : 1,
      // Dense output written line by line costs ripgrep several times its search (a page of half
      // the tree's lines: 3.6x \`rg | head\`): such a piece is started again writing 8 KB at a time.
      denseBytes: options.denseBytes ?? DENSE_BYTES,
      onChunks,
    });
    return { ...outcome, used: 'pieces' };
  }
  let sortedChild: ChildProcess | undefined;
  let unsortedChild: ChildProcess | undefined;
  let handedOff = false;
  let sortedDone = false;
  let sinkFull = false;
  // Lines the sorted run has given, counted only while the unsorted run may still take over.
  let counting = true;
  let given = 0;
  const sortAt = args.indexOf('--sort');
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
      if (counting) given += countRecords(bytes);
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
  const rest = dropRecords(inPathOrder(output), given).rest;
  const stopped = rest.length > 0 && onChunks(rest);
  return { run: wide, stopped, used: 'unsorted' };
}
