import { describe } from 'vitest';
import { findBwrap } from '../sandbox.ts';

/**
 * A `describe` that runs where bubblewrap is installed and skips elsewhere, printing once why and
 * what is not run.
 *
 * @param what What the file's tests are, for the skip line ("the nested-repository attacks").
 * @returns `describe`, or `describe.skip` where bwrap is missing.
 *
 * @example
 * ```ts
 * import { describeWithBwrap } from './testdata/bwrap_fixture.ts';
 *
 * const withBwrap = describeWithBwrap('the nested-repository attacks');
 * withBwrap('the sandbox keeps …', () => {});
 * ```
 */
export function describeWithBwrap(what: string): typeof describe.skip {
  let bwrap: string | undefined;
  try {
    bwrap = findBwrap();
  } catch {
    bwrap = undefined;
  }
  if (bwrap === undefined)
    console.warn(
      `[skip] the bubblewrap sandbox tests of tool-shell: bwrap is not installed (apt-get install bubblewrap); ${what} are not run.`,
    );
  return describe.skipIf(bwrap === undefined);
}
