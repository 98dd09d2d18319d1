// Seventh attack, fourth part: a `core.worktree` in a file the repository's config includes
// (`[include] path = …`, `[includeIf "gitdir:**"] path = …`). The guard reads core.worktree from
// the repository's own config files only (gitRepositoryOf), not from what they include. git does
// the same: it reads core.worktree while it finds the repository, from `config` (and
// `config.worktree`) alone, before includes are followed (setup.c, read_repository_format); with
// git 2.39 `git restore .` below wrote nothing in .vscode. This test runs real git to keep that
// true: should a git follow includes there, it fails, and gitRepositoryOf must read them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitRules } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { hasGit } from './testdata/has_git.ts';

const GIT_FOUND = hasGit('git_include_worktree_attack_test');
const { root, inEveryMode, runInCopy } = shellDecider('toolshed-git-include-', gitRules('restore', 'checkout'));

async function repository(name: string, include: string): Promise<string> {
  const dir = path.join(root(), name);
  await mkdir(path.join(dir, '.vscode'), { recursive: true });
  await writeFile(path.join(dir, 'tasks.json'), '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', 'tasks.json');
  git('commit', '-qm', 'x');
  // The included file is relative to the config that includes it (here outside the repository, where
  // a write of the work tree does not reach it: one inside is a protected git config, which asks);
  // core.worktree is relative to the .git folder: the copy's own .vscode where the test runs git.
  await writeFile(path.join(root(), `${name}.cfg`), '[core]\n\tworktree = ../.vscode\n');
  await appendFile(path.join(dir, '.git', 'config'), `${include}\n\tpath = ../../${name}.cfg\n`);
  return dir;
}

describe.skipIf(!GIT_FOUND)('core.worktree in a file the repository config includes', () => {
  test.each([
    ['include', '[include]'],
    ['include-if', '[includeIf "gitdir:**"]'],
  ])('%s: git does not take the work tree from it, and neither does the guard', async (name, include) => {
    const dir = await repository(name, include);
    // git config, which follows includes, sees it…
    const seen = execFileSync('git', ['config', 'core.worktree'], { cwd: dir, encoding: 'utf8' }).trim();
    expect(seen).toBe('../.vscode');
    // …but the commands that write the work tree do not: they write the repository's own folder.
    for (const command of ['git restore .', 'git checkout -- tasks.json']) {
      const copy = await runInCopy(dir, `rm tasks.json && ${command}`);
      expect(
        existsSync(path.join(copy, '.vscode', 'tasks.json')),
        `${command}: git took core.worktree from an include`,
      ).toBe(false);
      expect(existsSync(path.join(copy, 'tasks.json')), command).toBe(true);
      await inEveryMode(dir, command, 'allow');
    }
  });
});
