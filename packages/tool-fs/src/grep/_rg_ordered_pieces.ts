import type { ChildProcess } from 'node:child_process';
import { streamRipgrep, type RipgrepStream } from '../_ripgrep.ts';
import { HeldSpill } from './_held_spill.ts';
import { isPaused, pause, resume } from './_paused_runs.ts';
import type { CutPiece } from './_rg_cut.ts';
import { type GivenMark, markGiven, newMark, type Resumption, skipGiven } from './_rg_resume.ts';
import { comparePathBytes, countRecords, dropRecords, isPathPart } from './_rg_path_order.ts';

/** Options of {@linkcode searchPiecesInOrder}. */
export interface OrderedPiecesOptions {
  /** The ripgrep executable. */
  rg: string;
  /** The folder ripgrep runs in. */
  cwd: string;
  /** Kills every run when aborted. */
  signal?: AbortSignal | undefined;
  /** Runs at once (the cores to use). */
  concurrency: number;
  /** Records (lines with a path) of the whole output already given elsewhere: left out. @default 0 */
  skipRecords?: number | undefined;
  /**
   * Output that pieces ahead of their turn may hold in memory before they are paused (or, with
   * `spillAhead`, before what they print goes to a temporary file). @default 1 MiB
   */
  heldBytes?: number | undefined;
  /**
   * Past `heldBytes`, what pieces ahead of their turn print goes on to a temporary file of each
   * ({@linkcode HeldSpill}) and they go on searching, rather than being paused: for a search of
   * which every line is wanted, where a paused piece leaves its core idle. @default false
   */
  spillAhead?: boolean | undefined;
  /**
   * With `spillAhead`: output a piece ahead may have waiting for its file's next write before the
   * pieces ahead are paused after all (a disk slower than ripgrep prints). @default 8 MiB
   */
  spillUnwrittenBytes?: number | undefined;
  /**
   * The first piece whose run writes line by line rather than 8 KB at a time, and every one after
   * it: for a page that may fill before a piece ends. @default Infinity (none)
   */
  lineBufferedFrom?: number | undefined;
  /**
   * Output after which a piece's run that writes line by line is started again writing 8 KB at
   * a time (what it gave left out of the new run's: {@linkcode skipGiven}): a write per line costs
   * ripgrep several times its search where the output is dense. @default Infinity (never)
   */
  denseBytes?: number | undefined;
  /**
   * Milliseconds the first piece goes alone once started before the others join, unless it has given
   * `soloRecords` by then (a dense search, whose page it is about to fill: the others would only
   * take a core from it). The others join when it ends either way. @default 0
   */
  soloMs?: number | undefined;
  /** See `soloMs`. @default 0 */
  soloRecords?: number | undefined;
  /** Gets the output in order, in runs of whole lines; true when it has had enough (everything stops). */
  onChunks: (bytes: Buffer) => boolean;
}

/** How {@linkcode searchPiecesInOrder} ended. */
export interface OrderedPiecesOutcome {
  /** 2 and ripgrep's complaint when a piece had one; else 0 (a line found) or 1. */
  run: Pick<RipgrepStream, 'code' | 'stderr'>;
  /** `onChunks` had enough before the last piece ended. */
  stopped: boolean;
}

/** A piece's run and what it has printed ahead of its turn. */
interface PieceRun {
  child?: ChildProcess | undefined;
  held: Buffer[];
  heldBytes: number;
  /** What it printed past the memory bound, after `held` (with `spillAhead`), until read back in its turn. */
  spill?: HeldSpill | undefined;
  /** Its spill is being read back (its turn has come). */
  draining?: boolean;
  done: boolean;
  result?: RipgrepStream;
  lineBuffered: boolean;
  /** Bytes its current child has printed. */
  printed: number;
  /** Where it had got to in what it gave or held (followed while it writes line by line). */
  given: GivenMark;
  /** How its current child (a run started again) leaves out what the one before gave. */
  resumption?: Resumption | undefined;
  /** Its children so far: what one replaced by a new one prints, or its end, is ignored. */
  generation: number;
}

