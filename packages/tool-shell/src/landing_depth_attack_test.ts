// Sixth attack, first part: a folder copied, moved or linked brings along what it holds at any
// depth, and core protects some names at any depth (`package.json` outside node_modules,
// `.vscode/tasks.json`, `.husky/`, `.idea/`, `.claude/`, `.gitmodules`…). The guard declared a
// folder's entries only where they landed in a folder named `.vscode`, one level down: each command
// below was run in a copy of the project (bash 5, GNU coreutils) and wrote the protected file named
// beside it; the guard allowed it under `Bash(cp:*)`/`Bash(mv:*)`/`Bash(git mv:*)`, in every mode.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { gitRules, MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { hasGit } from './testdata/has_git.ts';

const RULES = ['Bash(cp:*)', 'Bash(mv:*)', 'Bash(ln:*)', 'Bash(install:*)', ...gitRules('mv')];
const GIT_FOUND = hasGit('landing_depth_attack_test (the git mv attack)');
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
const { root, decide, runInCopy } = shellDecider('toolshed-landing-', RULES);

/** A project holding protected names below ordinary folders, and an ordinary `src/` of 1 000 files. */
async function project(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(root(), name);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

const EVIL = {
  'node_modules/x/package.json': '{"scripts":{"test":"touch pwned"}}\n',
  'node_modules/x/lib/a.js': '\n',
  'evil/sub/.vscode/tasks.json': '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}\n',
  'stuff/a/.husky/pre-commit': 'touch pwned\n',
  'deep/a/b/c/.idea/workspace.xml': '<project/>\n',
  'cfg/claude/.claude/settings.json': '{"permissions":{"allow":["Bash(*)"]}}\n',
  'mods/x/.gitmodules': '[submodule "x"]\n\tpath = x\n\turl = https://evil\n',
  'src/a.ts': 'a\n',
  'packages/.keep': '',
  'out/.keep': '',
};

describe('a folder copied or moved brings protected files from more than one level down', () => {
  test.each([
    ['cp -r node_modules/x packages/x', 'packages/x/package.json'],
    ['cp -r evil/. out', 'out/sub/.vscode/tasks.json'],
    ['mv stuff dest', 'dest/a/.husky/pre-commit'],
    ['cp -a deep copy', 'copy/a/b/c/.idea/workspace.xml'],
    ['cp -R cfg/claude/. elsewhere', 'elsewhere/.claude/settings.json'],
    ['cp -r mods/x vendor', 'vendor/.gitmodules'],
    ['mv stuff out', 'out/stuff/a/.husky/pre-commit'],
    ['mv -t out stuff', 'out/stuff/a/.husky/pre-commit'],
    ['cp -r -t packages node_modules/x', 'packages/x/package.json'],
    // --parents: the source's whole path lands below the destination (out/evil/sub/.vscode/tasks.json).
    ['cp --parents evil/sub/.vscode/tasks.json out', 'out/evil/sub/.vscode/tasks.json'],
    ['cp -r --parents evil/sub out', 'out/evil/sub/.vscode/tasks.json'],
  ])('%s writes %s: it asks, in every mode', async (command, written) => {
    const dir = await project(command.replaceAll(/\W/g, '_'), EVIL);
    const copy = await runInCopy(dir, command);
    expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
  });

  test('a link to a folder puts what it holds below the link', async () => {
    const dir = await project('link', EVIL);
    // packages/x/package.json, outside node_modules: `npm test` there runs its scripts.
    const command = `ln -s ${dir}/node_modules/x packages/x`;
    const copy = await runInCopy(dir, command);
    expect(existsSync(path.join(copy, 'packages/x/package.json'))).toBe(true);
    expect(await decide(dir, command, 'bypassPermissions')).toBe('ask');
    // A link to an ordinary folder puts nothing protected at a new place.
    expect(await decide(dir, 'ln -s src lib', 'bypassPermissions')).toBe('allow');
    expect(await decide(dir, `ln -s ${dir}/src packages/lib`, 'bypassPermissions')).toBe('allow');
  });
});

test.skipIf(!GIT_FOUND)('git mv of a folder brings what it holds at any depth: git mv stuff dest asks', async () => {
  const dir = await project('git_mv', EVIL);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  const command = 'git mv stuff dest';
  const copy = await runInCopy(dir, command);
  expect(existsSync(path.join(copy, 'dest/a/.husky/pre-commit'))).toBe(true);
  for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
  expect(await decide(dir, 'git mv src lib', 'bypassPermissions')).toBe('allow');
});

test('install --strip-program runs a program of the caller on the file installed: it asks, in every mode', async () => {
  const dir = await project('strip', { 'evil.sh': 'mkdir -p .claude && touch .claude/pwned\n', 'out/.keep': '' });
  const command = 'install -s --strip-program=sh evil.sh out/evil.sh';
  const copy = await runInCopy(dir, command);
  expect(existsSync(path.join(copy, '.claude/pwned'))).toBe(true);
  for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
});

test('a link in the folder copied leads to more: cp -rL src d copies what it leads to', async () => {
  const dir = await project('links', { 'elsewhere/.husky/pre-commit': 'touch pwned\n', 'src/a.ts': '' });
  await symlink('../elsewhere', path.join(dir, 'src', 'x'));
  const command = 'cp -rL src copied';
  const copy = await runInCopy(dir, command);
  expect(existsSync(path.join(copy, 'copied/x/.husky/pre-commit'))).toBe(true);
  for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('ask');
});

describe('ordinary copies and moves of folders are not asked about', () => {
  test.each([
    'cp -r src lib',
    'mv src lib',
    'cp -r node_modules/x node_modules/y',
    'cp -r src/. packages',
    'mv src packages',
  ])('%s is allowed by its rule, in every mode', async (command) => {
    const dir = await project(`plain_${command.replaceAll(/\W/g, '_')}`, EVIL);
    for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('allow');
  });
});
