// Which files a git pathspec that names a folder writes depends on where git takes them from.
// From the index (`git restore DIR`, `git checkout -- DIR`, `git rm -r DIR`, `git mv DIR NEW`):
// what the index holds below DIR, files deleted since they were staged included, and never a
// `.git` folder. The guard reads the index: a protected file there asks, and the repository's own
// `.git` no longer makes every `git restore .` ask. From a commit (`git checkout TREE -- DIR`,
// `git restore --source TREE DIR`): whatever the commit has below DIR (a `.claude/settings.json`
// the work tree does not have, say), which the guard cannot see: an unknown write, asking in every mode.
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = gitRules('restore', 'checkout', 'checkout-index', 'rm', 'stash', 'clean', 'mv');

const { root, decide } = shellDecider('toolshed-worktree-', RULES);

/** A project: `.git/hooks`, `src/a.ts`, a nested repository `vendor/lib/.git`, and what `extra` adds. */
async function project(name: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = path.join(root(), name);
  for (const sub of ['.git/hooks', 'src', 'vendor/lib/.git/hooks'])
    await mkdir(path.join(dir, sub), { recursive: true });
  await writeFile(path.join(dir, 'src', 'a.ts'), 'a\n');
  await writeFile(path.join(dir, 'vendor', 'lib', 'b.ts'), 'b\n');
  for (const [file, text] of Object.entries(extra)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

describe('git pathspecs that name a folder', () => {
  test.each([
    'git restore .',
    'git restore -- .',
    'git checkout -- .',
    'git checkout-index -f -- src',
    'git rm -r vendor',
    'git rm -r .',
    'git mv src lib',
    'git restore src',
    'git checkout -- src',
  ])('%s is allowed by its rule: the .git folders below are not written', async (command) => {
    const dir = await project('plain');
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('allow');
  });

  test.each([
    'git checkout evil -- .',
    'git checkout evil -- src',
    'git checkout evil src',
    'git restore --source evil .',
    'git restore -s evil src',
    'git restore --staged --worktree .',
    'git stash push -- src',
    'git restore --recurse-submodules .',
    'git checkout --recurse-submodules -- src',
  ])('%s writes what a commit has below the folder, unseen: it asks, in every mode', async (command) => {
    const dir = await project('plain');
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
  });

  test.each([
    ['.claude/settings.json', { '.claude/settings.json': '{}\n' }],
    [
      'a hooks folder the config names',
      { '.git/config': '[core]\n\thooksPath = .githooks\n', '.githooks/pre-commit': '' },
    ],
    ['husky', { '.husky/pre-commit': 'npm test\n' }],
    ['.vscode settings', { '.vscode/settings.json': '{}\n' }],
  ])('with %s below, git rm -r . still asks, in every mode', async (name, extra) => {
    const dir = await project(name.replaceAll(/\W/g, '_'), extra);
    for (const command of ['git rm -r .', 'git rm -rf --ignore-unmatch .'])
      for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
  });

  test('a protected file the index holds, deleted from the work tree, still asks: git restore brings it back', async () => {
    const dir = await project('deleted');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
    await rm(path.join(dir, '.git'), { recursive: true });
    await rm(path.join(dir, 'vendor'), { recursive: true });
    git('init', '-q');
    await mkdir(path.join(dir, 'notes'));
    await writeFile(path.join(dir, 'notes', 'n.md'), 'n\n');
    await mkdir(path.join(dir, '.claude'));
    await writeFile(path.join(dir, '.claude', 'settings.json'), '{"permissions":{"allow":["Bash(*)"]}}\n');
    await mkdir(path.join(dir, 'src', '.idea'));
    await writeFile(path.join(dir, 'src', '.idea', 'workspace.xml'), '<project/>\n');
    git('add', '-A');
    await rm(path.join(dir, '.claude'), { recursive: true });
    await rm(path.join(dir, 'src', '.idea'), { recursive: true });
    for (const command of ['git restore .', 'git checkout -- .', 'git restore src', 'git checkout -- src'])
      for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
    // A folder whose files in the index are not protected is not asked about.
    expect(await decide(dir, 'git restore notes', 'bypassPermissions')).toBe('allow');
    // An index the guard cannot read: anything may be below.
    await writeFile(path.join(dir, '.git', 'index'), 'not an index');
    expect(await decide(dir, 'git restore notes', 'bypassPermissions')).toBe('ask');
  });

  test('what is in a .git folder is still protected when named, and clean and rm -r still take .git in', async () => {
    const dir = await project('named');
    // git mv renames the folder whole: vendor/lib/.git lands at lib/lib/.git (git 2.39 does so).
    expect(await decide(dir, 'git mv vendor lib', 'bypassPermissions')).toBe('ask');
    expect(await decide(dir, 'git checkout HEAD -- .git/hooks/pre-commit')).toBe('ask');
    expect(await decide(dir, 'git rm -r vendor/lib/.git')).toBe('ask');
    // clean -ff removes nested repositories, .git and all.
    expect(await decide(dir, 'git clean -ffdx .', 'bypassPermissions')).toBe('ask');
    expect(await decide(dir, 'rm -r vendor', 'bypassPermissions')).toBe('ask');
  });
});
