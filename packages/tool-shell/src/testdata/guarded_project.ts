import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createSession, type PermissionOptions, type Session } from '@toolshed/core';
import { shellTools } from '../family.ts';

/** Allow rules for git subcommands: `gitRules('checkout')` is `['Bash(git checkout:*)']`. */
export function gitRules(...subcommands: string[]): string[] {
  return subcommands.map((sub) => `Bash(git ${sub}:*)`);
}

/** The rules the git write attacks start from: `sort`, and the git subcommands that name what they write. */
export const WRITER_RULES = [
  'Bash(sort:*)',
  ...gitRules('checkout', 'restore', 'rm', 'mv', 'clean', 'config', 'diff', 'log', 'archive', 'format-patch'),
  ...gitRules('checkout-index', 'apply', 'am'),
];

/** The modes a protected write must ask in. */
export const MODES = ['default', 'acceptEdits', 'bypassPermissions'] as const;

/**
 * A project for the write-guard attack tests, made before the file's tests and removed after:
 * `.git/`, `.claude/settings.json`, `.claude/agents/`, `src/a.ts`, `sub/`, and a link
 * `l -> .claude/agents` (so `l/..` is `.claude` for the kernel). Sessions opened in it are closed
 * after each test.
 *
 * @param options `gitConfig`: the text of the project's `.git/config` (none by default).
 * @returns `open(permissions)` for a session with the shell family in the project, and
 *   `expectAsk(command, allow, modes)`, which checks that the command asks in each mode.
 *
 * @example
 * ```ts
 * import { test } from 'vitest';
 * import { guardedProject, MODES } from './testdata/guarded_project.ts';
 *
 * const { expectAsk } = guardedProject();
 * test('asks', () => expectAsk('git config core.hooksPath x', ['Bash(git config:*)'], MODES));
 * ```
 */
export function guardedProject(options: { gitConfig?: string } = {}): {
  open: (permissions: PermissionOptions) => Promise<Session>;
  expectAsk: (command: string, allow: readonly string[], modes: readonly (typeof MODES)[number][]) => Promise<void>;
} {
  let root = '';
  let project = '';
  const sessions: Session[] = [];
  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-guarded-')));
    project = path.join(root, 'project');
    for (const dir of ['.git', '.claude/agents', 'src', 'sub'])
      await mkdir(path.join(project, dir), { recursive: true });
    await writeFile(path.join(project, '.claude', 'settings.json'), '{}\n');
    if (options.gitConfig !== undefined) await writeFile(path.join(project, '.git', 'config'), options.gitConfig);
    await writeFile(path.join(project, 'src', 'a.ts'), 'a\n');
    await symlink('.claude/agents', path.join(project, 'l'));
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const open = async (permissions: PermissionOptions): Promise<Session> => {
    const session = await createSession({
      cwd: project,
      families: [shellTools()],
      permissions,
      stateDir: path.join(root, 'state', String(sessions.length)),
    });
    sessions.push(session);
    return session;
  };
  const expectAsk = async (command: string, allow: readonly string[], modes: readonly (typeof MODES)[number][]) => {
    for (const mode of modes) {
      const session = await open({ mode, allow: [...allow] });
      expect((await session.explain('Bash', { command })).behavior, `${command} (${mode})`).toBe('ask');
    }
  };
  return { open, expectAsk };
}
