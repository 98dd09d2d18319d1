import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { contentToText, createSession, type PermissionOptions, type Session } from '@toolshed/core';
import { shellTools } from './family.ts';
import { bwrapArguments, findBwrap, sandboxProtection, unixSocketFilter } from './sandbox.ts';
import type { SandboxOptions } from './shell_options.ts';

let bwrap: string | undefined;
try {
  bwrap = findBwrap();
} catch {
  bwrap = undefined;
}
// Skipped only where bubblewrap is missing; the "no bubblewrap" test below runs everywhere.
if (bwrap === undefined)
  console.warn(
    '[skip] the bubblewrap sandbox tests of tool-shell: bwrap is not installed (apt-get install bubblewrap).',
  );
const withBwrap = describe.skipIf(bwrap === undefined);

let root: string;
let project: string;
let outside: string;
const sessions: Session[] = [];
let seq = 0;

beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-sandbox-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  await mkdir(path.join(project, 'sub'), { recursive: true });
  await mkdir(path.join(project, '.git', 'hooks'), { recursive: true });
  await mkdir(outside, { recursive: true });
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function open(
  sandbox: Partial<SandboxOptions> = {},
  permissions: PermissionOptions = { mode: 'bypassPermissions' },
): Promise<Session> {
  const session = await createSession({
    cwd: project,
    families: [shellTools({ sandbox: { enabled: true, ...sandbox } })],
    permissions,
    stateDir: path.join(root, 'state', String(++seq)),
  });
  sessions.push(session);
  return session;
}

async function bash(session: Session, command: string): Promise<{ text: string; isError: boolean }> {
  const [result] = await session.run([{ type: 'tool_use', id: `toolu_${++seq}`, name: 'Bash', input: { command } }]);
  return { text: contentToText(result!.content), isError: result!.is_error === true };
}

