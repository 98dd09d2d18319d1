import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/** The stand-in of _rg_two_runs_test.ts: the sorted run stalls, the unsorted one waits; each logs its pid. */
const FAKE_RG = `#!${process.execPath}
const fs = require('node:fs');
const sorted = process.argv.includes('--sort');
fs.appendFileSync(process.env.LOG, (sorted ? 'sorted ' : 'unsorted ') + process.pid + '\\n');
const lines = [];
for (let f = 0; f < 6; f++) for (let n = 1; n <= 3; n++) lines.push('f' + f + '.ts\\0' + n + ':hit ' + f + ' ' + n + '\\n');
const out = (text) => new Promise((r) => process.stdout.write(text, r));
(async () => {
  if (sorted) {
    const first = Number(process.env.SORTED_FIRST);
    await out(lines.slice(0, first).join(''));
    await new Promise((r) => setTimeout(r, Number(process.env.SORTED_WAIT_MS)));
    await out(lines.slice(first).join(''));
  } else {
    await new Promise((r) => setTimeout(r, Number(process.env.UNSORTED_WAIT_MS)));
    const byFile = [];
    for (let f = 5; f >= 0; f--) byFile.push(lines.slice(f * 3, f * 3 + 3).join(''));
    const pad = Number(process.env.UNSORTED_PAD || 0);
    if (pad) await out(('zz.ts\\0' + '1:' + 'x'.repeat(100) + '\\n').repeat(Math.ceil(pad / 108)));
    await out(byFile.join(''));
  }
})();
`;

describe.skipIf(process.platform !== 'linux')('a process killed by SIGTERM while a search has a run paused', () => {
  test('leaves no stopped ripgrep behind: SIGTERM, the usual way to stop a process, kills the paused run too', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'two-runs-term-'));
    const log = path.join(dir, 'log');
    const pids: number[] = [];
    try {
      const rg = path.join(dir, 'rg');
      await writeFile(rg, FAKE_RG);
      await chmod(rg, 0o755);
      const script = path.join(dir, 'search.ts');
      // The sorted run is paused at 300 ms; the process is sent SIGTERM at 1 500 ms (no 'exit' event then).
      await writeFile(
        script,
        [
          `import { searchInPathOrder } from ${JSON.stringify(path.join(import.meta.dirname, '_rg_two_runs.ts'))};`,
          `void searchInPathOrder(['--sort', 'path', 'hit'], { rg: ${JSON.stringify(rg)}, cwd: ${JSON.stringify(dir)}, pauseSortedAfterMs: 300, onChunks: () => false });`,
          "setTimeout(() => process.kill(process.pid, 'SIGTERM'), 1500);",
        ].join('\n'),
      );
      try {
        execFileSync(process.execPath, ['--import', 'tsx', script], {
          cwd: import.meta.dirname,
          env: { ...process.env, LOG: log, SORTED_FIRST: '0', SORTED_WAIT_MS: '60000', UNSORTED_WAIT_MS: '60000' },
          stdio: 'ignore',
        });
      } catch {
        // Killed by its SIGTERM, as meant.
      }
      const text = await readFile(log, 'utf8');
      for (const m of text.matchAll(/(\d+)/g)) pids.push(Number(m[1]));
      const sortedPid = Number(/^sorted (\d+)/m.exec(text)?.[1]);
      expect(sortedPid).toBeGreaterThan(0);
      // Gone, or a zombie waiting for init to reap it; never `T` (stopped).
      const state = await readFile(`/proc/${sortedPid}/stat`, 'utf8').then(
        (stat) => stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3),
        () => 'gone',
      );
      expect(state).not.toBe('T');
    } finally {
      // The stand-ins this test started, by pid (one may sit stopped or sleeping for a minute).
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await rm(dir, { recursive: true, force: true });
    }
  });
});
