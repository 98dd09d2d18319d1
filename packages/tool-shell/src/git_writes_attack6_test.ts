// Sixth attack, git part: what git writes that the guard did not compute. Each command below was run
// with git 2.39 in a copy of a real repository and wrote the protected file named beside it; the
// guard allowed it under the subcommand's allow rule, in bypassPermissions at least.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { hasGit } from './testdata/has_git.ts';

const GIT_FOUND = hasGit('git_writes_attack6_test');

const RULES = gitRules('rm', 'mv', 'submodule', 'clone', 'worktree', 'restore', 'checkout');
const { root, decide, runInCopy } = shellDecider('toolshed-attack6-', RULES);

/** Runs git in `cwd` with an author and local submodules allowed. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
}

/** The environment a run in a copy needs for local submodules. */
const ENV = {
  ...process.env,
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'protocol.file.allow',
  GIT_CONFIG_VALUE_0: 'always',
};

let lib = '';
let main = '';
/** A clone of main: its submodule not checked out yet. */
let fresh = '';

describe.skipIf(!GIT_FOUND)('git writes the guard did not compute', () => {
  beforeAll(async () => {
    // lib: a repository whose commit holds files core protects at any depth.
    lib = path.join(root(), 'lib');
    await mkdir(path.join(lib, '.vscode'), { recursive: true });
    await writeFile(path.join(lib, '.vscode', 'tasks.json'), '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n');
    await writeFile(path.join(lib, 'package.json'), '{"scripts":{"test":"touch pwned"}}\n');
    git(root(), 'init', '-q', lib);
    git(lib, 'add', '-A');
    git(lib, 'commit', '-qm', 'lib');
    // plain: a repository with nothing protected.
    const plain = path.join(root(), 'plain');
    await mkdir(plain);
    git(plain, 'init', '-q');
    await writeFile(path.join(plain, 'b.txt'), 'b\n');
    git(plain, 'add', '-A');
    git(plain, 'commit', '-qm', 'plain');
    // main: a repository with plain as the submodule `sub` and lib as `tools`.
    main = path.join(root(), 'main');
    await mkdir(main);
    git(main, 'init', '-q');
    await writeFile(path.join(main, 'a.txt'), 'a\n');
    git(main, 'submodule', 'add', '-q', plain, 'sub');
    git(main, 'submodule', 'add', '-q', lib, 'tools');
    git(main, 'add', '-A');
    git(main, 'commit', '-qm', 'main');
    fresh = path.join(root(), 'fresh');
    git(root(), 'clone', '-q', main, fresh);
  });

  describe('git rm and git mv of a submodule rewrite .gitmodules', () => {
    test.each(['git rm sub', 'git rm -r sub', 'git rm -f sub a.txt', 'git mv sub moved', 'git -C sub/.. rm sub'])(
      '%s changes .gitmodules: it asks, in every mode',
      async (command) => {
        const before = readFileSync(path.join(main, '.gitmodules'), 'utf8');
        const copy = await runInCopy(main, command, ENV);
        expect(readFileSync(path.join(copy, '.gitmodules'), 'utf8'), command).not.toBe(before);
        for (const mode of MODES) expect(await decide(main, command, mode), `${command} (${mode})`).toBe('ask');
      },
    );

    test.each([
      ['git submodule set-url sub https://evil.example/x', '.gitmodules'],
      ['git submodule set-branch -b evil sub', '.gitmodules'],
    ])('%s changes %s: it asks, in every mode', async (command, file) => {
      const before = readFileSync(path.join(main, file), 'utf8');
      const copy = await runInCopy(main, command, ENV);
      expect(readFileSync(path.join(copy, file), 'utf8'), command).not.toBe(before);
      for (const mode of MODES) expect(await decide(main, command, mode), `${command} (${mode})`).toBe('ask');
    });

    test('git rm of an ordinary file, and git rm --cached of the submodule, leave .gitmodules alone', async () => {
      for (const command of ['git rm a.txt', 'git rm --cached sub', 'git mv a.txt b.txt']) {
        const before = readFileSync(path.join(main, '.gitmodules'), 'utf8');
        const copy = await runInCopy(main, command, ENV);
        expect(readFileSync(path.join(copy, '.gitmodules'), 'utf8'), command).toBe(before);
        expect(await decide(main, command, 'bypassPermissions'), command).toBe('allow');
      }
    });
  });

  describe('a new folder git fills from a commit holds what the commit holds', () => {
    test.each([
      ['git clone LIB vendor/x', 'vendor/x/.vscode/tasks.json'],
      ['git clone LIB', 'lib/package.json'],
      ['git worktree add -q wt', 'wt/.gitmodules'],
      ['git submodule add -q LIB vendor/y', 'vendor/y/.vscode/tasks.json'],
      ['git submodule update --init', 'tools/.vscode/tasks.json'],
      ['git submodule update --init --recursive tools', 'tools/package.json'],
    ])('%s writes what its commit holds (%s): it asks, in every mode', async (template, written) => {
      const command = template.replace('LIB', lib);
      // In a fresh clone of main, whose submodule is not checked out yet.
      const copy = await runInCopy(fresh, command, ENV);
      expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
      for (const mode of MODES) expect(await decide(fresh, command, mode), `${command} (${mode})`).toBe('ask');
    });

    test('a clone or worktree that checks nothing out is not asked about', async () => {
      for (const command of [`git clone -q --no-checkout ${lib} vendor/x`, `git clone -q --bare ${lib} x.git`]) {
        expect(await decide(main, command, 'bypassPermissions'), command).toBe('allow');
      }
      expect(await decide(main, 'git worktree add --no-checkout wt-none', 'bypassPermissions')).toBe('allow');
      // A repository without submodules has nothing for submodule update to check out.
      expect(await decide(lib, 'git submodule update --init', 'bypassPermissions')).toBe('allow');
    });
  });
});