async function listen(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

withBwrap('the bubblewrap sandbox', () => {
  test('writes inside the working directories work; a write outside fails and leaves nothing', async () => {
    const session = await open();
    expect((await bash(session, 'echo ok > inside.txt && cat inside.txt')).text).toBe('ok');
    // Under /tmp (private in the sandbox) the outside directory is not even there.
    expect((await bash(session, `echo x > ${outside}/f.txt`)).text).toMatch(/No such file or directory/);
    expect(existsSync(path.join(outside, 'f.txt'))).toBe(false);
    // Elsewhere the root is read-only.
    const probe = path.join(os.homedir(), `.toolshed-sandbox-probe-${process.pid}`);
    try {
      expect((await bash(session, `echo x > ${probe}`)).text).toMatch(/Read-only file system/);
      expect(existsSync(probe)).toBe(false);
    } finally {
      await rm(probe, { force: true });
    }
  });

  test('allowWrite opens another directory', async () => {
    const session = await open({ allowWrite: [outside] });
    expect((await bash(session, `echo y > ${outside}/g.txt && cat ${outside}/g.txt`)).text).toBe('y');
  });

  test('/tmp is private to the command', async () => {
    const session = await open();
    const name = `/tmp/toolshed-sandbox-private-${process.pid}-${seq}`;
    expect((await bash(session, `echo x > ${name} && cat ${name}`)).text).toBe('x');
    expect(existsSync(name)).toBe(false);
  });

  test('git hooks inside a working directory stay read-only', async () => {
    const session = await open();
    // Through a script file the path guard cannot see the write; the sandbox still stops it.
    expect((await bash(session, hidden('echo evil > .git/hooks/pre-commit'))).text).toMatch(/Read-only file system/);
    expect(existsSync(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  test("the hooks folder the repository's config names, the files it includes and husky's folder stay read-only", async () => {
    const config = path.join(project, '.git', 'config');
    await writeFile(config, '[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../shared.cfg\n');
    await writeFile(path.join(project, 'shared.cfg'), '');
    await mkdir(path.join(project, '.githooks'), { recursive: true });
    await mkdir(path.join(project, '.husky'), { recursive: true });
    try {
      const session = await open();
      for (const file of ['.githooks/pre-commit', '.husky/pre-commit']) {
        expect((await bash(session, hidden(`echo evil > ${file}`))).text).toMatch(/Read-only file system/);
        expect(existsSync(path.join(project, file))).toBe(false);
      }
      // The file the config includes: git config, as .git/config is.
      expect((await bash(session, hidden('echo "[core] fsmonitor = evil" >> shared.cfg'))).text).toMatch(
        /Read-only file system/,
      );
      // Renamed away and made again: a mount point cannot be renamed.
      expect((await bash(session, hidden('mv .githooks gh2 && mkdir .githooks'))).text).toMatch(
        /Device or resource busy/,
      );
    } finally {
      await rm(config, { force: true });
      await rm(path.join(project, 'shared.cfg'), { force: true });
      await rm(path.join(project, '.githooks'), { recursive: true, force: true });
      await rm(path.join(project, '.husky'), { recursive: true, force: true });
    }
  });

  test('a hooks folder the config names is kept from being made, and its parent from being renamed away', async () => {
    const config = path.join(project, '.git', 'config');
    await writeFile(config, '[core]\n\thooksPath = scripts/hooks\n');
    try {
      const session = await open();
      // Not there yet: made by the command, it is moved to the quarantine.
      const made = await bash(session, hidden('mkdir -p scripts/hooks && echo evil > scripts/hooks/pre-commit'));
      expect(made.text).toContain('The sandbox does not let commands create');
      expect(existsSync(path.join(project, 'scripts', 'hooks'))).toBe(false);
      // There: the folder above it cannot be renamed to put another in its place.
      await mkdir(path.join(project, 'scripts', 'hooks'), { recursive: true });
      const renamed = await bash(session, hidden('mv scripts old && mkdir -p scripts/hooks'));
      expect(renamed.text).toMatch(/Device or resource busy/);
      expect(existsSync(path.join(project, 'old'))).toBe(false);
    } finally {
      await rm(config, { force: true });
      await rm(path.join(project, 'scripts'), { recursive: true, force: true });
    }
  });

  test('.git cannot be renamed away to plant hooks in a new one', async () => {
    const session = await open();
    // Through a script file the path guard sees nothing; the sandbox alone has to hold.
    const result = await bash(
      session,
      hidden('mv .git .git2 && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit'),
    );
    expect(result.text).toMatch(/Device or resource busy/);
    expect(existsSync(path.join(project, '.git2'))).toBe(false);
    expect(existsSync(path.join(project, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  test('settings and .mcp.json a command creates are moved out of the project, with a note', async () => {
    const session = await open();
    const result = await bash(
      session,
      hidden(
        'mkdir -p .toolshed && echo "{\\"permissions\\":{\\"allow\\":[\\"Bash\\"]}}" > .toolshed/settings.local.json && echo {} > .mcp.json && echo made',
      ),
    );
    expect(result.text).toMatch(/^made\n/);
    expect(result.text).toContain(`The sandbox does not let commands create ${path.join(project, '.toolshed')}`);
    expect(result.text).toContain(`create ${path.join(project, '.mcp.json')}`);
    expect(existsSync(path.join(project, '.toolshed'))).toBe(false);
    expect(existsSync(path.join(project, '.mcp.json'))).toBe(false);
    const moved = /\.toolshed \(it would act[^)]*\); it was moved to (\S+)\. Use/.exec(result.text)?.[1];
    expect(moved && existsSync(path.join(moved, 'settings.local.json'))).toBe(true);
  });

  test('the network is blocked unless allowed', async () => {
    const server = await listen();
    try {
      const connect = `exec 3<>/dev/tcp/127.0.0.1/${server.port} && head -1 <&3`;
      const blocked = await bash(await open(), connect);
      expect(blocked.text).not.toContain('hello');
      expect(blocked.text).toMatch(/Connection refused|Network is unreachable|Cannot assign/);
      expect(server.connections()).toBe(0);
      const allowed = await bash(await open({ network: true }), connect);
      expect(allowed.text).toBe('hello');
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('a Unix socket outside cannot be reached unless allowUnixSockets is set; socketpair still works', async () => {
    // A socket on the read-only root (a Docker daemon's, an agent's) is reachable without a
    // network; the seccomp filter refuses to create one.
    const socketPath = path.join(project, `daemon-${seq}.sock`);
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.end('secret\n');
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const connect = `node -e "require('net').connect(process.argv[1]).on('data', (d) => process.stdout.write(d)).on('error', (e) => console.log(e.code))" ${socketPath}`;
      const blocked = await bash(await open(), connect);
      expect(blocked.text).toBe('EPERM');
      expect(connections).toBe(0);
      // Node's IPC channel is a socketpair, which reaches nothing outside and is not refused.
      const ipc = `const c = require('child_process').spawn(process.execPath, ['-e', 'process.send(1)'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] }); c.on('message', (m) => { console.log('ipc', m); process.exit(0); });`;
      const pair = await bash(await open(), `node -e "${ipc}"`);
      expect(pair.text).toBe('ipc 1');
      const allowed = await bash(await open({ allowUnixSockets: true }), connect);
      expect(allowed.text).toBe('secret');
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the working directory still persists', async () => {
    const session = await open();
    await bash(session, 'cd sub');
    expect((await bash(session, 'pwd')).text).toBe(path.join(project, 'sub'));
  });

  test('autoAllow approves sandboxed commands, but not what the sandbox cannot confine', async () => {
    const session = await open({ autoAllow: true }, {});
    expect(await session.explain('Bash', { command: 'npm test' })).toMatchObject({ behavior: 'allow', source: 'tool' });
    expect((await session.explain('Bash', { command: 'echo x > /etc/evil' })).behavior).toBe('ask');
    expect((await session.explain('Bash', { command: 'echo x > .git/hooks/post-checkout' })).behavior).toBe('ask');
    // A folder copied in with a .vscode below lands a protected file: autoAllow leaves that to the rules, which ask.
    await mkdir(path.join(project, 'evil-landing', 'sub', '.vscode'), { recursive: true });
    await writeFile(path.join(project, 'evil-landing', 'sub', '.vscode', 'tasks.json'), '{}\n');
    expect((await session.explain('Bash', { command: 'cp -r evil-landing/. out-landing' })).behavior).toBe('ask');
  });

  test('in plan mode autoAllow approves nothing that writes: plan mode runs read-only calls only', async () => {
    const session = await open({ autoAllow: true }, { mode: 'plan' });
    const write = await session.explain('Bash', { command: 'touch planned.txt' });
    expect(write).toMatchObject({ behavior: 'deny', source: 'mode' });
    const result = await bash(session, 'touch planned.txt');
    expect(result.isError).toBe(true);
    expect(existsSync(path.join(project, 'planned.txt'))).toBe(false);
    // Reading still runs, as in any plan.
    expect((await session.explain('Bash', { command: 'ls' })).behavior).toBe('allow');
  });
});

/**
 * The command written to a script file and run from it: what a script file does is not read by
 * the path guard (as for any program it has no table for), so only the sandbox stands in the way.
 */
function hidden(command: string): string {
  return `printf '%s\\n' '${command}' > .hidden.sh && sh .hidden.sh`;
}

describe('unixSocketFilter', () => {
  test('is eleven BPF instructions for x64 and arm64, and refuses an architecture it does not know', () => {
    expect(unixSocketFilter('x64')).toHaveLength(88);
    expect(unixSocketFilter('arm64').equals(unixSocketFilter('x64'))).toBe(false);
    expect(() => unixSocketFilter('riscv64')).toThrow(/"riscv64".*allowUnixSockets: true/);
  });
});

describe('the sandbox without bubblewrap', () => {
  test('fails with a clear error and never runs the command unsandboxed', async () => {
    const session = await open({ bwrapPath: path.join(root, 'no-such-bwrap') });
    const marker = path.join(project, 'ran.txt');
    const result = await bash(session, `touch ${marker}`);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('bubblewrap (bwrap) was not found');
    expect(existsSync(marker)).toBe(false);
  });
});

withBwrap('the sandbox enforces what the guard does', () => {
  test("the home directory's secrets folders are hidden from a sandboxed command, by default", async () => {
    const home = path.join(project, 'home-secrets');
    await mkdir(path.join(home, '.ssh'), { recursive: true });
    await writeFile(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    await writeFile(path.join(home, 'notes.txt'), 'plain');
    const session = await createSession({
      cwd: project,
      homeDir: home,
      families: [shellTools({ sandbox: { enabled: true } })],
      permissions: { mode: 'bypassPermissions' },
      stateDir: path.join(root, 'state', String(++seq)),
    });
    sessions.push(session);
    const out = await bash(
      session,
      `cat ${home}/notes.txt; ls -A ${home}/.ssh | wc -l; cat ${home}/.ssh/id_rsa 2>&1 || true`,
    );
    expect(out.text).toContain('plain');
    expect(out.text).not.toContain('PRIVATE KEY');
  });

  test("a secrets folder that is a link (dotfiles) is hidden where it leads, and so is a deny rule's linked root", async () => {
    const home = path.join(project, 'home-linked');
    const dotfiles = path.join(project, 'dotfiles');
    await mkdir(path.join(dotfiles, 'ssh'), { recursive: true });
    await mkdir(path.join(dotfiles, 'vault'), { recursive: true });
    await mkdir(home, { recursive: true });
    await writeFile(path.join(dotfiles, 'ssh', 'id_rsa'), 'LINKED PRIVATE KEY');
    await writeFile(path.join(dotfiles, 'vault', 'token'), 'VAULT TOKEN');
    await symlink(path.join(dotfiles, 'ssh'), path.join(home, '.ssh'));
    await symlink(path.join(dotfiles, 'vault'), path.join(project, 'vault-link'));
    const { createPermissionContext } = await import('@toolshed/core/internal');
    const { context } = createPermissionContext({ deny: ['Read(./vault-link/**)'] }, project, { homeDir: home });
    const { sandboxMasks } = await import('./_sandbox_masks.ts');
    const masked = sandboxMasks({ cwd: project, permissions: context });
    const { runCommand } = await import('./run_command.ts');
    const result = await runCommand(
      `H=${home}; cat $H/.ssh/id_rsa ${dotfiles}/ssh/id_rsa 2>&1; cat vault-link/token ${dotfiles}/vault/token 2>&1; echo done`,
      { cwd: project, timeoutMs: 20_000, sandbox: { bwrap: bwrap!, writable: [project], network: false, masked } },
    );
    expect(result.output).toContain('done');
    expect(result.output).not.toContain('LINKED PRIVATE KEY');
    expect(result.output).not.toContain('VAULT TOKEN');
  });

  test('deny-listed files and folders are masked: a read the guard could not see finds them empty', async () => {
    await writeFile(path.join(project, 'secret.txt'), 'TOP SECRET');
    await mkdir(path.join(project, 'keys'), { recursive: true });
    await writeFile(path.join(project, 'keys', 'k.pem'), 'PEM BODY');
    const { createPermissionContext } = await import('@toolshed/core/internal');
    const { context } = createPermissionContext({ deny: ['Read(./secret.txt)', 'Read(./keys/**)'] }, project);
    const { sandboxMasks } = await import('./_sandbox_masks.ts');
    const masked = sandboxMasks({ cwd: project, permissions: { ...context, homeDir: path.join(root, 'no-home') } });
    expect(masked).toContain(path.join(project, 'secret.txt'));
    expect(masked).toContain(path.join(project, 'keys'));
    const { runCommand } = await import('./run_command.ts');
    const result = await runCommand('F=secret.txt; cat $F; cat keys/* 2>&1; echo done', {
      cwd: project,
      timeoutMs: 20_000,
      sandbox: { bwrap: bwrap!, writable: [project], network: false, masked },
    });
    expect(result.output).toContain('done');
    expect(result.output).not.toContain('TOP SECRET');
    expect(result.output).not.toContain('PEM BODY');
  });
});

describe('bwrapArguments with a writable root of /', () => {
  test("keeps the system's start-up files read-only when /etc is writable (the arguments only: nothing is run)", () => {
    const args = bwrapArguments({ writable: ['/etc'], network: false, cwd: '/etc', home: '/nonexistent-home' }).join(
      ' ',
    );
    for (const system of ['/etc/profile', '/etc/profile.d', '/etc/bash.bashrc'].filter((p) => existsSync(p)))
      expect(args).toContain(`--ro-bind ${system} ${system}`);
  });

  test("still keeps the hooks folder a repository's config names read-only, and binds the folders above it onto themselves", async () => {
    const repo = path.join(root, 'slash-repo');
    await mkdir(path.join(repo, 'tools/hooks'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'config', 'core.hooksPath', 'tools/hooks']);
    // The walk of all of / is left out: the snapshot holds only this repository.
    const snapshot = {
      writable: ['/'],
      home: undefined,
      entries: new Map(),
      gitDirs: new Set([path.join(repo, '.git')]),
    };
    const args = bwrapArguments({ writable: ['/'], network: false, cwd: repo, protection: { snapshot, missing: [] } });
    const hooks = path.join(repo, 'tools/hooks');
    expect(args.join(' ')).toContain(`--ro-bind ${hooks} ${hooks}`);
    expect(args.join(' ')).toContain(`--bind ${path.join(repo, 'tools')} ${path.join(repo, 'tools')}`);
    expect(args.join(' ')).toContain(`--bind ${repo} ${repo}`);
  });
});

describe('bwrapArguments for nested repositories', () => {
  test('costs two mounts per nested repository (its hooks and config); the top one is also bound onto itself', async () => {
    const top = path.join(root, 'many-repos');
    execFileSync('git', ['init', '-q', top]);
    const binds = () => {
      const home = path.join(root, 'no-home');
      const args = bwrapArguments({
        writable: [top],
        network: false,
        cwd: top,
        home,
        protection: sandboxProtection([top], { home }),
      });
      return args.filter((a, i) => (a === '--bind' || a === '--ro-bind') && args[i + 1] !== '/');
    };
    const alone = binds().length;
    for (let i = 0; i < 12; i++) execFileSync('git', ['init', '-q', path.join(top, `vendor/r${i}`)]);
    const args = binds();
    expect(args.length - alone).toBe(2 * 12);
    const all = bwrapArguments({ writable: [top], network: false, cwd: top, home: path.join(root, 'no-home') }).join(
      ' ',
    );
    const nested = path.join(top, 'vendor/r3/.git');
    expect(all).toContain(`--bind ${path.join(top, '.git')} ${path.join(top, '.git')}`);
    expect(all).toContain(`--ro-bind ${nested}/hooks ${nested}/hooks`);
    expect(all).toContain(`--ro-bind ${nested}/config ${nested}/config`);
    expect(all).not.toContain(`--bind ${nested} ${nested}`);
  });
});
