// A history read limited to paths shows nothing of other files. With `Read(./.env)` and a `.env`
// that was committed once, `git log -p -- src`, `git blame a.txt` and `git show HEAD:a.txt` were
// denied in every mode as reads of the whole history. Each case runs the real git: what is
// allowed shows no secret, what is still held back shows it.
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { BLAME_VALUE_OPTIONS, historyPaths } from './_git_history_paths.ts';
import { hasGit } from './testdata/has_git.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { GIT_TEST_ENV, runGit, shellOutput } from './testdata/git_fixture.ts';

const GIT = hasGit('git_history_paths_test');
const SECRET = 's3cret-history';
const checks = shellDecider('toolshed-git-history-', [], { deny: ['Read(./.env)'] });
const ENV = GIT_TEST_ENV;
const word = (value: string) => ({ text: value, value, literal: true });

const git = runGit;

const output = shellOutput;

describe('historyPaths', () => {
  test.each([
    ['log', '-p -- src a.txt', ['src', 'a.txt']],
    ['log', '-p -S KEY -- src', ['src']],
    ['show', 'HEAD:src/a.ts', ['src/a.ts']],
    ['show', 'HEAD -- a.txt', ['a.txt']],
    ['show', ':0:a.txt', ['a.txt']],
    ['cat-file', '-p HEAD~2:a.txt', ['a.txt']],
    ['diff', 'HEAD~1 -- a.txt', ['a.txt']],
    ['grep', 'KEY HEAD -- src', ['src']],
    ['blame', '-L 1,5 a.txt', ['a.txt']],
    ['blame', 'HEAD~1 -- a.txt', ['HEAD~1', 'a.txt']],
  ])('git %s %s reads the history of %j', (sub, line, expected) => {
    const words = line.split(' ').map(word);
    expect(historyPaths(sub, words, { gitDir: undefined })?.map((p) => p.word.value)).toEqual(expected);
  });

  test.each([
    ['log', '-p'],
    ['log', '-p a.txt'],
    ['log', '-p --follow -- a.txt'],
    ['log', '-p --full-diff -- a.txt'],
    ['log', '-L 1,5:a.txt'],
    ['log', '-p -- *.txt'],
    ['log', '-p -- :(exclude)x'],
    ['log', '-p -O .env -- a.txt'],
    ['show', 'HEAD'],
    ['show', 'HEAD:a.txt HEAD'],
    ['show', ':/fix'],
    ['cat-file', '-p HEAD'],
    ['blame', '-S .env a.txt'],
    ['blame', '--ignore-revs-file .env a.txt'],
    ['grep', '-f .env HEAD -- a.txt'],
    ['reflog', '-p -- a.txt'],
    ['log', '-p --stdin -- a.txt'],
    ['show', '--stdin -- a.txt'],
    ['show', '--all -- a.txt'],
    ['show', 'v1.0 -- a.txt'],
    ['show', '0123abcd:a.txt'],
    ['cat-file', '-p v1.0:a.txt'],
    ['show', '0123abcd -- a.txt'],
    ['diff', 'HEAD~1:src -- a.txt'],
    ['diff', '0123abcd -- a.txt'],
    ['grep', 'KEY HEAD~1:src -- a.txt'],
    ['grep', '-nf .env HEAD~1 -- a.txt'],
    ['log', '-p -RO.env -- a.txt'],
    ['blame', '--cont=.env a.txt'],
    ['blame', '-wS.env a.txt'],
  ])('git %s %s may read the whole history', (sub, line) => {
    expect(historyPaths(sub, line.split(' ').map(word), { gitDir: undefined })).toBeUndefined();
  });
});

