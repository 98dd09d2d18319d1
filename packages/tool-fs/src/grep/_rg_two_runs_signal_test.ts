import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeFakeRg } from './_test_fake_rg.ts';

describe.skipIf(process.platform !== 'linux')('a process that ends while a search has a run paused', () => {
  // `exit` runs 'exit' listeners; death by SIGTERM or SIGINT (Node's default action) runs none.
  test.each([
    ['process.exit', 'process.exit(0)'],
    ['SIGTERM, the usual way to stop a process', "process.kill(process.pid, 'SIGTERM')"],
    ['SIGINT (Ctrl-C)', "process.kill(process.pid, 'SIGINT')"],
  ])('leaves no stopped ripgrep behind when it ends by %s: the paused run is killed too', async (_, end) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'two-runs-end-'));
    const log = path.join(dir, 'log');
    const pids: number[] = [];
    try {
      const rg = await writeFakeRg(dir);
      const script = path.join(dir, 'search.ts');
      // The sorted run is paused at 300 ms; the process ends 1 200 ms after the sorted run logged its
      // start (not at a fixed time: under load the stand-in can take longer than that to start), the
      // unsorted run still waiting.
      await writeFile(
        script,
        [
          `import { existsSync, readFileSync } from 'node:fs';`,
          `import { searchInPathOrder } from ${JSON.stringify(path.join(import.meta.dirname, '_rg_two_runs.ts'))};`,
          `void searchInPathOrder(['--sort', 'path', 'hit'], { rg: ${JSON.stringify(rg)}, cwd: ${JSON.stringify(dir)}, pauseSortedAfterMs: 300, pieceShares: [], onChunks: () => false });`,
          `const started = () => existsSync(process.env.LOG) && /^sorted /m.test(readFileSync(process.env.LOG, 'utf8'));`,
          `const poll = setInterval(() => { if (started()) { clearInterval(poll); setTimeout(() => ${end}, 1200); } }, 50);`,
          `setTimeout(() => ${end}, 30000);`,
        ].join('\n'),
      );
      try {
        execFileSync(process.execPath, ['--import', 'tsx', script], {
          cwd: import.meta.dirname,
          env: { ...process.env, LOG: log, SORTED_FIRST: '0', SORTED_WAIT_MS: '60000', UNSORTED_WAIT_MS: '60000' },
          stdio: 'ignore',
        });
      } catch {
        // Killed by its own signal, as meant.
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