/**
 * Runs one sorted ripgrep per piece ({@linkcode cutTree}'s globs), `concurrency` at once in
 * walk order, and hands their output on as one `rg --sort path` run would give it: the piece
 * whose turn it is streams straight through; the ones after it keep what they print until their
 * turn comes. Past `heldBytes` of that, they are paused (SIGSTOP) and no new piece starts, or,
 * with `spillAhead`, what they print goes on into a temporary file each, read back in their
 * turn; memory stays bounded whatever the output; each resumes when its turn comes. Once `onChunks`
 * has enough, every run is killed.
 *
 * @param args The sorted run's arguments (`--sort path` among them; a trailing `--` stays last).
 * A record whose path lies outside its piece's range (a name made after the cut, which every
 * piece prints: see {@linkcode cutTree}) is left out of every piece but its own.
 *
 * @param pieces Each piece's extra arguments (its `--glob` exclusions) and where it starts, in walk order.
 * @param options Where and how to run, and where the output goes.
 * @returns Whether it stopped early, and ripgrep's complaint if a piece had one.
 * @throws {Error} When a run cannot start, the sink throws, or with the signal's reason when aborted.
 *
 * @example
 * ```ts
 * import { cutTree, PIECE_SHARES } from './_rg_cut.ts';
 * import { searchPiecesInOrder } from './_rg_ordered_pieces.ts';
 *
 * const pieces = (await cutTree('/repo', PIECE_SHARES)) ?? [{ args: [] }];
 * await searchPiecesInOrder(['--sort', 'path', '--null', '-n', '--regexp', 'TODO', '--'], pieces, {
 *   rg: '/usr/bin/rg', cwd: '/repo', concurrency: 2, onChunks: (bytes) => { process.stdout.write(bytes); return false; },
 * });
 * ```
 */
export function searchPiecesInOrder(
  args: readonly string[],
  pieces: readonly CutPiece[],
  options: OrderedPiecesOptions,
): Promise<OrderedPiecesOutcome> {
  const { rg, cwd, signal, onChunks } = options;
  const maxHeld = options.heldBytes ?? 1024 * 1024;
  const unwrittenMax = options.spillUnwrittenBytes ?? 8 * 1024 * 1024;
  // The pieces' arguments go before a trailing `--` (after which ripgrep reads only paths).
  const end = args.at(-1) === '--' ? args.length - 1 : args.length;
  const lineBufferedFrom = options.lineBufferedFrom ?? Infinity;
  const denseBytes = options.denseBytes ?? Infinity;
  const runs: PieceRun[] = pieces.map((_, i) => newRun(i >= lineBufferedFrom));
  let skip = options.skipRecords ?? 0;
  let turn = 0;
  let started = 0;
  let running = 0;
  let held = 0;
  let finished = false;
  let concurrency = (options.soloMs ?? 0) > 0 ? 1 : options.concurrency;
  let given = 0;
  let denseSeen = false;
  let soloTimer: NodeJS.Timeout | undefined;
  // Spills read back and being removed: the search ends once they are gone.
  const removing: Promise<void>[] = [];
  return new Promise<OrderedPiecesOutcome>((resolve, reject) => {
    const widen = () => {
      clearTimeout(soloTimer);
      if (concurrency === options.concurrency) return;
      concurrency = options.concurrency;
      startMore();
    };
    const killAll = () => {
      clearTimeout(soloTimer);
      for (const run of runs) if (!run.done && run.child !== undefined) run.child.kill('SIGKILL');
    };
    // Settled once every run is killed and every file of held output removed.
    const settleOnce = (settle: () => void) => {
      if (finished) return;
      finished = true;
      killAll();
      void removeSpills(runs, removing).then(settle);
    };
    const finish = (stopped: boolean) => settleOnce(() => resolve({ run: outcomeOf(runs), stopped }));
    const fail = (error: unknown) => settleOnce(() => reject(error));
    /** Hands bytes of the piece whose turn it is on; true once the sink has had enough. */
    const give = (bytes: Buffer): boolean => {
      if (skip > 0) {
        const after = dropRecords(bytes, skip);
        skip = after.left;
        bytes = after.rest;
        if (bytes.length === 0) return false;
      }
      if (concurrency < options.concurrency) given += countRecords(bytes);
      if (!onChunks(bytes)) return false;
      finish(true);
      return true;
    };
    /** The turn passes over ended pieces, each handing on what it held; the next one streams. */
    const advance = () => {
      while (!finished && turn < runs.length) {
        const run = runs[turn]!;
        if (run.child !== undefined) resume(run.child);
        const chunks = run.held.splice(0);
        held -= run.heldBytes;
        run.heldBytes = 0;
        for (const chunk of chunks) if (give(chunk)) return;
        // What it printed past the bound is read back before its live output.
        if (run.spill !== undefined) {
          drain(run, { take: (bytes) => finished || give(bytes), removing, then: advance, fail });
          return;
        }
        if (!run.done) break;
        turn++;
        // Past the first piece, whatever its output was like.
        widen();
      }
      if (turn === runs.length) finish(false);
      else startMore();
    };
    // The piece whose turn it is always runs; the others while cores and the bound allow.
    const startMore = () => {
      while (!finished && started < runs.length && (started === turn || (running < concurrency && held <= maxHeld))) {
        running++;
        start(started++);
      }
    };
    const start = (i: number) => {
      const run = runs[i]!;
      const generation = ++run.generation;
      run.printed = 0;
      // A piece started once another has printed past denseBytes writes 8 KB at a time from the start.
      if (denseSeen) run.lineBuffered = false;
      const extra = run.lineBuffered ? ['--line-buffered'] : [];
      const pieceArgs = [...args.slice(0, end), ...extra, ...pieces[i]!.args, ...args.slice(end)];
      const from = pieces[i]!.from;
      const to = pieces[i + 1]?.from;
      streamRipgrep(rg, pieceArgs, {
        cwd,
        signal,
        separator: '\n',
        onSpawn: (child) => {
          run.child = child;
        },
        onChunks: (chunk) => {
          if (finished || generation !== run.generation) return true;
          const { bytes, dense } = intake(run, chunk, { from, to }, denseBytes);
          if (run.printed > denseBytes) denseSeen = true;
          // Dense: started again writing 8 KB at a time once this chunk is given or held.
          if (dense) queueMicrotask(() => restart(i));
          if (bytes.length === 0) return dense;
          if (i === turn && run.spill === undefined) return give(bytes) || dense;
          held += keepAhead(run, bytes, { held, max: maxHeld, spill: options.spillAhead === true });
          if (held > maxHeld || (run.spill?.unwritten ?? 0) > unwrittenMax) pauseAhead(runs, turn, started);
          return dense;
        },
      }).then(
        (result) => {
          if (generation !== run.generation) return;
          running--;
          run.done = true;
          run.result = result;
          // The sink may throw on what an ended piece held: the search rejects, every run killed.
          try {
            if (i === turn) advance();
            else startMore();
          } catch (e) {
            fail(e);
          }
        },
        (error: unknown) => {
          if (generation === run.generation) fail(error);
        },
      );
    };
    /** A piece's run writing line by line, replaced by one that writes 8 KB at a time. */
    const restart = (i: number) => {
      if (finished || runs[i]!.done) return;
      dropChild(runs[i]!);
      start(i);
    };
    startMore();
    // Timed from its start (spawning a process can take as long as the window itself).
    if (concurrency < options.concurrency) {
      soloTimer = setTimeout(() => {
        if (given < (options.soloRecords ?? 0)) widen();
      }, options.soloMs);
    }
  });
}

