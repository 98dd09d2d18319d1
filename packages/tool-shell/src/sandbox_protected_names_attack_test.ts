import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { contentToText, createSession, type Session } from '@toolshed/core';
import { shellTools } from './family.ts';
import { describeWithBwrap } from './testdata/bwrap_fixture.ts';
import { runGit } from './testdata/git_fixture.ts';

// What core's permission layer asks about before a write (protectedPath) a sandboxed command that
// is approved without asking must not write either: each attack runs from a script file, so that
// the path guard sees nothing, in bypassPermissions mode, so that only the sandbox stands in the way.

const withBwrap = describeWithBwrap('the protected-name attacks');

let root: string;
let seq = 0;
const sessions: Session[] = [];

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-names-')));
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = runGit;

const PACKAGE = `${JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'echo ok' } }, null, 2)}\n`;

/** A repository with a package.json, and a session whose Bash is sandboxed in it (home: `home/` in it). */
async function project(): Promise<{ dir: string; home: string; session: Session }> {
  const dir = path.join(root, `p${++seq}`);
  const home = path.join(dir, 'home');
  await mkdir(home, { recursive: true });
  git(dir, 'init', '-q');
  await writeFile(path.join(dir, 'package.json'), PACKAGE);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  const session = await createSession({
    cwd: dir,
    homeDir: home,
    families: [shellTools({ sandbox: { enabled: true } })],
    permissions: { mode: 'bypassPermissions' },
    stateDir: path.join(root, 'state', String(++seq)),
  });
  sessions.push(session);
  return { dir, home, session };
}

async function bash(session: Session, command: string): Promise<string> {
  const [result] = await session.run([{ type: 'tool_use', id: `toolu_${++seq}`, name: 'Bash', input: { command } }]);
  return contentToText(result!.content);
}

/** The command run from a script file, which the path guard does not read. */
function hidden(command: string): string {
  return `cat > .hidden.sh <<'EOF'\n${command}\nEOF\nsh .hidden.sh; echo "exit $?"`;
}

