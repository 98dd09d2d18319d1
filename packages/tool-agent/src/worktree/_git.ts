import { execFile } from 'node:child_process';
import { inertGitArgs } from './_inert_git.ts';

/** What one git command printed and how it ended. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git with arguments (never through a shell) in a folder.
 *
 * In a project that is not trusted (`trusted: false`) git runs none of the repository's own
 * programs (hooks, fsmonitor, filters: see `inertGitArgs`). Its stdin is closed, so a program
 * that reads it cannot hang the call.
 *
 * @param args Its arguments.
 * @param options Where git runs (`cwd`), whether the project is trusted, and what aborts it (`signal`).
 * @returns Exit code and output; a missing git is code 127; a config that cannot be read in an
 *   untrusted project is code 1 with the reason as stderr, and git is not run.
 */
export function git(
  args: readonly string[],
  options: { cwd: string; trusted: boolean; signal?: AbortSignal | undefined },
): Promise<GitRun> {
  const { cwd, signal } = options;
  const inert = options.trusted ? { args: [] } : inertGitArgs(cwd);
  if ('problem' in inert) return Promise.resolve({ code: 1, stdout: '', stderr: inert.problem });
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      [...inert.args, ...args],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
        ...(signal ? { signal } : {}),
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as NodeJS.ErrnoException).code === 'number'
            ? Number((error as NodeJS.ErrnoException).code)
            : (error as NodeJS.ErrnoException).code === 'ENOENT'
              ? 127
              : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}
