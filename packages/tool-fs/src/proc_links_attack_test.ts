import { closeSync, openSync } from 'node:fs';
import { mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeBench, type TestBench } from './_test_session.ts';

/**
 * A /proc link (`/proc/<pid>/fd/N`, `/proc/<pid>/cwd`, `/proc/<pid>/root`) is a door, not a
 * name: the kernel goes through it to the object, whatever its text says. Its text names the
 * object only when the object is still where it was and in this mount namespace; for a deleted
 * file it is `/p/.env (deleted)`, a name no rule covers, while the door still opens `.env`.
 */
describe.skipIf(process.platform !== 'linux')('a link to /proc/self/fd/N of a deleted denied file', () => {
  let bench: TestBench;
  let fd: number | undefined;
  beforeEach(async () => {
    bench = await makeBench({ permissions: { mode: 'acceptEdits', deny: ['Read(./.env)', 'Read(./secrets/**)'] } });
    await writeFile(path.join(bench.dir, '.env'), 'KEY=sk-live-4242\n');
    await mkdir(path.join(bench.dir, 'docs'));
    // Something in this process (the session's) still has .env open after it was deleted.
    fd = openSync(path.join(bench.dir, '.env'), 'r');
    await unlink(path.join(bench.dir, '.env'));
    await symlink(`/proc/self/fd/${fd}`, path.join(bench.dir, 'docs', 'notes.txt'));
  });
  afterEach(async () => {
    if (fd !== undefined) closeSync(fd);
    await bench.cleanup();
  });

  test.each([
    () => 'docs/notes.txt',
    () => `/proc/self/task/${process.pid}/fd/${fd}`,
    () => `/proc/${process.pid}/task/${process.pid}/fd/${fd}`,
  ])('Read of %s does not read the deleted file through the door', async (spelling) => {
    const { text, isError } = await bench.call('Read', { file_path: spelling() });
    expect(text).not.toContain('sk-live');
    expect(isError).toBe(true);
    expect(text).toContain('(deleted)');
  });

  test('Grep through the link does not print its lines', async () => {
    const { text } = await bench.call('Grep', { pattern: 'KEY', path: 'docs/notes.txt', output_mode: 'content' });
    expect(text).not.toContain('sk-live');
  });

  test('Read of /proc/self/cwd and /proc/self/root spellings that name live files still works (the control)', async () => {
    await writeFile(path.join(bench.dir, 'docs', 'plain.md'), 'plain\n');
    const { text, isError } = await bench.call('Read', { file_path: `/proc/self/root${bench.dir}/docs/plain.md` });
    expect(isError).toBe(false);
    expect(text).toContain('plain');
  });
});
