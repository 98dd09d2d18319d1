import { findRipgrep } from './_ripgrep.ts';

/** ripgrep's path on this machine, or undefined; tests of the ripgrep engine skip without it. */
export const RIPGREP = findRipgrep();

if (RIPGREP === undefined) {
  console.warn(
    'Skipping the ripgrep-engine tests of tool-fs: ripgrep (rg) is not installed (apt-get install ripgrep); the JS engine tests still run.',
  );
}

/**
 * The search engines to test on this machine: both where ripgrep is installed, only the JS engine
 * where it is not.
 *
 * @example
 * ```ts
 * describe.each(SEARCH_ENGINES)('Grep with the %s engine', (engine) => { ... });
 * ```
 */
export const SEARCH_ENGINES: readonly ('ripgrep' | 'js')[] = RIPGREP === undefined ? ['js'] : ['ripgrep', 'js'];
