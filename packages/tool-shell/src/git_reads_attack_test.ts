// Attacks on the guard's model of git reads (`git diff`/`git grep` of the tracked files, history
// reads narrowed to the paths named): each input makes the real git print a file a Read rule
// covers, or read it, while the guard took the command for a read of other files. Each case runs
// the real git first (the secret is printed), then checks the decision in every mode.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hasGit } from './testdata/has_git.ts';
import { MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';
import { GIT_TEST_ENV, runGit, shellOutput } from './testdata/git_fixture.ts';

const GIT = hasGit('git_reads_attack_test');
const SECRET = 's3cret-attack';
// A folder outside the project, with a secret file a rule covers (the folder itself it does not).
const OUTSIDE = path.join(os.tmpdir(), `toolshed-git-outside-${process.pid}`);
const checks = shellDecider('toolshed-git-reads-attack-', [], {
  deny: ['Read(./.env)', 'Read(./config/secrets.json)', `Read(/${OUTSIDE}/secret/key)`],
});
const ENV = GIT_TEST_ENV;

const git = (cwd: string, ...args: string[]): string => runGit(cwd, ...args).trim();

/** What the real command prints in `dir`, standard error included. */
const output = shellOutput;

/** The decision in every mode is not allow; the reasons, for further checks. */
async function heldBack(dir: string, command: string): Promise<string[]> {
  const reasons: string[] = [];
  for (const mode of MODES) {
    const decision = await checks.explain(dir, command, mode);
    expect(decision.behavior, `${command} (${mode}): ${decision.reason}`).not.toBe('allow');
    reasons.push(decision.reason ?? '');
  }
  return reasons;
}

/**
 * A repository whose history holds `.env` and `config/secrets.json` (commits one and two), both
 * since removed from the index and git-ignored (commit three), with `.env` still in the work tree
 * and `a.txt` changed since the last commit.
 */
async function repo(name: string): Promise<string> {
  const dir = path.join(checks.root(), name);
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await mkdir(path.join(dir, 'config'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  await writeFile(path.join(dir, 'a.txt'), 'KEY one\n');
  await writeFile(path.join(dir, 'src/x.ts'), 'export const KEY = 1;\n');
  await writeFile(path.join(dir, 'config/secrets.json'), `{"key":"${SECRET}-json"}\n`);
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}-1\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  await writeFile(path.join(dir, 'a.txt'), 'KEY two\n');
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}-2\n`);
  git(dir, 'commit', '-qam', 'two');
  git(dir, 'rm', '-q', '--cached', '.env', 'config/secrets.json');
  await writeFile(path.join(dir, '.gitignore'), '.env\nsecrets.json\n');
  git(dir, 'add', '.gitignore');
  git(dir, 'commit', '-qm', 'three');
  await writeFile(path.join(dir, 'a.txt'), 'KEY three\n');
  await writeFile(path.join(dir, '.env'), `KEY=${SECRET}-3\n`);
  return dir;
}

describe.skipIf(!GIT)('git reads that print what a Read rule covers', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await repo('repo');
    mkdirSync(path.join(OUTSIDE, 'secret'), { recursive: true });
    mkdirSync(path.join(OUTSIDE, 'empty'), { recursive: true });
    await writeFile(path.join(OUTSIDE, 'secret/key'), `OUT=${SECRET}-outside\n`);
  });
  afterAll(() => rmSync(OUTSIDE, { recursive: true, force: true }));

  /** A copy of the repository, changed by `setup` (run with bash). */
  function copy(name: string, setup: string): string {
    const to = `${dir}-${name}`;
    execFileSync('cp', ['-a', dir, to]);
    const run = spawnSync('bash', ['-c', setup], { cwd: to, env: ENV, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    return to;
  }

  test('git diff of two paths, one outside the repository, is `diff --no-index` of both: held back', async () => {
    const command = `git diff ${OUTSIDE}/secret ${OUTSIDE}/empty`;
    expect(output(dir, command)).toContain(`${SECRET}-outside`);
    await heldBack(dir, command);
    // A folder of the project beside a folder outside: every file in it, tracked or not.
    expect(output(dir, `git diff ${OUTSIDE}/empty config`)).toContain(`${SECRET}-json`);
    await heldBack(dir, `git diff ${OUTSIDE}/empty config`);
    expect(output(dir, `git diff --stat ${OUTSIDE}/empty .`)).toContain('.env');
    await heldBack(dir, `git diff ${OUTSIDE}/empty .`);
  });

  test('a name git reads as `git describe` output (NAME-g<hex>) is a revision: held back', async () => {
    const command = `git diff anything-g${git(dir, 'rev-parse', '--short=7', 'HEAD~1')}`;
    expect(output(dir, command)).toContain(`${SECRET}-2`);
    await heldBack(dir, command);
  });

  test('a packed ref named in full (refs/heads/old) is a revision: held back', async () => {
    const packed = copy('packed', 'git branch old HEAD~1 && git pack-refs --all');
    expect(output(packed, 'git diff refs/heads/old')).toContain(`${SECRET}-2`);
    await heldBack(packed, 'git diff refs/heads/old');
    await heldBack(packed, 'git grep KEY refs/heads/old');
  });

  test("main-worktree/HEAD and a linked worktree's own refs are revisions: held back", async () => {
    const head = copy('head', 'git add -f .env && git commit -qm four && git rm -q --cached .env');
    expect(output(head, 'git diff main-worktree/HEAD')).toContain(`${SECRET}-3`);
    await heldBack(head, 'git diff main-worktree/HEAD');
    const linked = `${dir}-linked`;
    git(dir, 'worktree', 'add', '-q', '--detach', linked);
    git(linked, 'update-ref', 'refs/worktree/old', 'HEAD~1');
    expect(output(linked, 'git diff worktree/old')).toContain(`${SECRET}-2`);
    await heldBack(linked, 'git diff worktree/old');
  });

  test('git log --stdin reads more pathspecs from its input: held back', async () => {
    const command = "printf 'HEAD~1\\n--\\n.env\\n' | git log -p --stdin -- a.txt";
    expect(output(dir, command)).toContain(`${SECRET}-2`);
    await heldBack(dir, command);
    await heldBack(dir, "printf 'HEAD~1\\n--\\n.env\\n' | git show --stdin -- a.txt");
  });

  test('git show of a blob named by its object name prints it whatever the pathspec: held back', async () => {
    const command = `git show ${git(dir, 'rev-parse', 'HEAD~1:.env')} -- a.txt`;
    expect(output(dir, command)).toContain(`${SECRET}-2`);
    await heldBack(dir, command);
    // A tag may name a blob as well.
    const tagged = copy('tagged', 'git tag v1 HEAD~1:.env');
    expect(output(tagged, 'git show v1 -- a.txt')).toContain(`${SECRET}-2`);
    await heldBack(tagged, 'git show v1 -- a.txt');
  });

  test('a pathspec is read in the tree named (HEAD~1:config), not from the top: held back', async () => {
    for (const command of [
      'git grep -e . HEAD~1:config -- secrets.json',
      'git diff HEAD~1:config HEAD:src -- secrets.json',
      `git diff ${git(dir, 'rev-parse', 'HEAD~1:config')} -- secrets.json`,
    ]) {
      expect(output(dir, command), command).toContain(`${SECRET}-json`);
      await heldBack(dir, command);
    }
  });

  test('git grep -f in a bundle of options reads the file for its patterns: held back', async () => {
    const guessed = copy('guess', `echo 'KEY=${SECRET}-3' > guess.txt && git add guess.txt`);
    // A guess at .env's content is confirmed: git read .env.
    expect(output(guessed, 'git grep -lnf .env -- guess.txt')).toContain('guess.txt');
    await heldBack(guessed, 'git grep -lnf .env -- guess.txt');
    await heldBack(guessed, 'git grep -lnf .env HEAD -- guess.txt');
  });

  test('a .git folder git does not take for a repository does not hide the one above: held back', async () => {
    const nested = copy('nested', 'mkdir src/.git && git branch old HEAD~1');
    expect(output(nested, 'cd src && git log -p')).toContain(`${SECRET}-2`);
    await heldBack(nested, 'cd src && git log -p');
    expect(output(nested, 'cd src && git diff old')).toContain(`${SECRET}-2`);
    await heldBack(nested, 'cd src && git diff old');
  });

  test("blame's abbreviated file options (--cont=.env) read the file they name: held back", async () => {
    for (const command of ['git blame --cont=.env a.txt', 'git blame --ignore-revs-f=.env a.txt']) {
      expect(output(dir, command), command).toContain(`${SECRET}-3`);
      await heldBack(dir, command);
    }
  });

  test('paths of git -C DIR diff --no-index and of blame --contents are read from where git reads them', async () => {
    expect(output(dir, 'git -C src diff --no-index ../.env /dev/null')).toContain(`${SECRET}-3`);
    await heldBack(dir, 'git -C src diff --no-index ../.env /dev/null');
    // git reads --contents from the top of the work tree, whatever folder it runs in.
    expect(output(dir, 'cd src && git blame --contents .env x.ts')).toContain(`${SECRET}-3`);
    await heldBack(dir, 'cd src && git blame --contents .env x.ts');
  });

  test('git show --all (or --tags) shows a tag of a blob whole: held back', async () => {
    const tagged = copy('all', 'git tag v1 HEAD~1:.env');
    for (const command of ['git show --all -- a.txt', 'git show --tags -- a.txt']) {
      expect(output(tagged, command), command).toContain(`${SECRET}-2`);
      await heldBack(tagged, command);
    }
  });

  test('a file an option reads outside the repository is a read of it (blame -S prints its first line)', async () => {
    const clean = path.join(checks.root(), 'clean');
    await mkdir(clean, { recursive: true });
    git(clean, 'init', '-q', '-b', 'main');
    await writeFile(path.join(clean, 'a.txt'), 'a\n');
    git(clean, 'add', '-A');
    git(clean, 'commit', '-qm', 'one');
    for (const command of [`git blame -S ${OUTSIDE}/secret/key a.txt`, `git blame -wS${OUTSIDE}/secret/key a.txt`]) {
      expect(output(clean, command), command).toContain(`${SECRET}-outside`);
      await heldBack(clean, command);
    }
    await heldBack(clean, `git grep -f ${OUTSIDE}/secret/key -- a.txt`);
    await heldBack(clean, `git diff -O${OUTSIDE}/secret/key`);
  });

  test('a replaced object shows another file under a tracked path (git replace): held back', async () => {
    const replaced = copy('replaced', 'git replace $(git rev-parse HEAD:a.txt) $(git rev-parse HEAD~1:.env)');
    for (const command of ['git show HEAD:a.txt', 'git diff', 'git diff -- a.txt', 'git log -p -1 -- a.txt']) {
      expect(output(replaced, command), command).toContain(`${SECRET}-2`);
      await heldBack(replaced, command);
    }
    // Made in the same command, the replacement is not there when the guard looks.
    const same = copy('replaced-same', 'true');
    const command = `git replace ${git(same, 'rev-parse', 'HEAD:a.txt')} ${git(same, 'rev-parse', 'HEAD~1:.env')} && git show HEAD:a.txt`;
    await heldBack(same, command);
    // Run after the decision (it makes the replacement the decision would see).
    expect(output(same, command)).toContain(`${SECRET}-2`);
  });

  test('HEAD or a branch that is a symbolic ref to a tag may name a blob: held back', async () => {
    const head = copy('symbolic', 'git tag v1 HEAD~1:.env && git symbolic-ref HEAD refs/tags/v1');
    expect(output(head, 'git show HEAD -- a.txt')).toContain(`${SECRET}-2`);
    await heldBack(head, 'git show HEAD -- a.txt');
    const branch = copy('symbolic-branch', 'git tag v1 HEAD~1:.env && git symbolic-ref refs/heads/b refs/tags/v1');
    expect(output(branch, 'git show b -- a.txt')).toContain(`${SECRET}-2`);
    await heldBack(branch, 'git show b -- a.txt');
  });

  test('git log options that print diffs without -p (--cc, --remerge-diff, --check…) are content reads: held back', async () => {
    const merged = copy(
      'merged',
      [
        'git checkout -qb side HEAD~1',
        `echo KEY=${SECRET}-side > .env`,
        'git add -f .env && git commit -qm side',
        'git checkout -q main',
        `echo 'KEY=${SECRET}-main  ' > .env`,
        'git add -f .env && git commit -qm main',
        'git merge -q side >/dev/null 2>&1; echo KEY=${SECRET}-merged > .env; git add -f .env; git commit -qm merged',
        'git rm -q --cached .env && git commit -qm untrack',
      ].join(' && '),
    );
    for (const command of [
      'git log --cc',
      'git log -c',
      'git log --remerge-diff',
      'git log --diff-merges=m',
      'git log --check',
      'git log --binary',
    ]) {
      expect(output(merged, command), command).toContain(SECRET);
      await heldBack(merged, command);
    }
    expect(await checks.decide(merged, 'git log --oneline --graph -n 5')).toBe('allow');
  });

  test('git commands that read a message or a blob from a file or an object read it: held back', async () => {
    const blob = git(dir, 'rev-parse', 'HEAD~1:.env');
    for (const [command, show] of [
      ['git commit -q --allow-empty -F .env && git log -1', ''],
      ['git notes add -F .env HEAD', 'git log -1'],
      [`git notes add -C ${blob} HEAD`, 'git log -1'],
      [`git notes append -C${blob} HEAD`, 'git log -1'],
      ['git tag -a t1 -F .env', 'git tag -n1'],
      ['git tag -a t1 --file=.env', 'git tag -n1'],
      ['git hash-object -w .env', `git notes add -C $(git hash-object .env) HEAD && git log -1`],
    ] as const) {
      const ran = copy(`message-${command.replace(/\W+/g, '-').slice(0, 40)}`, 'true');
      await heldBack(ran, command);
      // Run after the decision: what it made shows the secret.
      expect(output(ran, show === '' ? command : `${command} && ${show}`), command).toContain(SECRET);
    }
  });

  test('git plumbing that puts any object under any path (update-index --cacheinfo, read-tree --prefix) reads it: held back', async () => {
    const blob = git(dir, 'rev-parse', 'HEAD~1:.env');
    for (const [command, show] of [
      [`git update-index --add --cacheinfo 100644,${blob},zz.txt`, 'git diff'],
      [`git update-index --add --cacheinfo 100644 ${blob} zz.txt`, 'git show :zz.txt'],
      ['git read-tree --prefix=old/ HEAD~1', 'git diff'],
      // The tree it prints names .env's blob zz.txt: `git show TREE:zz.txt` prints it.
      [`printf '100644 blob ${blob}\\tzz.txt\\n' | git mktree`, ''],
    ] as const) {
      const ran = copy(`alias-${command.replace(/\W+/g, '-').slice(0, 40)}`, 'true');
      await heldBack(ran, command);
      const shown = show === '' ? `git show $(${command}):zz.txt` : `${command} && ${show}`;
      expect(output(ran, shown), command).toContain(SECRET);
    }
    // A tracked .env moved by git to another name is read by the move.
    const tracked = copy('git-mv', 'git add -f .env && git commit -qm env');
    await heldBack(tracked, 'git mv .env moved.txt');
    expect(output(tracked, 'git mv .env moved.txt && cat moved.txt')).toContain(SECRET);
  });

  test('REV:path with REV a tree (an object name, a tag of one) reads the path in that tree: held back', async () => {
    const tree = git(dir, 'rev-parse', 'HEAD~1:config');
    const tagged = copy('tree-tag', 'git tag tt HEAD~1:config');
    for (const [where, command] of [
      [dir, `git show ${tree}:secrets.json`],
      [dir, `git cat-file -p ${tree}:secrets.json`],
      [tagged, 'git show tt:secrets.json'],
    ] as const) {
      expect(output(where, command), command).toContain(`${SECRET}-json`);
      await heldBack(where, command);
    }
  });

  test('git --icase-pathspecs matches .env with .ENV: held back', async () => {
    const tracked = copy('icase', `git add -f .env && git commit -qm env && echo KEY=${SECRET}-4 > .env`);
    for (const command of ['git --icase-pathspecs diff -- .ENV', 'git --icase-pathspecs grep KEY -- .ENV']) {
      expect(output(tracked, command), command).toContain(SECRET);
      await heldBack(tracked, command);
    }
  });

  test('everyday reads stay allowed and show no secret', async () => {
    const everyday = copy(
      'everyday',
      'mkdir hooks && echo "KEY hook" > hooks/use.ts && git add hooks && git branch old HEAD~1',
    );
    for (const command of [
      'git diff',
      'git diff .',
      'git diff -- .',
      'git diff --stat',
      'git diff hooks',
      'git diff a.txt src',
      'git grep KEY',
      'git grep KEY .',
      'git grep -n -e KEY -- src',
      'git log -p -- src',
      'git show HEAD -- a.txt',
      'git show HEAD:a.txt',
      'git show old:a.txt',
      'git diff old -- a.txt',
      'git diff HEAD~2..main -- a.txt',
      'git grep KEY old -- src',
      'git blame a.txt',
      'cd src && git diff',
    ]) {
      expect(output(everyday, command), command).not.toContain(SECRET);
      for (const mode of MODES) {
        const decision = await checks.explain(everyday, command, mode);
        expect(decision.behavior, `${command} (${mode}): ${decision.reason}`).toBe('allow');
      }
    }
  });
});
