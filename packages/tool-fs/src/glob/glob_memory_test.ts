import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// A Glob returns the 100 newest names; what it holds while it looks must follow those, not the
// number of files in the tree. Measured in a process of its own (testdata/glob_memory_child.ts)
// whose heap is held to 24 MB: what is held then decides, not garbage a roomier heap leaves
// for later (peak RSS moves by ±15 MB between runs here). Holding every name of 120 000 files,
// as Glob did, ran out of heap below 48 MB; holding the newest 100 runs in 16 MB.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'toolshed-glob-memory-'));
  // 120 000 files with long names, in 120 folders.
  for (let d = 0; d < 120; d++) {
    const dir = path.join(root, `d${String(d).padStart(3, '0')}`);
    await mkdir(dir);
    await Promise.all(
      Array.from({ length: 1000 }, (_, f) =>
        writeFile(
          path.join(dir, `a_file_with_a_rather_long_name_to_make_paths_weigh_${String(f).padStart(4, '0')}.txt`),
          '',
        ),
      ),
    );
  }
  // The newest: a known few, so that the order is checked too.
  const now = Date.now() / 1000;
  for (let i = 0; i < 3; i++)
    await utimes(
      path.join(root, 'd007', `a_file_with_a_rather_long_name_to_make_paths_weigh_000${i}.txt`),
      now + 100 - i,
      now + 100 - i,
    );
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('Glob over 120 000 files', () => {
  test('runs in a 24 MB heap, holding the newest 100 while it looks, and returns what it did', async () => {
    const child = path.join(import.meta.dirname, 'testdata', 'glob_memory_child.ts');
    const args = ['--max-old-space-size=24', '--import', 'tsx', child, root, '**/*.txt'];
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: import.meta.dirname,
      maxBuffer: 1 << 20,
    });
    const { out } = JSON.parse(stdout) as {
      out: { filenames: string[]; numFiles: number; truncated: boolean };
    };
    expect(out.numFiles).toBe(120_000);
    expect(out.truncated).toBe(true);
    expect(out.filenames).toHaveLength(100);
    expect(out.filenames.slice(0, 3)).toEqual(
      [0, 1, 2].map((i) => `d007/a_file_with_a_rather_long_name_to_make_paths_weigh_000${i}.txt`),
    );
  }, 60_000);
});
