import { mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { contentToText } from '../blocks.ts';
import { ToolshedError } from '../errors.ts';
import { createSession } from '../session.ts';
import type { Session, SessionOptions } from '../session_types.ts';
import { STATE_DIR_UNSAFE } from '../state_dir.ts';
import { bigTool, tempDir, use } from '../_test_tools.ts';
import { checkKeepResults, sweepOldResults } from './result_cleanup.ts';

let box: { dir: string; cleanup: () => Promise<void> };
let home: string;
let cwd: string;
const savedXdg = process.env.XDG_STATE_HOME;
beforeEach(async () => {
  box = await tempDir('toolshed-cleanup-');
  home = path.join(box.dir, 'home');
  cwd = path.join(box.dir, 'proj');
  await mkdir(home);
  await mkdir(cwd);
  // The default place is read from the environment; this file's sessions use the fake home.
  delete process.env.XDG_STATE_HOME;
});
afterEach(async () => {
  if (savedXdg === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedXdg;
  await box.cleanup();
});

async function persistOne(options: Partial<SessionOptions> = {}): Promise<{ session: Session; saved: string }> {
  const session = await createSession({ cwd, homeDir: home, tools: [bigTool], ...options });
  const [result] = await session.run([use('t1', 'Big', { size: 60_000 })]);
  const saved = /The full output is saved to (\S+)/.exec(contentToText(result!.content))?.[1];
  expect(saved).toBeDefined();
  return { session, saved: saved! };
}

describe('session results on close', () => {
  test('a session with default options saves below ~/.toolshed/state/<id> in 0700 folders and close() removes it', async () => {
    const { session, saved } = await persistOne();
    expect(session.stateDir).toBe(path.join(home, '.toolshed', 'state', session.id));
    expect(saved.startsWith(`${session.stateDir}/tool-results/`)).toBe(true);
    for (const dir of [path.dirname(session.stateDir), session.stateDir, path.dirname(saved)]) {
      expect((await stat(dir)).mode & 0o777, dir).toBe(0o700);
    }
    expect((await stat(saved)).mode & 0o777).toBe(0o600);
    await session.close();
    await expect(stat(saved)).rejects.toThrow(/ENOENT/);
    await expect(stat(session.stateDir)).rejects.toThrow(/ENOENT/);
  });

  test("close() removes the saved results but never a worktree of the user's work, its own or a sub-agent's", async () => {
    const { session, saved } = await persistOne();
    const own = path.join(session.stateDir, 'worktrees', 'fix', 'a.txt');
    const child = path.join(session.stateDir, 'children', 'c1', 'worktrees', 'x', 'b.txt');
    const childSaved = path.join(session.stateDir, 'children', 'c1', 'tool-results', 'r.txt');
    for (const file of [own, child, childSaved]) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'work');
    }
    await session.close();
    await expect(stat(saved)).rejects.toThrow(/ENOENT/);
    await expect(stat(childSaved)).rejects.toThrow(/ENOENT/);
    expect(await readFile(own, 'utf8')).toBe('work');
    expect(await readFile(child, 'utf8')).toBe('work');
    expect((await readdir(session.stateDir)).sort()).toEqual(['children', 'worktrees']);
  });

  test('keepResults: true keeps the saved file after close()', async () => {
    const { session, saved } = await persistOne({ keepResults: true });
    await session.close();
    expect(await readFile(saved, 'utf8')).toHaveLength(60_000);
  });

  test('with a stateDir given, close() removes only the files the session saved', async () => {
    const stateDir = path.join(box.dir, 'mine');
    await mkdir(path.join(stateDir, 'tool-results'), { recursive: true });
    await writeFile(path.join(stateDir, 'notes.txt'), 'keep me');
    await writeFile(path.join(stateDir, 'tool-results', 'other-session.txt'), 'keep me too');
    const { session, saved } = await persistOne({ stateDir });
    await session.close();
    await expect(stat(saved)).rejects.toThrow(/ENOENT/);
    expect((await readdir(stateDir)).sort()).toEqual(['notes.txt', 'tool-results']);
    expect(await readdir(path.join(stateDir, 'tool-results'))).toEqual(['other-session.txt']);
  });

  test("keepResults: { maxAgeMs } keeps this session's results and sweeps older ones of other sessions", async () => {
    const root = path.join(home, '.toolshed', 'state');
    const old = path.join(root, 'old-session', 'tool-results', 't0.txt');
    await mkdir(path.dirname(old), { recursive: true, mode: 0o700 });
    await writeFile(old, 'stale');
    const tenDaysAgo = (Date.now() - 10 * 86_400_000) / 1000;
    await utimes(old, tenDaysAgo, tenDaysAgo);
    const { session, saved } = await persistOne({ keepResults: { maxAgeMs: 7 * 86_400_000 } });
    await session.close();
    expect(await readFile(saved, 'utf8')).toHaveLength(60_000);
    await expect(stat(path.join(root, 'old-session'))).rejects.toThrow(/ENOENT/);
  });

  test('createSession refuses a symlink at the place of the per-user root', async () => {
    await mkdir(path.join(home, '.toolshed'));
    await symlink(box.dir, path.join(home, '.toolshed', 'state'));
    const error = await createSession({ cwd, homeDir: home, tools: [bigTool] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ToolshedError.isInstance(error) && error.code).toBe(STATE_DIR_UNSAFE);
    expect((error as Error).message).toContain('is a symlink');
  });

  test('a session whose home folder is missing keeps its state in a per-user 0700 folder of the temporary folder, and refuses a symlink there', async () => {
    const savedTmp = process.env.TMPDIR;
    const tmp = path.join(box.dir, 'tmp');
    await mkdir(tmp);
    process.env.TMPDIR = tmp;
    try {
      const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
      const { session, saved } = await persistOne({ homeDir: path.join(box.dir, 'no-home') });
      expect(session.stateDir).toBe(path.join(tmp, `toolshed-${uid}`, session.id));
      expect((await stat(path.dirname(session.stateDir))).mode & 0o777).toBe(0o700);
      await session.close();
      await expect(stat(saved)).rejects.toThrow(/ENOENT/);
      await rm(path.join(tmp, `toolshed-${uid}`), { recursive: true });
      await symlink(box.dir, path.join(tmp, `toolshed-${uid}`));
      const error = await createSession({ cwd, homeDir: path.join(box.dir, 'no-home') }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ToolshedError.isInstance(error) && error.code).toBe(STATE_DIR_UNSAFE);
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    }
  });

  test('createSession rejects a keepResults that is neither a boolean nor { maxAgeMs }', async () => {
    await expect(createSession({ cwd, homeDir: home, keepResults: 'yes' as never })).rejects.toThrow(
      /keepResults must be true, false or \{ maxAgeMs: number \}, got "yes"/,
    );
    expect(() => checkKeepResults({ maxAgeMs: -1 })).toThrow(/non-negative/);
  });
});

describe('sweepOldResults', () => {
  test('sweepOldResults removes files older than the age and leaves newer ones and the parent it was not asked to remove', async () => {
    const dir = path.join(box.dir, 'state', 'tool-results');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'old.txt'), 'a');
    await writeFile(path.join(dir, 'new.txt'), 'b');
    const now = Date.now();
    await utimes(path.join(dir, 'old.txt'), (now - 5_000) / 1000, (now - 5_000) / 1000);
    expect(await sweepOldResults([dir, path.join(box.dir, 'missing')], 1_000, { now })).toBe(1);
    expect(await readdir(dir)).toEqual(['new.txt']);
    expect(await sweepOldResults([dir], 0, { now: now + 10_000 })).toBe(1);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    expect((await stat(path.join(box.dir, 'state'))).isDirectory()).toBe(true);
  });
});
