// Claude Code hook settings that Toolshed used to accept and then read otherwise: a hook's `if`
// condition, `async`, `shell`, a regex matcher (found anywhere in the name, not anchored), and
// the settings' `env` (the environment of Claude Code's whole session, hooks included). Each test
// writes a Claude Code project, trusts it with the real `toolshed trust`, runs the real CLI with
// a fake HOME and real hook scripts, and looks at what really ran.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from './_test_io.ts';
import { startToolshed } from './_test_process.ts';

interface Project {
  cwd: string;
  home: string;
  /** Lines the hooks appended to their log, one per run. */
  log(): Promise<string[]>;
  run(args: string[], env?: Record<string, string>): Promise<{ code: number | null; out: string }>;
}

/** A project whose `.claude/settings.json` is `settings` (a function of the hook log's path). */
async function claudeProject(
  settings: (log: string) => unknown,
  options: { trusted?: boolean; userSettings?: unknown } = {},
): Promise<Project> {
  const root = await realpath(await tempDir());
  const cwd = path.join(root, 'proj');
  const home = path.join(root, 'home');
  const log = path.join(root, 'hook.log');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(path.join(home, '.claude'), { recursive: true });
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(settings(log)));
  if (options.userSettings !== undefined)
    await writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify(options.userSettings));
  const run: Project['run'] = async (args, env) => {
    // Started from the repository (where tsx resolves when the bundle is older than the sources).
    const full = args[0] === 'trust' ? args : [...args, '--cwd', cwd];
    const p = startToolshed(full, { home, ...(env ? { env } : {}) });
    const code = await p.exited;
    return { code, out: p.stdout() + p.stderr() };
  };
  if (options.trusted !== false) {
    const trusted = await run(['trust', cwd]);
    expect(trusted.code, trusted.out).toBe(0);
  }
  return {
    cwd,
    home,
    run,
    log: async () => (existsSync(log) ? (await readFile(log, 'utf8')).split('\n').filter(Boolean) : []),
  };
}

const ALLOW = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`;

describe('a hook\'s "if" condition', () => {
  test('an allowing hook with "if": "Bash(touch allowed-*)" allows only those commands, not every Bash call', async () => {
    const p = await claudeProject(() => ({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(touch allowed-*)', command: ALLOW }] }],
      },
    }));
    const attack = await p.run(['call', 'Bash', '{"command":"touch pwned"}', '--only', 'shell']);
    expect(existsSync(path.join(p.cwd, 'pwned')), attack.out).toBe(false);
    expect(attack.code).toBe(1);
    expect(attack.out).toContain('needs approval');
    const meant = await p.run(['call', 'Bash', '{"command":"touch allowed-1"}', '--only', 'shell']);
    expect(meant.code, meant.out).toBe(0);
    expect(existsSync(path.join(p.cwd, 'allowed-1'))).toBe(true);
  });

  test('a guard hook with "if" runs for the calls it names (any part of a compound command) and for no other', async () => {
    const p = await claudeProject((log) => ({
      permissions: { allow: ['Bash(touch:*)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                if: 'Bash(touch blocked-*)',
                command: `echo ran >> '${log}'; echo "blocked-* files are off limits" >&2; exit 2`,
              },
            ],
          },
        ],
      },
    }));
    const ok = await p.run(['call', 'Bash', '{"command":"touch ok-1"}', '--only', 'shell']);
    expect(ok.code, ok.out).toBe(0);
    expect(await p.log(), 'the hook does not run for a call its condition does not name').toEqual([]);
    const blocked = await p.run(['call', 'Bash', '{"command":"touch ok-2 && touch blocked-2"}', '--only', 'shell']);
    expect(blocked.out).toContain('blocked-* files are off limits');
    expect(existsSync(path.join(p.cwd, 'blocked-2'))).toBe(false);
    expect(existsSync(path.join(p.cwd, 'ok-2'))).toBe(false);
    expect(await p.log()).toEqual(['ran']);
  });

  test('a file tool\'s condition matches its file path, as in Claude Code: "Write(*.secret)"', async () => {
    const p = await claudeProject(() => ({
      permissions: { allow: ['Write'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Write|Edit',
            hooks: [{ type: 'command', if: 'Write(*.secret)', command: 'echo "no secrets on disk" >&2; exit 2' }],
          },
        ],
      },
    }));
    const plain = await p.run(['call', 'Write', '{"file_path":"notes.txt","content":"x"}', '--only', 'fs']);
    expect(plain.code, plain.out).toBe(0);
    const secret = await p.run(['call', 'Write', '{"file_path":"key.secret","content":"x"}', '--only', 'fs']);
    expect(secret.out).toContain('no secrets on disk');
    expect(existsSync(path.join(p.cwd, 'key.secret'))).toBe(false);
  });

  test('a condition that is not a rule stops the command with a message naming the key, as a typo does', async () => {
    const p = await claudeProject(() => ({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git', command: 'true' }] }] },
    }));
    const r = await p.run(['call', 'Bash', '{"command":"echo hi"}', '--only', 'shell']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('hooks.PreToolUse[0].hooks[0].if is "Bash(git", which is not a rule');
  });
});

test('an "async" hook runs in the background: what it prints does not allow the call', async () => {
  const p = await claudeProject((log) => ({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', async: true, command: `echo ran >> '${log}'; ${ALLOW}` }] },
      ],
    },
  }));
  const r = await p.run(['call', 'Bash', '{"command":"touch pwned"}', '--only', 'shell']);
  expect(existsSync(path.join(p.cwd, 'pwned')), r.out).toBe(false);
  expect(r.out).toContain('needs approval');
  expect(r.out).toContain('is "async": Toolshed starts it in the background');
});

test('a "shell": "powershell" hook runs with pwsh, never with bash', async () => {
  const p = await claudeProject(() => ({
    permissions: { allow: ['Bash(echo:*)'] },
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', shell: 'powershell', command: "Write-Error 'no'" }] }],
    },
  }));
  // A stand-in pwsh that logs how it was called and blocks; bash would fail on Write-Error instead.
  const bin = path.join(path.dirname(p.cwd), 'bin');
  await mkdir(bin);
  await writeFile(
    path.join(bin, 'pwsh'),
    '#!/bin/sh\necho "pwsh $*" >> "$(dirname "$0")/../hook.log"\necho "pwsh says no" >&2\nexit 2\n',
  );
  await chmod(path.join(bin, 'pwsh'), 0o755);
  const r = await p.run(['call', 'Bash', '{"command":"echo hi"}', '--only', 'shell'], {
    PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`,
  });
  expect(r.out).toContain('pwsh says no');
  expect((await p.log())[0]).toMatch(/^pwsh -NoProfile -NonInteractive -Command Write-Error /);
});

