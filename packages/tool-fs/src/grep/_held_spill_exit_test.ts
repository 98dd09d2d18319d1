import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

describe.skipIf(process.platform === 'win32')('a process that ends while a search holds output in a file', () => {
  // Nothing runs on SIGKILL or SIGTERM (no 'exit' listener either): the file must not outlive its handle.
  test.each([
    ['process.exit', 'process.exit(0)'],
    ['SIGTERM', "process.kill(process.pid, 'SIGTERM')"],
    ['SIGKILL (the OOM killer, kill -9)', "process.kill(process.pid, 'SIGKILL')"],
  ])('leaves nothing in the temporary folder when it ends by %s mid-search', async (_, end) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'held-spill-exit-'));
    const tmp = path.join(dir, 'tmp');
    try {
      await mkdir(tmp);
      const script = path.join(dir, 'spill.mts');
      // The file is written and half read back when the process ends.
      await writeFile(
        script,
        [
          `import { HeldSpill } from ${JSON.stringify(path.join(import.meta.dirname, '_held_spill.ts'))};`,
          'const spill = new HeldSpill();',
          "for (let i = 0; i < 100; i++) spill.append(Buffer.from(`f${i}\\u00001:${'x'.repeat(1000)}\\n`));",
          'await spill.next(10_000);',
          // It got this far (a script that failed early would leave nothing either).
          `(await import('node:fs')).writeFileSync(${JSON.stringify(path.join(dir, 'reached'))}, '');`,
          `${end};`,
        ].join('\n'),
      );
      try {
        execFileSync(process.execPath, ['--import', 'tsx', script], {
          cwd: import.meta.dirname,
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
        });
      } catch {
        // Killed by its own signal, as meant.
      }
      expect(existsSync(path.join(dir, 'reached'))).toBe(true);
      // (tsx keeps a cache of its own there.)
      expect((await readdir(tmp)).filter((name) => name.startsWith('toolshed-grep-held-'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
