// A FIFO where core reads a repository's files (a `.git` file, a config, an index: a project
// unpacked from an archive, or planted by a command) hung the process at the first permission
// check that looked at it: readFileSync waits for a writer.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { gitConfiguredPaths, gitRepositoryOf } from './git_hooks_path.ts';
import { readGitIndex } from './git_index.ts';
import { hasGit } from './_test_git.ts';

const GIT = hasGit('git_fifo_test');
const dir = mkdtempSync(join(tmpdir(), 'toolshed-git-fifo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!GIT)('a FIFO among a repository’s files is not read', () => {
  test('a .git file that is a FIFO: no repository there, at once', () => {
    mkdirSync(join(dir, 'sub'));
    execFileSync('mkfifo', [join(dir, 'sub/.git')]);
    expect(gitRepositoryOf(join(dir, 'sub'))).toBeUndefined();
    expect(gitConfiguredPaths([join(dir, 'sub')], homedir()).hooks).toEqual([]);
  });

  test('a config and an index that are FIFOs: read as nothing, at once', () => {
    const repo = join(dir, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    rmSync(join(repo, '.git/config'));
    execFileSync('mkfifo', [join(repo, '.git/config'), join(repo, '.git/index')]);
    expect(gitConfiguredPaths([repo], homedir()).hooks).toEqual([]);
    expect(readGitIndex(join(repo, '.git/index'))).toBeUndefined();
  });
});
