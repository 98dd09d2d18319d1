import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { hashContent } from '@toolshed/core/internal';
import { giveBackScratch, lendScratch } from './_shared_scratch.ts';

/**
 * Inputs below this size are hashed on the calling thread: for them a message to the worker and
 * back costs about what the hash does.
 */
export const OFF_THREAD_MIN_BYTES = 1024 * 1024;

// The worker's whole program: the same digest as core's hashContent (sha256, hex), of a view of
// memory shared with the caller (nothing is copied).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, parts }) => {
  let hash;
  try {
    const h = createHash('sha256');
    for (const part of parts) h.update(part);
    hash = h.digest('hex');
  } catch {
    hash = undefined;
  }
  parentPort.postMessage({ id, hash });
});
`;

interface Job {
  parts: readonly Uint8Array[];
  resolve: (hash: string) => void;
}

/** How the hashing worker is doing; see {@linkcode hashWorkerStats}. */
export interface HashWorkerStats {
  /** Hashes the worker computed. */
  offThread: number;
  /** Hashes computed on the calling thread (small inputs, the worker not started yet, or gone). */
  onThread: number;
  /** The worker is running and has answered that it is up. */
  ready: boolean;
}

let worker: Worker | undefined;
let ready = false;
let broken = false;
let nextId = 0;
const jobs = new Map<number, Job>();
const stats = { offThread: 0, onThread: 0 };

/**
 * Counters of {@linkcode hashOffThread}, for tests: where the hashes were computed.
 *
 * @returns A snapshot.
 *
 * @example
 * ```ts
 * import { hashWorkerStats } from './_hash_off_thread.ts';
 *
 * hashWorkerStats().offThread; // 0 before any large hash
 * ```
 */
export function hashWorkerStats(): HashWorkerStats {
  return { ...stats, ready };
}

/**
 * The bytes of a text as UTF-8 in memory a worker thread can read without a copy (a
 * `SharedArrayBuffer` lent by `lendScratch`: give it back with `giveBackScratch` once the write and
 * the hash are done), for {@linkcode hashOffThread}; small texts get an ordinary Buffer. The
 * same bytes as `Buffer.from(text, 'utf8')`, in one pass for an ASCII text where that makes two
 * (it measures the text first): the text is written into as many bytes as it has UTF-16 units,
 * which only ASCII fills exactly; what did not fit is measured and added.
 *
 * @param text The text.
 * @returns Its UTF-8 bytes.
 *
 * @example
 * ```ts
 * import { sharedUtf8 } from './_hash_off_thread.ts';
 *
 * sharedUtf8('héllo').length; // 6
 * ```
 */
export function sharedUtf8(text: string): Buffer {
  if (text.length < OFF_THREAD_MIN_BYTES) return Buffer.from(text, 'utf8');
  const first = lendScratch(text.length);
  const { read, written } = encoder.encodeInto(text, first);
  if (read === text.length) return first;
  // Not ASCII: `read` ends before a whole character (encodeInto never splits one).
  const rest = text.slice(read);
  const bytes = lendScratch(written + Buffer.byteLength(rest, 'utf8'));
  bytes.set(first.subarray(0, written));
  bytes.write(rest, written, 'utf8');
  giveBackScratch(first);
  return bytes;
}

const encoder = new TextEncoder();

/**
 * The content hash of core's `hashContent` (sha256 hex), computed on a worker thread for large
 * inputs, so that the caller's thread can encode, write and count lines meanwhile. Small inputs,
 * a one-CPU machine, and the first large input (the worker is started then, and is not waited
 * for) are hashed on the calling thread; should the worker fail, its jobs are hashed there too.
 * The bytes must not change until the promise settles. Large input not in shared memory is
 * copied into memory lent by `lendScratch` first (a copy costs a tenth of the hash), and the
 * memory is given back when the hash is known.
 *
 * @param bytes The bytes to hash, or pieces of them in order (hashed as if joined).
 * @returns The hex digest.
 *
 * @example
 * ```ts
 * import { hashOffThread, sharedUtf8 } from './_hash_off_thread.ts';
 *
 * const bytes = sharedUtf8('x'.repeat(20_000_000));
 * const hashing = hashOffThread(bytes); // runs while the caller writes the bytes
 * await hashing;
 * ```
 */
export function hashOffThread(bytes: Uint8Array | readonly Uint8Array[]): Promise<string> {
  const parts = bytes instanceof Uint8Array ? [bytes] : bytes;
  let length = 0;
  for (const part of parts) length += part.length;
  if (length < OFF_THREAD_MIN_BYTES || !startWorker()) return Promise.resolve(onThread(parts));
  // Small pieces not in shared memory are copied by postMessage; large ones are copied here.
  const shared = parts.map((part) =>
    part.buffer instanceof SharedArrayBuffer || part.length < OFF_THREAD_MIN_BYTES ? part : copyToShared(part),
  );
  const id = ++nextId;
  const copies = shared.filter((part, i) => part !== parts[i]);
  return new Promise<string>((resolve) => {
    // The copies are this job's own: their memory goes back to the pool once hashed.
    const done = (hash: string) => {
      for (const copy of copies) giveBackScratch(copy);
      resolve(hash);
    };
    jobs.set(id, { parts: shared, resolve: done });
    if (jobs.size === 1) worker!.ref();
    worker!.postMessage({ id, parts: shared });
  });
}

/**
 * The content hash of `bytes` as a function, for a file-state entry recorded before the hash is
 * known: the hash is taken on the worker in the background (see {@linkcode hashOffThread}), and
 * the function returns it, or, called before the worker has answered, hashes on the calling
 * thread. `whenHashed` runs once the worker no longer reads the bytes (give lent memory back
 * there); the function reads them only before that.
 *
 * @param bytes The bytes; they must not change until `whenHashed` has run.
 * @param whenHashed Called once the background hash has settled.
 * @returns A function giving the hex digest.
 *
 * @example
 * ```ts
 * import { hashInBackground, sharedUtf8 } from './_hash_off_thread.ts';
 * import { giveBackScratch } from './_shared_scratch.ts';
 *
 * const bytes = sharedUtf8('x'.repeat(20_000_000));
 * const contentHash = hashInBackground(bytes, () => giveBackScratch(bytes));
 * contentHash(); // the digest, whenever it is first needed
 * ```
 */
export function hashInBackground(bytes: Uint8Array, whenHashed?: () => void): () => string {
  let known: string | undefined;
  void hashOffThread(bytes).then((hash) => {
    known ??= hash;
    whenHashed?.();
  });
  // Once the worker has answered, `known` is set: the bytes are not read after `whenHashed`.
  return () => (known ??= onThread([bytes]));
}

function onThread(parts: readonly Uint8Array[]): string {
  stats.onThread++;
  if (parts.length === 1) return hashContent(parts[0]!);
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

function copyToShared(bytes: Uint8Array): Uint8Array {
  const shared = lendScratch(bytes.length);
  shared.set(bytes);
  return shared;
}

/** Whether the worker is up; starts it (without waiting) when it is not. */
function startWorker(): boolean {
  if (ready) return true;
  if (worker !== undefined || broken) return false;
  if (availableParallelism() < 2) {
    broken = true;
    return false;
  }
  const w = new Worker(WORKER_SOURCE, { eval: true, name: 'toolshed-fs-hash' });
  worker = w;
  // Idle, it keeps no process alive; it is ref'd while a job is out (see hashOffThread).
  w.unref();
  w.once('online', () => {
    if (worker === w) ready = true;
  });
  w.on('message', (message: { id: number; hash?: string }) => {
    const job = jobs.get(message.id);
    if (job === undefined) return;
    jobs.delete(message.id);
    if (jobs.size === 0) w.unref();
    if (message.hash === undefined) job.resolve(onThread(job.parts));
    else {
      stats.offThread++;
      job.resolve(message.hash);
    }
  });
  const fail = () => {
    if (worker !== w) return;
    worker = undefined;
    ready = false;
    broken = true;
    for (const [id, job] of jobs) {
      jobs.delete(id);
      job.resolve(onThread(job.parts));
    }
  };
  w.on('error', fail);
  w.on('exit', fail);
  return false;
}

/**
 * Stops the worker (tests use it to see a worker that is gone answered on the calling thread).
 * The next large hash starts a new one.
 *
 * @returns When the worker has exited; jobs it had are hashed on the calling thread.
 *
 * @example
 * ```ts
 * import { stopHashWorker } from './_hash_off_thread.ts';
 *
 * await stopHashWorker();
 * ```
 */
export async function stopHashWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  ready = false;
  broken = false;
  for (const [id, job] of jobs) {
    jobs.delete(id);
    job.resolve(onThread(job.parts));
  }
  await w?.terminate();
}
