import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createSession, type PermissionDecision, type Session } from '@toolshed/core';
import { shellTools } from '../family.ts';
import { MODES } from './guarded_project.ts';

/** Options of {@linkcode shellDecider}. */
export interface ShellDeciderOptions {
  /** The deny rules of every session. @default [] */
  deny?: readonly string[];
  /** The ask rules of every session. @default [] */
  ask?: readonly string[];
}

/** What {@linkcode shellDecider} gives a test file. */
export interface ShellDecider {
  /** The file's temp folder (made before its tests, removed after). */
  root: () => string;
  /** The decision of a session in `cwd` with the file's allow rules, in `mode`, on a Bash command. */
  decide: (cwd: string, command: string, mode?: (typeof MODES)[number]) => Promise<string>;
  /** The whole decision (reason, rule) of the same session as {@linkcode ShellDecider.decide}. */
  explain: (cwd: string, command: string, mode?: (typeof MODES)[number]) => Promise<PermissionDecision>;
  /** Runs the command with bash in a fresh copy of `dir` (a failure is not an error: what it wrote counts); the copy. */
  runInCopy: (dir: string, command: string, env?: NodeJS.ProcessEnv) => Promise<string>;
  /**
   * The decisions on a Bash command in `cwd` in every mode, each expected to be `behavior` (the
   * message names the mode and the reason); for further checks of the reasons.
   */
  inEveryMode: (cwd: string, command: string, behavior: string) => Promise<PermissionDecision[]>;
}

/**
 * For the attack tests of the write guard: a temp folder for the test file, sessions with the
 * shell family and the given allow rules (closed after each test), and a way to run a command
 * for real in a copy of a project, to see what it writes.
 *
 * @param prefix The temp folder's name prefix.
 * @param allow The allow rules of every session.
 * @param options The deny and ask rules of every session.
 * @returns The file's {@linkcode ShellDecider}.
 *
 * @example
 * ```ts
 * import { expect, test } from 'vitest';
 * import { shellDecider } from './testdata/shell_decider.ts';
 *
 * const { root, decide } = shellDecider('toolshed-example-', ['Bash(git restore:*)']);
 * test('asks', async () => expect(await decide(root(), 'git restore .', 'bypassPermissions')).toBe('allow'));
 * ```
 */
export function shellDecider(
  prefix: string,
  allow: readonly string[],
  { deny = [], ask = [] }: ShellDeciderOptions = {},
): ShellDecider {
  let root = '';
  let made = 0;
  const sessions: Session[] = [];
  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const explain = async (cwd: string, command: string, mode: (typeof MODES)[number] = 'default') => {
    const session = await createSession({
      cwd,
      families: [shellTools()],
      permissions: { mode, allow: [...allow], deny: [...deny], ask: [...ask] },
      stateDir: path.join(root, 'state', String(++made)),
    });
    sessions.push(session);
    return await session.explain('Bash', { command });
  };
  return {
    root: () => root,
    explain,
    async decide(cwd, command, mode = 'default') {
      return (await explain(cwd, command, mode)).behavior;
    },
    async runInCopy(dir, command, env) {
      const copy = `${dir}-run`;
      await rm(copy, { recursive: true, force: true });
      await cp(dir, copy, { recursive: true, verbatimSymlinks: true });
      try {
        execFileSync('bash', ['-c', command], { cwd: copy, env: env ?? process.env, stdio: 'ignore', timeout: 10_000 });
      } catch {
        // What it wrote before failing is what counts.
      }
      return copy;
    },
    async inEveryMode(cwd, command, behavior) {
      const decisions: PermissionDecision[] = [];
      for (const mode of MODES) {
        const decision = await explain(cwd, command, mode);
        expect(decision.behavior, `${command} (${mode}): ${decision.reason}`).toBe(behavior);
        decisions.push(decision);
      }
      return decisions;
    },
  };
}
