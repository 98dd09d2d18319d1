import path from 'node:path';
import { FD3_PATH } from '../_ripgrep.ts';
import type { SearchEngine } from '../_search_engine.ts';
import type { SearchRoot } from '../_search_root.ts';
import { jsSearch } from './_js_engine.ts';
import { rgSearch } from './_rg_engine.ts';
import type { GrepQuery, GrepSink } from './_types.ts';

/** Options of {@linkcode searchOpened}. */
export interface SearchOpenedOptions {
  /** The engine. */
  engine: SearchEngine;
  /** `query.dir` (or `query.file`) as the call opened it. */
  root: SearchRoot;
  /** Stops the search. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs a Grep query on the folder or file the call opened and checked ({@linkcode SearchRoot}),
 * not on its path: ripgrep runs in `/proc/self/fd/N` (a folder) or is handed the file as its fd 3,
 * the JS engine walks and reads under `/proc/self/fd/N`. Paths given to the sink are as a search
 * by path gives them. Without `root.via` (no decision, or no /proc) it searches the path.
 *
 * @param query The query (its `dir` and `file` as declared).
 * @param options The engine, the opened root and a signal.
 * @throws {GrepQueryError} For a query the engine rejects.
 *
 * @example
 * ```ts
 * import type { ToolContext } from '@toolshed/core';
 * import { openSearchRoot } from '../_search_root.ts';
 * import { GrepPage } from './_page.ts';
 * import { searchOpened } from './_opened_search.ts';
 * declare const ctx: ToolContext;
 * const page = new GrepPage({ mode: 'count', offset: 0, limit: 10, numbers: false, withContext: false, mtimeOf: () => 0, show: (f) => f });
 *
 * const root = await openSearchRoot('/repo', { ctx, kind: 'folder' });
 * await searchOpened({ pattern: 'TODO', dir: '/repo', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] }, page, { engine: { kind: 'js' }, root });
 * await root.close();
 * ```
 */
export async function searchOpened(query: GrepQuery, sink: GrepSink, options: SearchOpenedOptions): Promise<void> {
  const { engine, root, signal } = options;
  if (engine.kind === 'js') {
    await jsSearch(query, sink, { signal, readAt: root.via, budgetMs: engine.budgetMs });
  } else if (root.via === undefined) {
    await rgSearch(query, sink, { rg: engine.path, signal });
  } else if (query.file !== undefined) {
    // ripgrep names the file as it got it: the sink sees the name a search by path gives.
    await rgSearch(query, renamed(sink, FD3_PATH, query.file), { rg: engine.path, signal, fd3: root.fd });
  } else {
    await rgSearch(query, sink, { rg: engine.path, signal, cwd: root.via });
  }
}

/**
 * Where a file a Grep found (relative to `query.dir`) is read, for its mtime: under the opened
 * folder, or the opened file itself.
 *
 * @param query The query.
 * @param root The opened root.
 * @returns The function.
 *
 * @example
 * ```ts
 * import type { SearchRoot } from '../_search_root.ts';
 * import { openedPathOf } from './_opened_search.ts';
 * declare const root: SearchRoot;
 *
 * openedPathOf({ pattern: 'x', dir: '/repo', mode: 'count', before: 0, after: 0, ignoreCase: false, multiline: false, globs: [] }, root)('a.ts');
 * ```
 */
export function openedPathOf(query: GrepQuery, root: SearchRoot): (rel: string) => string {
  const via = root.via;
  if (via === undefined) return (rel) => path.join(query.dir, rel);
  if (query.file !== undefined) return () => via;
  return (rel) => `${via}/${rel}`;
}

/** The sink with one path renamed; runs of lines are never taken whole (their bytes hold the old name). */
function renamed(sink: GrepSink, from: string, to: string): GrepSink {
  const name = (rel: string) => (rel === from ? to : rel);
  return {
    file: (rel, mtimeMs) => sink.file(name(rel), mtimeMs),
    count: (rel, count) => sink.count(name(rel), count),
    line: (rel, n, match, text, textStart) => sink.line(name(rel), n, match, text, textStart),
    takesRuns: false,
    get full() {
      return sink.full;
    },
  };
}
