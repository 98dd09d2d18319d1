import { execFile } from 'node:child_process';

/** What one git command printed and how it ended. */
export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs git with arguments (never through a shell) in a folder.
 *
 * @param args Its arguments.
 * @param options Where git runs (`cwd`), and what aborts it (`signal`).
 * @returns Exit code and output; a missing git is code 127.
 */
export function git(
  args: readonly string[],
  options: { cwd: string; signal?: AbortSignal | undefined },
): Promise<GitRun> {
  const { cwd, signal } = options;
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
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
  });
}
