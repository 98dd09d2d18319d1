import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The environment the git tests run git in: an author and committer set (no user config needed),
 * the system config left out, the rest as the process has it.
 *
 * @example
 * ```ts
 * import { execFileSync } from 'node:child_process';
 * import { GIT_TEST_ENV } from './git_fixture.ts';
 *
 * execFileSync('git', ['commit', '-qm', 'one'], { cwd: '/tmp/repo', env: GIT_TEST_ENV });
 * ```
 */
export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
  GIT_CONFIG_NOSYSTEM: '1',
};

/**
 * Runs the real git in `cwd` (local submodules allowed: `protocol.file.allow=always`) and returns
 * what it prints; throws when git fails.
 *
 * @param cwd The folder git runs in.
 * @param args Its words.
 * @returns Its standard output.
 *
 * @example
 * ```ts
 * import { runGit } from './git_fixture.ts';
 *
 * runGit('/tmp/repo', 'init', '-q');
 * ```
 */
export function runGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: GIT_TEST_ENV,
    encoding: 'utf8',
  });
}

/**
 * What a real shell command prints in `dir`, standard error included, whatever its exit status
 * (stdin closed: a command that would read it reads nothing).
 *
 * @param dir The folder it runs in.
 * @param command The bash command.
 * @returns Standard output, then standard error.
 *
 * @example
 * ```ts
 * import { shellOutput } from './git_fixture.ts';
 *
 * shellOutput('/tmp/repo', 'git log -p'); // 'commit …'
 * ```
 */
export function shellOutput(dir: string, command: string): string {
  const run = spawnSync('bash', ['-c', command], {
    cwd: dir,
    env: GIT_TEST_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return `${run.stdout}${run.stderr}`;
}