/**
 * The lines of `bytes` whose record's path is at or after `from` and before `to` in walk order,
 * with the lines without a path that follow a kept one (`--` separators). The output of a piece is
 * in walk order, so when its first and last records are in range, all are (the common case:
 * `bytes` itself). A chunk holding part of a path on a line of its own (a name with a line break)
 * is kept whole: its records' paths cannot be read line by line.
 *
 * @param bytes Whole lines of `--null` output.
 * @param range Its start (`from`) and end (`to`, not in it); either may be left out.
 * @returns `bytes`, or a copy without the lines out of range.
 *
 * @example
 * ```ts
 * import { inRange } from './_rg_ordered_pieces.ts';
 *
 * inRange(Buffer.from('a\u00001:x\nb\u00001:y\n'), { to: Buffer.from('b') }).toString(); // 'a\u00001:x\n'
 * ```
 */
export function inRange(bytes: Buffer, range: { from?: Buffer | undefined; to?: Buffer | undefined }): Buffer {
  const { from, to } = range;
  if (from === undefined && to === undefined) return bytes;
  const within = (path: Buffer) =>
    (from === undefined || comparePathBytes(from, path) <= 0) && (to === undefined || comparePathBytes(path, to) < 0);
  const first = firstRecordPath(bytes);
  const last = lastRecordPath(bytes);
  if ((first === undefined || within(first)) && (last === undefined || within(last))) return bytes;
  const kept: Buffer[] = [];
  let keep = true;
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length - 1;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) keep = within(bytes.subarray(pos, nul));
    else if (isPathPart(bytes.toString('utf8', pos, nl))) return bytes;
    if (keep) kept.push(bytes.subarray(pos, nl + 1));
    pos = nl + 1;
  }
  return Buffer.concat(kept);
}

/** The path of the first record (line with a NUL) in `bytes`, if any. */
function firstRecordPath(bytes: Buffer): Buffer | undefined {
  let pos = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl === -1) nl = bytes.length;
    const nul = bytes.indexOf(0, pos);
    if (nul !== -1 && nul < nl) return bytes.subarray(pos, nul);
    pos = nl + 1;
  }
  return undefined;
}

