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
}

/** The engine one call uses: ripgrep at a path, or the built-in JS engine. */
export type SearchEngine = { kind: 'ripgrep'; path: string } | { kind: 'js' };

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
  if (mode === 'js') return { kind: 'js' };
  const rg = options.ripgrepPath ?? findRipgrep();
  if (rg) return { kind: 'ripgrep', path: rg };
  if (mode === 'ripgrep') {
    throw new Error(
      'ripgrep was asked for but not found: set RIPGREP_PATH, put rg on PATH, or use searchEngine "auto".',
    );
  }
  return { kind: 'js' };
}