describe.skipIf(!GIT)("blame's value options take the next word, as the real git's do", () => {
  let dir = '';
  beforeAll(async () => {
    dir = path.join(checks.root(), 'blame-options');
    await mkdir(dir, { recursive: true });
    git(dir, 'init', '-q');
    await writeFile(path.join(dir, 'a.txt'), 'a\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
  });

  test('the check can fail: a word that is no value is blamed', () => {
    const run = spawnSync('git', ['blame', '-w', 'NOTAREV', 'a.txt'], { cwd: dir, env: ENV, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toMatch(/NOTAREV/);
  });

  test.each([...BLAME_VALUE_OPTIONS].map((o) => [o]))('git blame %s NOTAREV a.txt', (option) => {
    const run = spawnSync('git', ['blame', option, 'NOTAREV', 'a.txt'], { cwd: dir, env: ENV, encoding: 'utf8' });
    // Taken as the file, NOTAREV would be blamed (no such path): taken as a value, it is not.
    expect(run.stderr).not.toContain("no such path 'NOTAREV'");
  });
});

describe.skipIf(!GIT)('history reads of named paths, with Read(./.env) denied and .env in the history', () => {
  let dir = '';
  beforeAll(async () => {
    dir = path.join(checks.root(), 'repo');
    await mkdir(path.join(dir, 'src'), { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    await writeFile(path.join(dir, 'a.txt'), 'KEY one\n');
    await writeFile(path.join(dir, 'src/x.ts'), 'export const KEY = 1;\n');
    await writeFile(path.join(dir, '.env'), `KEY=${SECRET}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    await writeFile(path.join(dir, 'a.txt'), 'KEY two\n');
    await writeFile(path.join(dir, '.env'), `KEY=${SECRET}-2\n`);
    git(dir, 'commit', '-qam', 'two');
    // The secret leaves the work tree and the index; the history keeps it.
    git(dir, 'rm', '-q', '--cached', '.env');
    await writeFile(path.join(dir, '.gitignore'), '.env\n');
    git(dir, 'add', '.gitignore');
    git(dir, 'commit', '-qm', 'three');
  });

  test.each([
    'git log -p -- a.txt',
    'git log -p -- src',
    'git log -p -S KEY -- a.txt',
    'git show HEAD~1 -- a.txt',
    'git show HEAD~1:a.txt',
    'git show HEAD:./src/x.ts',
    'git cat-file -p HEAD~1:a.txt',
    'git diff HEAD~2 -- a.txt',
    'git grep KEY HEAD~1 -- src',
    'git blame a.txt',
    'git blame -L 1,1 HEAD~1 -- a.txt',
  ])('%s shows no secret and is allowed', async (command) => {
    expect(output(dir, command)).not.toContain(SECRET);
    expect(await checks.decide(dir, command)).toBe('allow');
  });

  test('a path named before `--` is not narrowed to (a value of an option may stand there): held back', async () => {
    expect(output(dir, 'git log -p a.txt')).not.toContain(SECRET);
    expect(await checks.decide(dir, 'git log -p a.txt', 'bypassPermissions')).not.toBe('allow');
  });

  test.each([
    'git log -p',
    'git log -p -- .env',
    'git log -p --full-diff -- a.txt',
    'git log -p -- "*"',
    'git show HEAD~1',
    'git show HEAD~1:.env',
    'git show HEAD~1 -- .env',
    'git cat-file -p HEAD~1:.env',
    'git blame HEAD~1 -- .env',
    'git blame -S .env a.txt',
    'git grep KEY HEAD~1 -- .env',
  ])('%s shows the secret and is held back in every mode', async (command) => {
    expect(output(dir, command)).toContain(SECRET.slice(0, 12));
    const decision = await checks.explain(dir, command, 'bypassPermissions');
    expect(decision.behavior, decision.reason).not.toBe('allow');
  });

  test('a path named from the top (HEAD:.env) is judged there, from a subfolder too', async () => {
    expect(output(path.join(dir, 'src'), 'git show HEAD~1:.env')).toContain(SECRET);
    expect(await checks.decide(dir, 'cd src && git show HEAD~1:.env', 'bypassPermissions')).toBe('deny');
    expect(await checks.decide(dir, 'cd src && git show HEAD~1:../.env', 'bypassPermissions')).toBe('deny');
    expect(await checks.decide(dir, 'cd src && git show HEAD:src/x.ts')).toBe('allow');
  });

  test('the denial of a whole history says how to name the paths, and that works', async () => {
    const { reason } = await checks.explain(dir, 'git log -p');
    expect(reason).toContain('name the paths after `--` to read only their history (`git log -p -- src`');
    expect(await checks.decide(dir, 'git log -p -- src')).toBe('allow');
  });
});
