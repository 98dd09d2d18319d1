// A repository that is not the project's own — a nested one in the working directory, a `.git`
// file leading to a git folder inside the project, a git folder unpacked from an archive — can
// carry a config that makes git run a program: `core.fsmonitor` on `git status`, `diff.external`
// on `git diff`, `diff.<driver>.textconv` on `git log -p`, `filter.<driver>.clean` on `git diff`,
// or an include of a file that does. The guard allowed the read-only git command there without
// asking, in every mode, and the program ran (each test below first runs the command for real
// and sees the marker written). Now the command asks, naming the repository, the key and the value.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { hasGit } from './testdata/has_git.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const GIT_FOUND = hasGit('git_foreign_config_attack_test');
const { root, inEveryMode } = shellDecider('toolshed-gitexec-', []);

let project = '';
let marker = '';

/** Runs git quietly in `cwd`, as a person setting up the scene would. */
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

/** A repository at `dir` with `a.txt` (and `src/b.txt`) committed, then `a.txt` changed. */
async function repository(dir: string, attributes?: string): Promise<void> {
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await writeFile(path.join(dir, 'a.txt'), 'one\n');
  await writeFile(path.join(dir, 'src', 'b.txt'), 'b\n');
  if (attributes !== undefined) await writeFile(path.join(dir, '.gitattributes'), attributes);
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  await writeFile(path.join(dir, 'a.txt'), 'two\n');
}

/** Adds lines to a repository's config file. */
function configure(gitDir: string, text: string): Promise<void> {
  return writeFile(path.join(gitDir, 'config'), text, { flag: 'a' });
}

/** Runs the command for real in the project (with the read-only call's environment) and says whether the program ran. */
async function programRuns(command: string): Promise<boolean> {
  await rm(marker, { force: true });
  try {
    execFileSync('bash', ['-c', command], {
      cwd: project,
      stdio: 'ignore',
      timeout: 10_000,
      env: {
        ...process.env,
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'safe.bareRepository',
        GIT_CONFIG_VALUE_0: 'explicit',
      },
    });
  } catch {
    // What it ran before failing is what counts.
  }
  return existsSync(marker);
}

