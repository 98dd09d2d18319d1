import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ToolshedError } from './errors.ts';
import { prepareStateDir, STATE_DIR_UNSAFE, stateDirName } from './state_dir.ts';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

let box: string;
let home: string;
let tmp: string;
beforeEach(async () => {
  box = await mkdtemp(path.join(tmpdir(), 'toolshed-statedir-'));
  home = path.join(box, 'home');
  tmp = path.join(box, 'tmp');
  await mkdir(home);
  await mkdir(tmp);
});
afterEach(async () => {
  await rm(box, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<ToolshedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ToolshedError.isInstance(error)).toBe(true);
  expect((error as ToolshedError).code).toBe(STATE_DIR_UNSAFE);
  return error as ToolshedError;
}

describe('prepareStateDir', () => {
  test('prepareStateDir puts a session below ~/.toolshed/state, a folder of mode 0700', async () => {
    const place = await prepareStateDir({ sessionId: 's1', homeDir: home, env: {}, tmpDir: tmp });
    expect(place).toEqual({
      root: path.join(home, '.toolshed', 'state'),
      dir: path.join(home, '.toolshed', 'state', 's1'),
      kind: 'home',
    });
    expect((await stat(place.root)).mode & 0o777).toBe(0o700);
    // The session's own folder waits for the first saved result.
    expect(await readdir(place.root)).toEqual([]);
  });

  test('prepareStateDir prefers an absolute XDG_STATE_HOME and ignores a relative one', async () => {
    const xdg = path.join(box, 'xdg');
    const place = await prepareStateDir({ sessionId: 's1', homeDir: home, env: { XDG_STATE_HOME: xdg }, tmpDir: tmp });
    expect(place).toMatchObject({ root: path.join(xdg, 'toolshed'), kind: 'xdg' });
    expect((await stat(place.root)).mode & 0o777).toBe(0o700);
    const relative = await prepareStateDir({
      sessionId: 's1',
      homeDir: home,
      env: { XDG_STATE_HOME: 'state' },
      tmpDir: tmp,
    });
    expect(relative.kind).toBe('home');
  });

  test('prepareStateDir narrows an existing root of the user with wider bits to 0700', async () => {
    const root = path.join(home, '.toolshed', 'state');
    await mkdir(root, { recursive: true });
    await chmod(root, 0o755);
    await prepareStateDir({ sessionId: 's1', homeDir: home, env: {}, tmpDir: tmp });
    expect((await stat(root)).mode & 0o777).toBe(0o700);
  });

  test('prepareStateDir falls back to a per-user 0700 folder in the temporary folder when the home cannot hold it', async () => {
    const fileHome = path.join(box, 'not-a-folder');
    await writeFile(fileHome, 'x');
    for (const homeDir of [fileHome, path.join(box, 'missing-home')]) {
      const place = await prepareStateDir({ sessionId: 's1', homeDir, env: {}, tmpDir: tmp });
      expect(place).toEqual({
        root: path.join(tmp, `toolshed-${uid ?? 'user'}`),
        dir: path.join(tmp, `toolshed-${uid ?? 'user'}`, 's1'),
        kind: 'tmp',
      });
      expect((await stat(place.root)).mode & 0o777).toBe(0o700);
    }
    // The missing home was not created.
    await expect(stat(path.join(box, 'missing-home'))).rejects.toThrow(/ENOENT/);
  });

  test('prepareStateDir refuses a symlink pre-created at the temporary root, and does not follow it', async () => {
    const elsewhere = path.join(box, 'attacker');
    await mkdir(elsewhere);
    const root = path.join(tmp, `toolshed-${uid ?? 'user'}`);
    await symlink(elsewhere, root);
    const error = await refusal(
      prepareStateDir({ sessionId: 's1', homeDir: path.join(box, 'missing-home'), env: {}, tmpDir: tmp }),
    );
    expect(error.message).toContain(`"${root}" is a symlink`);
    expect(error.message).toContain('stateDir');
    expect(await readdir(elsewhere)).toEqual([]);
    // A dangling one too.
    await rm(root);
    await symlink(path.join(box, 'nowhere'), root);
    await refusal(prepareStateDir({ sessionId: 's1', homeDir: path.join(box, 'missing-home'), env: {}, tmpDir: tmp }));
  });

  test('prepareStateDir refuses a symlink or a file at the home root', async () => {
    const root = path.join(home, '.toolshed', 'state');
    await mkdir(path.dirname(root), { recursive: true });
    await symlink(tmp, root);
    await refusal(prepareStateDir({ sessionId: 's1', homeDir: home, env: {}, tmpDir: tmp }));
    await rm(root);
    await writeFile(root, 'x');
    const error = await refusal(prepareStateDir({ sessionId: 's1', homeDir: home, env: {}, tmpDir: tmp }));
    expect(error.message).toContain('is not a folder');
  });

  test.skipIf(!isRoot)(
    'prepareStateDir refuses a root folder owned by another user (needs root to make one)',
    async () => {
      const root = path.join(tmp, `toolshed-${uid}`);
      await mkdir(root);
      await chmod(root, 0o777);
      await chown(root, 4242, 4242);
      const error = await refusal(
        prepareStateDir({ sessionId: 's1', homeDir: path.join(box, 'missing-home'), env: {}, tmpDir: tmp }),
      );
      expect(error.message).toContain('belongs to uid 4242');
      // Left as it was: not narrowed, not taken over.
      const st = await lstat(root);
      expect([st.uid, st.mode & 0o777]).toEqual([4242, 0o777]);
    },
  );
  if (!isRoot) console.log('skipped: the foreign-owner test of prepareStateDir needs root to chown a folder');
});

describe('stateDirName', () => {
  test('stateDirName keeps a plain id and turns one that could leave the root into a hashed name', () => {
    expect(stateDirName('3f2a-b_c.d')).toBe('3f2a-b_c.d');
    for (const id of ['../etc', '..', '.', 'a/b', '', 'x'.repeat(101)]) {
      const name = stateDirName(id);
      expect(name).toMatch(/^[A-Za-z0-9_-]+-[0-9a-f]{10}$/);
      expect(name).not.toContain('/');
    }
    expect(stateDirName('a/b')).not.toBe(stateDirName('a_b'));
  });
});
