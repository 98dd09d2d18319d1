import { spawnSync } from 'node:child_process';

/**
 * Whether git is installed; where it is not, prints that `what` is skipped and how to get git
 * (tests that run real git skip with a printed reason, as the README promises).
 *
 * @param what The tests that need git.
 * @returns True when `git --version` runs.
 *
 * @example
 * ```ts
 * import { hasGit } from './_test_git.ts';
 *
 * const GIT = hasGit('git_index_test');
 * ```
 */
export function hasGit(what: string): boolean {
  const found = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found) console.log(`${what}: skipped, git is not installed (apt install git)`);
  return found;
}
