// Which files a git pathspec that names a folder writes depends on where git takes them from.
// `git rm -r DIR` and `git mv DIR NEW` take only what exists, never a `.git` folder: their folder
// write leaves the `.git` folders out, so a rule for them is not overruled by the repository's own
// `.git`. `git checkout TREE -- DIR` and `git restore --source TREE DIR` write whatever the commit
// has below DIR (a `.claude/settings.json` the work tree does not have, say), which no walk of the
// folder sees: they are unknown writes and ask in every mode.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createSession, type Session } from '@toolshed/core';
import { shellTools } from './family.ts';
import { gitRules, MODES } from './testdata/guarded_project.ts';

const RULES = gitRules('restore', 'checkout', 'rm', 'stash', 'clean', 'mv');

let root = '';
const sessions: Session[] = [];

/** A project: `.git/hooks`, `src/a.ts`, a nested repository `vendor/lib/.git`, and what `extra` adds. */
async function project(name: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = path.join(root, name);
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

async function decide(cwd: string, command: string, mode: (typeof MODES)[number] = 'default'): Promise<string> {
  const session = await createSession({
    cwd,
    families: [shellTools()],
    permissions: { mode, allow: RULES },
    stateDir: path.join(root, 'state', String(sessions.length)),
  });
  sessions.push(session);
  return (await session.explain('Bash', { command })).behavior;
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-worktree-')));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('git pathspecs that name a folder', () => {
  test.each(['git rm -r vendor', 'git rm -r .', 'git mv vendor lib', 'git restore src', 'git checkout -- src'])(
    '%s is allowed by its rule: the .git folders below are not written',
    async (command) => {
      const dir = await project('plain');
      for (const mode of MODES) expect(await decide(dir, command, mode), `${command} (${mode})`).toBe('allow');
    },
  );

  test.each([
    'git checkout evil -- .',
    'git checkout evil -- src',
    'git checkout evil src',
    'git restore --source evil .',
    'git restore -s evil src',
    'git restore --staged --worktree .',
    'git stash push -- src',
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

  test('a pathspec from the index that names the repository folder takes .git in (files deleted since staged come back)', async () => {
    const dir = await project('index');
    for (const command of ['git restore .', 'git checkout -- .'])
      expect(await decide(dir, command, 'bypassPermissions'), command).toBe('ask');
  });

  test('what is in a .git folder is still protected when named, and clean and rm -r still take .git in', async () => {
    const dir = await project('named');
    expect(await decide(dir, 'git checkout HEAD -- .git/hooks/pre-commit')).toBe('ask');
    expect(await decide(dir, 'git rm -r vendor/lib/.git')).toBe('ask');
    // clean -ff removes nested repositories, .git and all.
    expect(await decide(dir, 'git clean -ffdx .', 'bypassPermissions')).toBe('ask');
    expect(await decide(dir, 'rm -r vendor', 'bypassPermissions')).toBe('ask');
  });
});