/** The path of the last record in `bytes` (whole lines), if any. */
function lastRecordPath(bytes: Buffer): Buffer | undefined {
  let end = bytes.length - 1;
  while (end > 0) {
    const start = bytes.lastIndexOf(10, end - 1) + 1;
    const nul = bytes.indexOf(0, start);
    if (nul !== -1 && nul < end) return bytes.subarray(start, nul);
    end = start - 1;
  }
  return undefined;
}

/** Bytes read back from a spill at a time: the sink's share of them comes as one chunk. */
const SPILL_READ_BYTES = 1024 * 1024;

/**
 * Reads back what the piece whose turn it is printed to its file, handing it to `take` (true:
 * the search is over), then, caught up, removes the file and goes on with the turn (`then`): the
 * run's output is live from there.
 */
function drain(
  run: PieceRun,
  hooks: { take: (bytes: Buffer) => boolean; removing: Promise<void>[]; then: () => void; fail: (e: unknown) => void },
): void {
  if (run.draining) return;
  run.draining = true;
  const spill = run.spill!;
  (async () => {
    for (
      let bytes = await spill.next(SPILL_READ_BYTES);
      bytes !== undefined;
      bytes = await spill.next(SPILL_READ_BYTES)
    ) {
      if (hooks.take(bytes)) return;
    }
    // Nothing can be appended between the last read and here (no I/O callback runs between
    // promise reactions): the run's output goes straight on from here.
    hooks.removing.push(spill.remove());
    run.spill = undefined;
    run.draining = false;
    hooks.then();
  })().catch(hooks.fail);
}

/**
 * Keeps what a piece ahead of its turn printed: in memory while the bound allows, else (with
 * `spill`, or once it has a file) at the end of its file. Returns the bytes added to memory.
 */
function keepAhead(run: PieceRun, bytes: Buffer, bound: { held: number; max: number; spill: boolean }): number {
  if (run.spill !== undefined || (bound.spill && bound.held + bytes.length > bound.max)) {
    run.spill ??= new HeldSpill();
    run.spill.append(bytes);
    return 0;
  }
  // Kept as handed over: each chunk of a child's output is memory of its own.
  run.held.push(bytes);
  run.heldBytes += bytes.length;
  return bytes.length;
}

/** Deletes the files of the runs' held output, and waits for those already being removed. */
async function removeSpills(runs: readonly PieceRun[], removing: readonly Promise<void>[]): Promise<void> {
  await Promise.all([...runs.map((run) => run.spill?.remove()), ...removing]);
}

/** A piece's run not started yet. */
function newRun(lineBuffered: boolean): PieceRun {
  return { held: [], heldBytes: 0, done: false, lineBuffered, printed: 0, given: newMark(), generation: 0 };
}

/**
 * A chunk of a piece's run, as it counts: what of it is the piece's own (not printed before by
 * a child it replaced), and whether the run, writing line by line, has printed past `denseBytes`.
 */
function intake(
  run: PieceRun,
  chunk: Buffer,
  range: { from?: Buffer | undefined; to?: Buffer | undefined },
  denseBytes: number,
): { bytes: Buffer; dense: boolean } {
  run.printed += chunk.length;
  let bytes = inRange(chunk, range);
  if (run.resumption !== undefined) bytes = skipGiven(run.resumption, bytes);
  if (run.lineBuffered) markGiven(run.given, bytes);
  return { bytes, dense: run.lineBuffered && run.printed > denseBytes };
}

/** Kills a run's child writing line by line, for one writing 8 KB at a time that leaves out what it gave. */
function dropChild(run: PieceRun): void {
  const old = run.child;
  old?.kill('SIGKILL');
  resume(old);
  run.lineBuffered = false;
  const mark = run.given;
  // By place where the records given had line numbers (read from them, not guessed from the arguments).
  run.resumption = { mark, byPlace: mark.numbered, pending: [], lines: mark.lines, done: false };
}

/** Pauses the runs of the pieces after the one whose turn it is (their held output is at its bound). */
function pauseAhead(runs: readonly PieceRun[], turn: number, started: number): void {
  for (let j = turn + 1; j < started; j++) {
    const child = runs[j]!.child;
    if (!runs[j]!.done && child !== undefined && !isPaused(child)) pause(child);
  }
}

/** The outcome of the pieces: the first complaint, else whether any found a line. */
function outcomeOf(runs: readonly PieceRun[]): Pick<RipgrepStream, 'code' | 'stderr'> {
  const complaint = runs.find((r) => r.result?.code === 2 && r.result.stderr.trim() !== '');
  if (complaint !== undefined) return { code: 2, stderr: complaint.result!.stderr };
  return { code: runs.some((r) => r.result?.code === 0) ? 0 : 1, stderr: '' };
}
