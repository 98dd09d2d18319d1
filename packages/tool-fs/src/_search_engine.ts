import { findRipgrep } from './_ripgrep.ts';

/** Options that choose how Glob and Grep search. */
export interface SearchEngineOptions {
  /**
   * `'auto'`: Grep uses ripgrep when found (`RIPGREP_PATH`, or `rg` on `PATH`), else the built-in
   * JS engine; Glob uses the JS walker, which lists a 20 000-file tree faster than spawning
   * `rg --files` does (bench/src/fs_glob_bench.ts). `'ripgrep'`: both use ripgrep, or fail when it
   * is missing. `'js'`: both use the JS engine.
   * @default 'auto'
   */
  searchEngine?: 'auto' | 'ripgrep' | 'js';
  /** The ripgrep executable, overriding `RIPGREP_PATH` and `PATH`. */
  ripgrepPath?: string;
  /**
   * Milliseconds Grep's JS engine may spend matching one piece of a file (a long line, a
   * megabyte of lines, or a whole file with `multiline`) before the call ends with an error that
   * names the file and says what to do (leave the file out, simplify the pattern, install
   * ripgrep). The matching runs in a worker thread, so the process is not held up meanwhile;
   * an abort ends it at once whatever this is.
   * @default 10000
   */
  jsMatchBudgetMs?: number;
}

/** The engine one call uses: ripgrep at a path, or the built-in JS engine. */
export type SearchEngine = { kind: 'ripgrep'; path: string } | { kind: 'js'; budgetMs?: number };

/**
 * Picks the engine for a call (looked up per call, so installing ripgrep mid-session helps).
 *
 * @param options The family's options.
 * @returns The engine.
 * @throws {Error} When `'ripgrep'` is asked for and none is found.
 *
 * @example
 * ```ts
 * import { resolveSearchEngine } from './_search_engine.ts';
 *
 * resolveSearchEngine({ searchEngine: 'js' }); // { kind: 'js' }
 * ```
 */
export function resolveSearchEngine(options: SearchEngineOptions = {}): SearchEngine {
  const mode = options.searchEngine ?? 'auto';
  const js: SearchEngine =
    options.jsMatchBudgetMs === undefined ? { kind: 'js' } : { kind: 'js', budgetMs: options.jsMatchBudgetMs };
  if (mode === 'js') return js;
  const rg = options.ripgrepPath ?? findRipgrep();
  if (rg) return { kind: 'ripgrep', path: rg };
  if (mode === 'ripgrep') {
    throw new Error(
      'ripgrep was asked for but not found: set RIPGREP_PATH, put rg on PATH, or use searchEngine "auto".',
    );
  }
  return js;
}

/**
 * Refuses options no search could run with, when the tools are built rather than at each call.
 *
 * @param options The family's options.
 * @throws {RangeError} For a `jsMatchBudgetMs` that is not a number of milliseconds above 0.
 *
 * @example
 * ```ts
 * import { checkSearchEngineOptions } from './_search_engine.ts';
 *
 * checkSearchEngineOptions({ jsMatchBudgetMs: 30_000 }); // fine
 * ```
 */
export function checkSearchEngineOptions(options: SearchEngineOptions): void {
  const budget = options.jsMatchBudgetMs;
  if (budget !== undefined && !(typeof budget === 'number' && budget > 0))
    throw new RangeError(
      `jsMatchBudgetMs must be a number of milliseconds above 0 (Infinity for no limit), not ${String(budget)}.`,
    );
}
