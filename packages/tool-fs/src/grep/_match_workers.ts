import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type MatchOp, type MatchOpResult, runMatchOp } from './_match_ops.ts';
import type { CompiledPattern } from './_pattern.ts';
import type { GrepQuery } from './_types.ts';

/** How long a worker returned by the last search is kept warm for the next one. */
const IDLE_MS = 30_000;

/**
 * Run from sources (tests, `tsx`), the worker's program is TypeScript: it is loaded through tsx's
 * loader, registered in the worker first. Built, it is the `.js` beside this file.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** Options of {@linkcode MatchLease.run}. */
export interface MatchRunOptions {
  /** Ends the work at once: the worker is terminated and the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds the work may take; past them the worker is terminated and the promise rejects
   * with a {@linkcode MatchBudgetError}. @default Infinity
   */
  budgetMs?: number | undefined;
  /**
   * The pattern as the caller compiled it, to run the work on the calling thread should no worker
   * start here (a bundle that left the worker's file out): the same answer, without the worker's
   * guarantees. @default undefined (the start failure is thrown)
   */
  inThread?: CompiledPattern | undefined;
}

/**
 * Thrown by {@linkcode MatchLease.run} when the work took longer than its budget (the worker
 * has been terminated).
 *
 * @example
 * ```ts
 * import { MatchBudgetError } from './_match_workers.ts';
 *
 * new MatchBudgetError(10_000).budgetMs; // 10000
 * ```
 */
export class MatchBudgetError extends Error {
  /**
   * @param budgetMs The budget that ran out.
   */
  constructor(readonly budgetMs: number) {
    super(`matching took longer than ${budgetMs} ms`);
  }
}

/** A worker lent to one search: its pieces of matching go to it one at a time. */
export interface MatchLease {
  /**
   * Runs one piece of matching on the lease's worker (started, or taken warm, on first use).
   * @param query The pattern and its switches, compiled in the worker as on the calling thread.
   * @param work The piece.
   * @param options Signal, budget, fallback.
   * @returns What {@linkcode runMatchOp} answers.
   * @throws The signal's reason on abort; {@linkcode MatchBudgetError}; the worker's own failure.
   */
  run(
    query: Pick<GrepQuery, 'pattern' | 'ignoreCase' | 'multiline'>,
    work: MatchOp,
    options?: MatchRunOptions,
  ): Promise<MatchOpResult>;
  /** Gives the worker back (kept warm for the next search, or terminated). */
  release(): void;
}

/** Options of {@linkcode leaseMatchWorker}. */
export interface MatchLeaseOptions {
  /**
   * The worker's program (tests point it at a file that is not there, as a bundle that left it
   * out would). @default `_match_worker.js` (from sources, `_match_worker.ts`) beside this module
   */
  program?: URL | undefined;
}

/** How the match workers are doing; see {@linkcode matchWorkerStats}. */
export interface MatchWorkerStats {
  /** Workers started since the process began. */
  started: number;
  /** Pieces sent to a worker since the process began. */
  jobs: number;
  /** Workers whose thread has not exited yet (leased, warm or terminating). */
  alive: number;
}

let warm: { worker: Worker; timer: NodeJS.Timeout } | undefined;
let unavailable = false;
let nextId = 0;
let started = 0;
let jobs = 0;
const alive = new Set<Worker>();

/**
 * Lends a match worker to one search. Nothing starts until the lease's first
 * {@linkcode MatchLease.run}: a search that never needs one pays nothing. One worker at a time
 * is kept warm between searches (idle, it keeps no process alive, and it exits after 30 s);
 * searches at once get one each, so that one stuck in a long line holds up no other.
 *
 * @param options The worker's program.
 * @returns The lease; release it when the search ends.
 *
 * @example
 * ```ts
 * import { leaseMatchWorker } from './_match_workers.ts';
 *
 * const lease = leaseMatchWorker();
 * try {
 *   await lease.run({ pattern: 'a\\d', ignoreCase: false, multiline: false }, { op: 'test', text: 'xa1' }); // true
 * } finally {
 *   lease.release();
 * }
 * ```
 */