withBwrap('the sandbox keeps what core protects', () => {
  test("package.json's scripts rewritten by a command are put back, the new file moved out", async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(`printf '{"name":"app","scripts":{"test":"touch /tmp/pwned"}}' > package.json && echo wrote`),
    );
    expect(out).toContain('wrote');
    expect(out).toContain(`only the dependencies and version of ${path.join(dir, 'package.json')}`);
    expect(out).toContain('put back as it was');
    expect(await readFile(path.join(dir, 'package.json'), 'utf8')).toBe(PACKAGE);
  });

  test('package.json turned into a link to a file no check keeps is put back, so the file behind it cannot take scripts later', async () => {
    const { dir, session } = await project();
    // The same text through a link: nothing changed to see yet; the next command writes the target.
    const first = await bash(session, hidden('cp package.json x.json && ln -sf x.json package.json && echo linked'));
    expect(first).toContain('linked');
    await bash(session, hidden(`printf '{"name":"app","scripts":{"test":"touch /tmp/pwned"}}' > x.json && echo wrote`));
    expect(await readFile(path.join(dir, 'package.json'), 'utf8')).toBe(PACKAGE);
    expect(first).toContain('put back as it was');
  });

  test('a package.json that is a link already: a write through it to scripts is put back', async () => {
    const { dir, session } = await project();
    await writeFile(path.join(dir, 'real.json'), PACKAGE);
    await rm(path.join(dir, 'package.json'));
    execFileSync('ln', ['-s', 'real.json', path.join(dir, 'package.json')]);
    const out = await bash(
      session,
      hidden(`printf '{"name":"app","scripts":{"test":"touch /tmp/pwned"}}' > real.json && echo wrote`),
    );
    expect(out).toContain('wrote');
    expect(out).toContain(`only the dependencies and version of ${path.join(dir, 'package.json')}`);
    expect(await readFile(path.join(dir, 'package.json'), 'utf8')).not.toContain('pwned');
  });

  test('a package.json with scripts made in a new folder is moved out', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      hidden(
        `mkdir -p pkg && printf '{"scripts":{"postinstall":"touch /tmp/pwned"}}' > pkg/package.json && echo wrote`,
      ),
    );
    expect(out).toContain('wrote');
    expect(out).toContain(`The sandbox does not let commands create ${path.join(dir, 'pkg/package.json')}`);
    expect(existsSync(path.join(dir, 'pkg/package.json'))).toBe(false);
  });

  test('npm install of a package still adds it to package.json (dependencies may change)', async () => {
    const { dir, session } = await project();
    await mkdir(path.join(dir, 'lib'));
    await writeFile(path.join(dir, 'lib/package.json'), '{"name":"lib","version":"1.0.0"}\n');
    const out = await bash(session, 'npm install --offline --no-audit --no-fund ./lib; echo "exit $?"');
    expect(out).toContain('exit 0');
    expect(out).not.toContain('The sandbox does not let');
    const json = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(json.dependencies).toEqual({ lib: 'file:lib' });
    expect(json.scripts).toEqual({ test: 'echo ok' });
    expect(existsSync(path.join(dir, 'lib/package.json'))).toBe(true);
  });

  test("npm init's package.json in a new folder stays", async () => {
    const { dir, session } = await project();
    const out = await bash(session, 'mkdir fresh && cd fresh && npm init -y >/dev/null; echo "exit $?"');
    expect(out).toContain('exit 0');
    expect(out).not.toContain('The sandbox does not let');
    expect(existsSync(path.join(dir, 'fresh/package.json'))).toBe(true);
  });

  test("the home's git configuration folder cannot be made when the home is writable", async () => {
    const { home, session } = await project();
    const out = await bash(
      session,
      hidden(`mkdir -p home/.config/git && echo '*.txt diff=evil' > home/.config/git/attributes`),
    );
    expect(out).toContain('exit 0');
    expect(existsSync(path.join(home, '.config/git'))).toBe(false);
  });

  test("the home's git configuration folder stays read-only when it exists", async () => {
    const { home, session } = await project();
    await mkdir(path.join(home, '.config/git'), { recursive: true });
    await writeFile(path.join(home, '.config/git/config'), '');
    const out = await bash(session, hidden(`echo '*.txt diff=evil' > home/.config/git/attributes`));
    expect(out).toMatch(/Read-only file system/);
    expect(existsSync(path.join(home, '.config/git/attributes'))).toBe(false);
  });

  test("the home's .ssh cannot be made when the home is writable", async () => {
    const { home, session } = await project();
    const out = await bash(
      session,
      hidden('mkdir -p home/.ssh && echo "ssh-ed25519 AAAA evil" > home/.ssh/authorized_keys'),
    );
    expect(out).toContain('exit 0');
    expect(existsSync(path.join(home, '.ssh/authorized_keys'))).toBe(false);
  });

  test("a repository's objects/info/alternates cannot be made", async () => {
    const { dir, session } = await project();
    const out = await bash(session, hidden('echo /somewhere/else/objects > .git/objects/info/alternates'));
    expect(out).toContain('exit');
    expect(existsSync(path.join(dir, '.git/objects/info/alternates'))).toBe(false);
  });

  test('git clone --shared still works: a repository the command makes may borrow objects (its package.json with scripts goes)', async () => {
    const { dir, session } = await project();
    const out = await bash(session, hidden('git clone -q --shared . copy && git -C copy log --oneline'));
    expect(out).toContain('exit 0');
    expect(existsSync(path.join(dir, 'copy/.git/objects/info/alternates'))).toBe(true);
    // The clone's package.json has scripts: as core asks before git clone checks one out, it is moved out.
    expect(out).toContain(`The sandbox does not let commands create ${path.join(dir, 'copy/package.json')}`);
  });

  test('git commit and git switch -c still work (git writes its refs, index and objects)', async () => {
    const { dir, session } = await project();
    const out = await bash(
      session,
      'echo x > a.txt && git add a.txt && git -c user.name=t -c user.email=t@example.com commit -qm a && git switch -qc topic; echo "exit $?"',
    );
    expect(out).toContain('exit 0');
    expect(git(dir, 'branch', '--show-current').trim()).toBe('topic');
  });
});
