// Sixth attack, git's environment: GIT_WORK_TREE, GIT_DIR, GIT_COMMON_DIR, or a `core.worktree` in
// the repository's own config move where git writes (git 2.39 takes `core.worktree` from the
// repository's config only: given with -c, GIT_CONFIG_PARAMETERS or GIT_CONFIG_COUNT it wrote nothing
// elsewhere). Given on the command line they
// made the write unknown already; in the agent's own environment (process.env, the settings' env,
// `shellTools({ env })`) the guard did not look: `git restore .` with GIT_WORK_TREE=.vscode in the
// environment wrote .vscode/tasks.json (git 2.39) and was allowed by `Bash(git restore:*)`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createSession } from '@toolshed/core';
import { shellTools } from './family.ts';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { hasGit } from './testdata/has_git.ts';

const GIT_FOUND = hasGit('git_environment_attack_test');

const RULES = gitRules('restore', 'checkout', 'checkout-index', 'rm', 'status');
const { root, decide, runInCopy } = shellDecider('toolshed-gitenv-', RULES);

/** Variables a test sets in process.env, put back after it. */
const saved = new Map<string, string | undefined>();
function setEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    process.env[name] = value;
  }
}
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

let repo = '';

describe.skipIf(!GIT_FOUND)("git's environment moves where it writes", () => {
  beforeAll(async () => {
    // A repository tracking an ordinary tasks.json at its top, and an empty .vscode folder.
    repo = path.join(root(), 'repo');
    await mkdir(path.join(repo, '.vscode'), { recursive: true });
    await writeFile(path.join(repo, 'tasks.json'), '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', 'tasks.json');
    git('commit', '-qm', 'x');
  });

  const MOVED: readonly Record<string, string>[] = [
    { GIT_WORK_TREE: '.vscode' },
    { GIT_DIR: '.git', GIT_WORK_TREE: '.vscode' },
  ];

  test.each(MOVED)(
    'git restore . with %o in the agent environment writes .vscode/tasks.json: it asks',
    async (vars) => {
      const copy = await runInCopy(repo, 'git restore .', { ...process.env, ...vars });
      expect(existsSync(path.join(copy, '.vscode', 'tasks.json'))).toBe(true);
      setEnv(vars);
      for (const mode of MODES) expect(await decide(repo, 'git restore .', mode), mode).toBe('ask');
    },
  );

  test.each(['GIT_DIR', 'GIT_COMMON_DIR'])('%s in the agent environment makes git writes unknown', async (name) => {
    setEnv({ [name]: path.join(root(), 'elsewhere.git') });
    expect(await decide(repo, 'git checkout -- tasks.json', 'bypassPermissions')).toBe('ask');
  });

  test("the session's shellTools({ env }) is the command's environment too", async () => {
    const session = await createSession({
      cwd: repo,
      families: [shellTools({ env: { GIT_WORK_TREE: '.vscode' } })],
      permissions: { mode: 'bypassPermissions', allow: RULES },
      stateDir: path.join(root(), 'state-env'),
    });
    try {
      expect((await session.explain('Bash', { command: 'git restore .' })).behavior).toBe('ask');
    } finally {
      await session.close();
    }
  });

  test.each([
    'GIT_WORK_TREE=.vscode git restore .',
    'git --work-tree=.vscode checkout -- .',
    'export GIT_DIR=.git GIT_WORK_TREE=.vscode; git restore .',
  ])('on the command line, %s asks, in every mode', async (command) => {
    const copy = await runInCopy(repo, command);
    expect(existsSync(path.join(copy, '.vscode', 'tasks.json')), command).toBe(true);
    for (const mode of MODES) expect(await decide(repo, command, mode), `${command} (${mode})`).toBe('ask');
  });

  test('an environment that moves nothing adds no ask', async () => {
    setEnv({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'color.ui', GIT_CONFIG_VALUE_0: 'never', GIT_AUTHOR_NAME: 'x' });
    for (const mode of MODES) expect(await decide(repo, 'git restore .', mode), mode).toBe('allow');
  });
});

describe.skipIf(!GIT_FOUND)(
  "a repository whose config sets core.worktree writes there, not in the repository's folder",
  () => {
    let moved = '';
    beforeAll(async () => {
      moved = path.join(root(), 'moved');
      await mkdir(path.join(moved, '.vscode'), { recursive: true });
      await writeFile(path.join(moved, 'tasks.json'), '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: moved, stdio: 'ignore' });
      git('init', '-q');
      git('add', 'tasks.json');
      git('commit', '-qm', 'x');
      // Relative to the .git folder: the work tree is .vscode.
      git('config', 'core.worktree', '../.vscode');
    });

    test.each(['git restore .', 'git checkout -- .', 'git restore tasks.json', 'git checkout-index -f tasks.json'])(
      '%s writes .vscode/tasks.json: it asks, in every mode',
      async (command) => {
        const copy = await runInCopy(moved, command);
        expect(existsSync(path.join(copy, '.vscode', 'tasks.json')), command).toBe(true);
        for (const mode of MODES) expect(await decide(moved, command, mode), `${command} (${mode})`).toBe('ask');
      },
    );

    test('a submodule, whose config names its own folder as core.worktree, is not asked about', async () => {
      const top = path.join(root(), 'super');
      const git = (cwd: string, ...args: string[]) =>
        execFileSync(
          'git',
          ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
          {
            cwd,
            stdio: 'ignore',
          },
        );
      await mkdir(top);
      git(top, 'init', '-q');
      git(top, 'submodule', 'add', '-q', repo, 'sub');
      const sub = path.join(top, 'sub');
      expect(execFileSync('git', ['config', 'core.worktree'], { cwd: sub, encoding: 'utf8' }).trim()).not.toBe('');
      for (const mode of MODES) expect(await decide(sub, 'git restore .', mode), mode).toBe('allow');
    });
  },
);