export function leaseMatchWorker(options: MatchLeaseOptions = {}): MatchLease {
  const program =
    options.program ?? new URL(FROM_SOURCE ? './_match_worker.ts' : './_match_worker.js', import.meta.url);
  // A warm worker runs the default program: a lease for another one starts its own.
  const own = options.program !== undefined;
  let worker: Worker | undefined;
  return {
    async run(query, work, options = {}) {
      if (unavailable && !own && options.inThread) return runMatchOp(options.inThread, work);
      try {
        worker ??= (own ? undefined : takeWarm()) ?? startWorker(program);
        return await runOn(worker, { query, ...work }, options);
      } catch (e) {
        if (worker === undefined && options.inThread) {
          // `new Worker` itself refused (no such file in a bundle).
          if (!own) unavailable = true;
          return runMatchOp(options.inThread, work);
        }
        if (e instanceof WorkerGone) {
          worker = undefined;
          if (e.cause !== undefined) throw e.cause;
          if (e.neverStarted && options.inThread) {
            if (!own) unavailable = true;
            return runMatchOp(options.inThread, work);
          }
          throw new Error(`Grep's match worker failed: ${e.message}`);
        }
        throw e;
      }
    },
    release() {
      const w = worker;
      worker = undefined;
      if (w === undefined) return;
      if (warm !== undefined || own) {
        void w.terminate();
        return;
      }
      const timer = setTimeout(() => {
        if (warm?.worker === w) warm = undefined;
        void w.terminate();
      }, IDLE_MS);
      timer.unref();
      warm = { worker: w, timer };
    },
  };
}

/**
 * Counters of the match workers, for tests: how many were started and how many threads are left.
 *
 * @returns A snapshot.
 *
 * @example
 * ```ts
 * import { matchWorkerStats } from './_match_workers.ts';
 *
 * matchWorkerStats().alive; // 0 before any search needed one
 * ```
 */
export function matchWorkerStats(): MatchWorkerStats {
  return { started, jobs, alive: alive.size };
}

/**
 * Terminates the warm worker (tests use it to start from none). Leased workers are their
 * searches' own.
 *
 * @returns When it has exited.
 *
 * @example
 * ```ts
 * import { stopWarmMatchWorker } from './_match_workers.ts';
 *
 * await stopWarmMatchWorker();
 * ```
 */
export async function stopWarmMatchWorker(): Promise<void> {
  const w = warm;
  warm = undefined;
  if (w === undefined) return;
  clearTimeout(w.timer);
  await w.worker.terminate();
}

/** The worker thread left (or never came up); `cause` is an abort's reason or a budget run out. */
class WorkerGone extends Error {
  constructor(
    message: string,
    readonly neverStarted: boolean,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

function takeWarm(): Worker | undefined {
  const w = warm;
  warm = undefined;
  if (w === undefined) return undefined;
  clearTimeout(w.timer);
  return w.worker;
}

function startWorker(program: URL): Worker {
  const name = 'toolshed-grep-match';
  let w: Worker;
  if (program.pathname.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
    const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(program.href)}); });`;
    w = new Worker(boot, { eval: true, name });
  } else {
    w = new Worker(program, { name });
  }
  started++;
  alive.add(w);
  const onReady = (m: { ready?: boolean }) => {
    if (m.ready !== true) return;
    ready.add(w);
    w.off('message', onReady);
  };
  w.on('message', onReady);
  w.on('error', () => {}); // reported to the job it ends (runOn); a warm worker's error only ends it
  w.once('exit', () => {
    alive.delete(w);
    if (warm?.worker === w) {
      clearTimeout(warm.timer);
      warm = undefined;
    }
  });
  // Idle, it keeps no process alive; it is ref'd while a job is out (runOn).
  w.unref();
  return w;
}

/** Workers whose program has loaded (it says so first thing): a failure before that is a failure to start. */
const ready = new WeakSet<Worker>();

/** Sends one job and waits for its answer, the signal, the budget or the worker's end. */
function runOn(
  w: Worker,
  request: Record<string, unknown>,
  { signal, budgetMs }: MatchRunOptions,
): Promise<MatchOpResult> {
  signal?.throwIfAborted();
  const id = ++nextId;
  return new Promise<MatchOpResult>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      w.unref();
    };
    const end = (cause: unknown) => {
      done();
      void w.terminate();
      reject(new WorkerGone('terminated', false, cause));
    };
    const onMessage = (m: { id: number; result?: MatchOpResult; error?: string }) => {
      if (m.id !== id) return;
      done();
      if (m.error !== undefined) reject(new Error(`Grep's match worker failed: ${m.error}`));
      else resolve(m.result!);
    };
    const onError = (e: Error) => {
      done();
      void w.terminate();
      reject(new WorkerGone(e.message, !ready.has(w)));
    };
    const onExit = (code: number) => {
      done();
      reject(new WorkerGone(`it exited with code ${code}`, false));
    };
    const onAbort = () => end(signal!.reason);
    w.on('message', onMessage);
    w.once('error', onError);
    w.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (budgetMs !== undefined && Number.isFinite(budgetMs))
      timer = setTimeout(() => end(new MatchBudgetError(budgetMs)), budgetMs);
    w.ref();
    jobs++;
    w.postMessage({ id, ...request });
  });
}
