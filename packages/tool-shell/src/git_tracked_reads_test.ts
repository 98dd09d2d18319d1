// `git diff` and `git grep` of the work tree open only the files git tracks. With the rule
// Claude Code's documentation gives as its first example, `Read(./.env)`, and `.env` git-ignored
// as it usually is, `git diff`, `git diff --stat` and `git grep` were denied in every mode ("takes
// in every file under it"), though git never opens `.env`. Each case below runs the real git:
// what is allowed shows no secret, what is still held back shows it.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { hasGit } from './testdata/has_git.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { runGit, shellOutput } from './testdata/git_fixture.ts';

const GIT = hasGit('git_tracked_reads_test');
const SECRET = 's3cret-value';
const checks = shellDecider('toolshed-git-tracked-', [], { deny: ['Read(./.env)', 'Read(./sub/.env)'] });

const git = runGit;

/** What the real command prints in `dir` (errors included). */
const output = shellOutput;

/** A repository with `a.txt` and `src/x.ts` changed since the commit, and `.env` as `setup` leaves it. */
async function repo(name: string, env: 'ignored' | 'committed'): Promise<string> {
  const dir = path.join(checks.root(), name);
  await mkdir(path.join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, '.gitignore'), env === 'ignored' ? '.env\n' : '');
  await writeFile(path.join(dir, 'a.txt'), 'KEY one\n');
  await writeFile(path.join(dir, 'src/x.ts'), 'export const KEY = 1;\n');
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  await writeFile(path.join(dir, 'a.txt'), 'KEY two\n');
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}-changed\n`);
  return dir;
}

describe.skipIf(!GIT)('git reads of the work tree, with Read(./.env) denied', () => {
  let ignored = '';
  let committed = '';
  beforeAll(async () => {
    ignored = await repo('ignored', 'ignored');
    committed = await repo('committed', 'committed');
  });

  test.each([
    'git diff',
    'git diff --stat',
    'git diff -S KEY',
    'git diff -- a.txt',
    'git diff a.txt src',
    'git grep KEY',
    'git grep -n -e KEY -- src',
    'git status && git diff',
  ])('%s: .env is git-ignored, never opened, and the read is allowed', async (command) => {
    expect(output(ignored, command)).not.toContain(SECRET);
    expect(await checks.decide(ignored, command)).toBe('allow');
  });

  test.each(['git diff', 'git diff --stat', 'git grep KEY'])(
    '%s: .env is tracked, git shows it, and the read is denied in every mode',
    async (command) => {
      if (!command.includes('--stat')) expect(output(committed, command)).toContain(SECRET);
      for (const decision of await checks.inEveryMode(committed, command, 'deny')) {
        expect(decision.rule).toBe('Read(./.env)');
        expect(decision.reason).toContain('every file git tracks under it');
      }
    },
  );

  test('the advice of that denial works: naming the paths after -- leaves .env out', async () => {
    const { reason } = await checks.explain(committed, 'git diff');
    expect(reason).toContain('name the paths to read after `--` (`git diff -- src`)');
    expect(output(committed, 'git diff -- src a.txt')).not.toContain(SECRET);
    expect(await checks.decide(committed, 'git diff -- src a.txt')).toBe('allow');
    expect(await checks.decide(committed, 'git diff -- .env', 'bypassPermissions')).toBe('deny');
  });

  test.each([
    // HEAD's copy of .env, which is no longer in the index.
    ['git diff --cached', 'git rm -q --cached .env'],
    ['git diff --staged', 'git rm -q --cached .env'],
    ['git diff HEAD', 'git rm -q --cached .env'],
    ['git diff --unified HEAD', 'git rm -q --cached .env'],
    ['git diff main', 'git rm -q --cached .env'],
    ['git grep KEY HEAD', 'git rm -q --cached .env'],
    ['git show HEAD', 'git rm -q --cached .env'],
    // A file git does not track, searched all the same.
    ['git grep --untracked KEY', 'true'],
    ['git grep --no-index KEY', 'true'],
  ])('%s reads what the index does not list (after %s): still held back', async (command, before) => {
    const dir = `${committed}-${command.replace(/\W+/g, '-')}`;
    execFileSync('cp', ['-a', committed, dir]);
    if (before !== 'true') output(dir, before);
    if (command.includes('--untracked') || command.includes('--no-index')) {
      // Untracked (ignored by the index): git diff cannot see it, these do.
      output(dir, 'git rm -q --cached .env');
      expect(output(dir, 'git diff')).not.toContain(SECRET);
    }
    expect(output(dir, command)).toContain(SECRET);
    const decision = await checks.explain(dir, command, 'bypassPermissions');
    expect(decision.behavior, decision.reason).not.toBe('allow');
  });

  test.each([
    'git add -f -N .env && git diff',
    'git add -f .env; git diff --cached',
    'git diff; git add -f -N .env',
    'for i in 1 2; do git diff; git add -f -N .env; done',
    "bash -c 'git add -f -N .env' && git grep KEY",
  ])('%s: another part may add .env to the index first, so git diff is a history read', async (command) => {
    const dir = `${ignored}-${command.replace(/\W+/g, '-')}`;
    execFileSync('cp', ['-a', ignored, dir]);
    const decision = await checks.explain(dir, command, 'bypassPermissions');
    expect(decision.behavior, decision.reason).not.toBe('allow');
    // Run after the decision (it changes the index the decision reads).
    if (command.startsWith('git add -f -N')) expect(output(dir, command)).toContain(SECRET);
  });

  test('a recursive read held back says to name what to read, and doing so is allowed', async () => {
    const { behavior, reason } = await checks.explain(ignored, 'grep -r KEY .');
    expect(behavior).toBe('deny');
    expect(reason).toContain('name the files or folders to read instead, leaving out the ones it covers');
    expect(output(ignored, 'grep -r KEY src a.txt')).not.toContain(SECRET);
    expect(await checks.decide(ignored, 'grep -r KEY src a.txt')).toBe('allow');
  });

  test('a history read asks where .env is ignored (it may never have been committed) and denies where it is tracked', async () => {
    await checks.inEveryMode(ignored, 'git log -p', 'ask');
    expect(output(ignored, 'git log -p')).not.toContain(SECRET);
    expect(output(committed, 'git log -p')).toContain(SECRET);
    for (const decision of await checks.inEveryMode(committed, 'git log -p', 'deny'))
      expect(decision.rule).toBe('Read(./.env)');
  });

  test('a history read held back says what reads only the tracked files', async () => {
    const { reason } = await checks.explain(ignored, 'git diff HEAD');
    expect(reason).toContain('without a revision, `git diff` and `git grep` read only the files git tracks');
    expect(reason).toContain('name the paths after `--` to read only their history (`git log -p -- src`');
  });

  test('a word naming a branch is a revision, whatever it looks like', async () => {
    const dir = `${committed}-branch`;
    execFileSync('cp', ['-a', committed, dir]);
    git(dir, 'branch', 'docs');
    git(dir, 'pack-refs', '--all');
    git(dir, 'rm', '-q', '--cached', '.env');
    expect(output(dir, 'git diff docs')).toContain(SECRET);
    expect(await checks.decide(dir, 'git diff docs', 'bypassPermissions')).not.toBe('allow');
  });

  test('a submodule is read whole: a rule about a file in it holds git diff back', async () => {
    const inner = path.join(checks.root(), 'inner');
    await mkdir(inner, { recursive: true });
    git(inner, 'init', '-q', '-b', 'main');
    await writeFile(path.join(inner, '.env'), `SUB=${SECRET}\n`);
    git(inner, 'add', '-A');
    git(inner, 'commit', '-qm', 'inner');
    const outer = path.join(checks.root(), 'outer');
    await mkdir(outer, { recursive: true });
    git(outer, 'init', '-q', '-b', 'main');
    await writeFile(path.join(outer, 'a.txt'), 'a\n');
    git(outer, 'add', '-A');
    git(outer, 'submodule', 'add', '-q', inner, 'sub');
    git(outer, 'commit', '-qm', 'outer');
    await writeFile(path.join(outer, 'sub/.env'), `SUB=${SECRET}-changed\n`);
    expect(output(outer, 'git diff --submodule=diff')).toContain(SECRET);
    expect(await checks.decide(outer, 'git diff --submodule=diff', 'bypassPermissions')).toBe('deny');
    expect(await checks.decide(outer, 'git diff -- a.txt')).toBe('allow');
  });

  test('an index the guard cannot read (split) may list anything: it asks, in every mode', async () => {
    const dir = `${ignored}-split`;
    execFileSync('cp', ['-a', ignored, dir]);
    git(dir, 'update-index', '--split-index');
    for (const decision of await checks.inEveryMode(dir, 'git diff', 'ask')) {
      expect(decision.reason).toContain('every file git tracks under it');
    }
  });
});
