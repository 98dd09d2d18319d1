// The program of a Grep match worker (started by `_match_workers.ts`): it compiles the pattern
// with the same `compilePattern` as the search's thread and runs `runMatchOp` on what it is sent,
// so that an answer from here is the answer the search's thread would have found. The pattern
// compiled last is kept: a search sends the same one with every piece.
import { parentPort } from 'node:worker_threads';
import { type MatchOp, runMatchOp } from './_match_ops.ts';
import { type CompiledPattern, compilePattern } from './_pattern.ts';
import type { GrepQuery } from './_types.ts';

/** A message to the worker: which pattern, and the work. */
type Request = { id: number; query: Pick<GrepQuery, 'pattern' | 'ignoreCase' | 'multiline'> } & MatchOp;

let compiled: { key: string; re: CompiledPattern } | undefined;

parentPort?.on('message', (request: Request) => {
  void answer(request).then((reply) => parentPort?.postMessage(reply));
});
// Loaded: from here on a failure is the work's, not a worker that could not start.
parentPort?.postMessage({ ready: true });

async function answer(request: Request): Promise<{ id: number; result?: unknown; error?: string }> {
  try {
    const { query } = request;
    const key = JSON.stringify([query.pattern, query.ignoreCase, query.multiline]);
    if (compiled?.key !== key) compiled = { key, re: await compilePattern(query) };
    return { id: request.id, result: runMatchOp(compiled.re, request) };
  } catch (e) {
    return { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
}