describe.skipIf(!GIT_FOUND)('a repository that is not the project’s own runs what its config names', () => {
  let evil = '';
  beforeAll(async () => {
    project = path.join(root(), 'project');
    marker = path.join(root(), 'ran');
    evil = path.join(root(), 'evil.sh');
    await writeFile(evil, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
    await chmod(evil, 0o755);
    await repository(project);
    // Nested repositories the project does not track, each with a config that runs evil.sh.
    await repository(path.join(project, 'vendor', 'fsmon'));
    await configure(path.join(project, 'vendor', 'fsmon', '.git'), `[core]\n\tfsmonitor = ${evil}\n`);
    await repository(path.join(project, 'vendor', 'extdiff'));
    await configure(path.join(project, 'vendor', 'extdiff', '.git'), `[diff]\n\texternal = ${evil}\n`);
    await repository(path.join(project, 'vendor', 'textconv'), '*.txt diff=x\n');
    await configure(path.join(project, 'vendor', 'textconv', '.git'), `[diff "x"]\n\ttextconv = ${evil}\n`);
    await repository(path.join(project, 'vendor', 'filter'), '*.txt filter=x\n');
    await configure(path.join(project, 'vendor', 'filter', '.git'), `[filter "x"]\n\tclean = ${evil}\n`);
    // An include of a file that sets it, beside the repository.
    await repository(path.join(project, 'vendor', 'included'));
    await writeFile(path.join(project, 'vendor', 'shared.cfg'), `[core]\n\tfsmonitor = ${evil}\n`);
    await configure(
      path.join(project, 'vendor', 'included', '.git'),
      '[includeIf "gitdir:**"]\n\tpath = ../../shared.cfg\n',
    );
    // A `.git` file leading to a git folder kept elsewhere in the project.
    await repository(path.join(project, 'stash', 'lib'));
    await configure(path.join(project, 'stash', 'lib', '.git'), `[core]\n\tfsmonitor = ${evil}\n`);
    await mkdir(path.join(project, 'linked', 'src'), { recursive: true });
    await writeFile(path.join(project, 'linked', '.git'), 'gitdir: ../stash/lib/.git\n');
    git(path.join(project, 'stash', 'lib'), 'config', 'core.worktree', path.join(project, 'linked'));
    // An empty `.git` folder git passes over, to the repository above it.
    await mkdir(path.join(project, 'vendor', 'fsmon', 'inner', '.git'), { recursive: true });
  });

  test.each([
    ['cd vendor/fsmon && git status', 'core.fsmonitor'],
    ['git -C vendor/fsmon status', 'core.fsmonitor'],
    ['cd vendor/fsmon/inner && git status', 'core.fsmonitor'],
    ['git -C vendor/extdiff diff', 'diff.external'],
    ['git -C vendor/textconv log -p', 'diff.x.textconv'],
    ['git -C vendor/filter diff', 'filter.x.clean'],
    ['git -C vendor/included status', 'core.fsmonitor'],
    ['git -C linked status', 'core.fsmonitor'],
    ['git --git-dir=vendor/fsmon/.git --work-tree=vendor/fsmon status', 'core.fsmonitor'],
    ['git --git-dir vendor/extdiff/.git diff', 'diff.external'],
  ])('%s runs the program, and asks in every mode naming %s', async (command, key) => {
    expect(await programRuns(command)).toBe(true);
    const decisions = await inEveryMode(project, command, 'ask');
    for (const d of decisions) {
      expect(d.reason).toContain(key);
      expect(d.reason).toContain(evil);
    }
  });

  test('the reason names the repository and says what to do', async () => {
    const [d] = await inEveryMode(project, 'git -C vendor/fsmon status', 'ask');
    expect(d!.reason).toContain(path.join(project, 'vendor', 'fsmon', '.git'));
    expect(d!.reason).toMatch(/approve/);
  });

  test.each([
    'git -c core.fsmonitor= -C vendor/fsmon status',
    'git -c diff.external= -C vendor/extdiff diff',
    'git -c diff.x.textconv= -C vendor/textconv log -p',
    'git -C vendor/filter -c filter.x.clean= diff',
  ])('%s turns the program off: it does not run, and the command is allowed in every mode', async (command) => {
    expect(await programRuns(command)).toBe(false);
    await inEveryMode(project, command, 'allow');
  });

  test.each([
    // A subsection's name is case-sensitive: `diff.X` is another driver.
    'git -c diff.X.textconv= -C vendor/textconv log -p',
    'git -c diff.external= -C vendor/fsmon status',
  ])('%s turns off another setting: it still asks', async (command) => {
    await inEveryMode(project, command, 'ask');
  });

  test('gpg.program and a config the guard cannot read ask as well', async () => {
    const dir = path.join(project, 'vendor', 'gpg');
    await repository(dir);
    await configure(path.join(dir, '.git'), `[gpg]\n\tprogram = ${evil}\n`);
    await inEveryMode(project, 'git -C vendor/gpg log --show-signature', 'ask');
    const odd = path.join(project, 'vendor', 'odd');
    await repository(odd);
    await configure(path.join(odd, '.git'), '[core]\n\t= what\n');
    const [d] = await inEveryMode(project, 'git -C vendor/odd status', 'ask');
    expect(d!.reason).toContain('cannot read');
  });
});

describe.skipIf(!GIT_FOUND)('a repository the project tracks as a submodule runs what its config names', () => {
  // `git status` and `git diff` in the project's own repository look into each submodule's work
  // tree with a `git status` there: an embedded repository (a gitlink whose folder holds a `.git`
  // folder unpacked from an archive) runs its core.fsmonitor.
  let top = '';
  let evil = '';
  beforeAll(async () => {
    top = path.join(root(), 'embedding');
    evil = path.join(root(), 'evil-sub.sh');
    await writeFile(evil, `#!/bin/sh\ntouch '${path.join(root(), 'ran-sub')}'\n`);
    await chmod(evil, 0o755);
    await repository(top);
    await repository(path.join(top, 'sub'));
    git(top, 'add', 'sub');
    git(top, 'commit', '-qm', 'embed');
    await configure(path.join(top, 'sub', '.git'), `[core]\n\tfsmonitor = ${evil}\n`);
  });

  test.each(['git status', 'git diff'])('%s runs it, and asks in every mode', async (command) => {
    const ran = path.join(root(), 'ran-sub');
    await rm(ran, { force: true });
    execFileSync('bash', ['-c', `${command} >/dev/null 2>&1 || true`], { cwd: top });
    expect(existsSync(ran)).toBe(true);
    const [d] = await inEveryMode(top, command, 'ask');
    expect(d!.reason).toContain(path.join(top, 'sub', '.git'));
  });
});

describe.skipIf(!GIT_FOUND)('everyday git commands stay allowed', () => {
  let home = '';
  beforeAll(async () => {
    home = path.join(root(), 'home');
    await repository(home);
    // A clean clone inside the project, and a submodule.
    await repository(path.join(root(), 'upstream'));
    git(home, 'clone', '-q', path.join(root(), 'upstream'), 'clone');
    git(home, 'submodule', 'add', '-q', path.join(root(), 'upstream'), 'mod');
    git(home, 'commit', '-qm', 'submodule');
    await writeFile(path.join(home, 'mod', 'a.txt'), 'changed\n');
  });

  test.each([
    'git status',
    'git diff',
    'git log -p -- src',
    'cd clone && git status',
    'git -C clone diff',
    'git -C clone log -p -- src',
    'cd mod && git status',
    'git -C mod diff',
    'git -C mod log -p -- src',
  ])('%s is allowed in every mode', async (command) => {
    await inEveryMode(home, command, 'allow');
  });
});