test('a regex matcher is found anywhere in the tool name, as Claude Code tests it: "^Wri" guards Write', async () => {
  const p = await claudeProject(() => ({
    permissions: { allow: ['Write'] },
    hooks: { PreToolUse: [{ matcher: '^Wri', hooks: [{ type: 'command', command: 'echo "guarded" >&2; exit 2' }] }] },
  }));
  const r = await p.run(['call', 'Write', '{"file_path":"a.txt","content":"x"}', '--only', 'fs']);
  expect(r.out).toContain('guarded');
  expect(existsSync(path.join(p.cwd, 'a.txt'))).toBe(false);
});

describe('the settings\' "env" reaches hooks', () => {
  test('a trusted project: the hook sees the variables of every settings file', async () => {
    const p = await claudeProject(
      (log) => ({
        env: { FROM_PROJECT: 'p1' },
        hooks: {
          PreToolUse: [
            { matcher: 'Read', hooks: [{ type: 'command', command: `echo "$FROM_PROJECT $FROM_USER" >> '${log}'` }] },
          ],
        },
      }),
      { userSettings: { env: { FROM_USER: 'u1' } } },
    );
    await writeFile(path.join(p.cwd, 'a.txt'), 'x\n');
    const r = await p.run(['call', 'Read', '{"file_path":"a.txt"}', '--only', 'fs']);
    expect(r.code, r.out).toBe(0);
    expect(await p.log()).toEqual(['p1 u1']);
  });

  test("an untrusted project: the user's hook sees the user's variables, never the project's", async () => {
    const root = await claudeProject(() => ({ env: { FROM_PROJECT: 'p1' } }), { trusted: false });
    const log = path.join(root.home, 'user-hook.log');
    await writeFile(
      path.join(root.home, '.claude', 'settings.json'),
      JSON.stringify({
        env: { FROM_USER: 'u1' },
        hooks: {
          PreToolUse: [
            { matcher: 'Read', hooks: [{ type: 'command', command: `echo "[$FROM_PROJECT] $FROM_USER" >> '${log}'` }] },
          ],
        },
      }),
    );
    await writeFile(path.join(root.cwd, 'a.txt'), 'x\n');
    const r = await root.run(['call', 'Read', '{"file_path":"a.txt"}', '--only', 'fs']);
    expect(r.code, r.out).toBe(0);
    expect(await readFile(log, 'utf8')).toBe('[] u1\n');
  });
});
