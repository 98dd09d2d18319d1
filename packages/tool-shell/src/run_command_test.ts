import { spawn } from 'node:child_process';
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from './run_command.ts';
import { findBwrap } from './sandbox.ts';
import { liveProcessesWith, uniqueSleep } from './testdata/processes.ts';

let bwrap: string | undefined;
try {
  bwrap = findBwrap();
} catch {
  bwrap = undefined;
}
if (bwrap === undefined)
  console.warn('[skip] the sandboxed run test of tool-shell: bwrap is not installed (apt-get install bubblewrap).');

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-run-')));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runCommand', () => {
  test('the orphan check sees a live process by its marker', async () => {
    const marker = uniqueSleep();
    const child = spawn('sleep', [marker], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(liveProcessesWith(marker)).toEqual([child.pid]);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('a timeout kills the whole tree, background children included, and keeps the output so far', async () => {
    const marker = uniqueSleep();
    const result = await runCommand(`echo started; sleep ${marker} & sleep ${marker}`, {
      cwd: dir,
      timeoutMs: 1000,
      killGraceMs: 500,
    });
    expect(result.timedOut).toBe(true);
    expect(result.output).toBe('started\n');
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('a child that ignores SIGTERM is killed with SIGKILL after the grace', async () => {
    const marker = uniqueSleep();
    const result = await runCommand(`trap '' TERM; sleep ${marker}`, { cwd: dir, timeoutMs: 300, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('aborting kills the tree', async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    const result = await runCommand(`echo ready; (sleep ${marker}) & sleep ${marker}`, {
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes('ready')) controller.abort();
      },
    });
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('processes left running with & are stopped when the shell exits', async () => {
    const marker = uniqueSleep();
    const result = await runCommand(`sleep ${marker} > /dev/null & echo done`, {
      cwd: dir,
      timeoutMs: 60_000,
      killGraceMs: 500,
    });
    expect(result.output).toBe('done\n');
    expect(result.exitCode).toBe(0);
    expect(result.killedStragglers).toBe(true);
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('a timeout also kills a child that left the process group with setsid', async () => {
    const marker = uniqueSleep();
    const result = await runCommand(`setsid sleep ${marker} & sleep ${marker}`, {
      cwd: dir,
      timeoutMs: 800,
      killGraceMs: 300,
    });
    expect(result.timedOut).toBe(true);
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('a setsid child left running when the shell exits is stopped too', async () => {
    const marker = uniqueSleep();
    const result = await runCommand(`(setsid sleep ${marker} > /dev/null 2>&1 &); echo done`, {
      cwd: dir,
      timeoutMs: 60_000,
      killGraceMs: 300,
    });
    expect(result.output).toBe('done\n');
    expect(result.killedStragglers).toBe(true);
    expect(liveProcessesWith(marker)).toEqual([]);
  });

  test('an interactive read gets end-of-file at once instead of hanging', async () => {
    const result = await runCommand('read x; echo "got:[$x] status:$?"', { cwd: dir, timeoutMs: 60_000 });
    expect(result.timedOut).toBe(false);
    expect(result.output).toBe('got:[] status:1\n');
  });

  test('stdout and stderr are interleaved in the order they were written', async () => {
    const result = await runCommand('echo 1; echo 2 >&2; echo 3; echo 4 >&2; exit 3', { cwd: dir, timeoutMs: 60_000 });
    expect(result.output).toBe('1\n2\n3\n4\n');
    expect(result.exitCode).toBe(3);
  });

  test('huge output keeps its head and tail and saves the whole to a file', async () => {
    const spillPath = path.join(dir, 'spill', 'huge.txt');
    const result = await runCommand('seq 1 200000', { cwd: dir, timeoutMs: 60_000, maxOutputChars: 1000, spillPath });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.output.endsWith('199999\n200000\n')).toBe(true);
    expect(result.output).toContain(spillPath);
    // The 1 000-character cap, plus the note (which names the file twice: where it is, and the call to read it).
    expect(result.output.length).toBeLessThan(1400);
    const whole = await readFile(spillPath, 'utf8');
    expect(whole.split('\n')).toHaveLength(200001);
    expect(result.totalChars).toBe(whole.length);
  });

  test('the saved output is 0600 in a 0700 folder, and an existing file or symlink there is refused, not followed', async () => {
    const spillDir = path.join(dir, 'spill-private');
    const spillPath = path.join(spillDir, 'out.txt');
    await runCommand('seq 1 20000', { cwd: dir, timeoutMs: 60_000, maxOutputChars: 100, spillPath });
    expect(statSync(spillPath).mode & 0o777).toBe(0o600);
    expect(statSync(spillDir).mode & 0o777).toBe(0o700);

    // An attacker's link where the next spill file goes: the target must stay untouched.
    const target = path.join(dir, 'victim.txt');
    writeFileSync(target, 'precious');
    const linked = path.join(spillDir, 'linked.txt');
    symlinkSync(target, linked);
    const result = await runCommand('seq 1 20000', {
      cwd: dir,
      timeoutMs: 60_000,
      maxOutputChars: 100,
      spillPath: linked,
    });
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(result.truncated).toBe(true);
    expect(result.output).not.toContain(`saved in ${linked}`);
    expect(result.output).toContain('could not be saved');
  });

  test('binary and invalid UTF-8 output does not crash anything', async () => {
    const result = await runCommand("head -c 20000 /dev/urandom; printf '\\xff\\xfe\\x00ok\\n'; echo done", {
      cwd: dir,
      timeoutMs: 60_000,
      maxOutputChars: 100_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('\uFFFD');
    expect(result.output.endsWith('ok\ndone\n')).toBe(true);
  });

  test('progress reports the last lines while the command runs', async () => {
    const seen: string[][] = [];
    const result = await runCommand('echo first; sleep 1; echo second', {
      cwd: dir,
      timeoutMs: 60_000,
      progressIntervalMs: 50,
      onProgress: (p) => seen.push(p.lastLines),
    });
    expect(result.output).toBe('first\nsecond\n');
    expect(seen.some((lines) => lines.at(-1) === 'first')).toBe(true);
  });

  test('reports the directory the shell ended in', async () => {
    const result = await runCommand('mkdir -p sub && cd sub', { cwd: dir, timeoutMs: 60_000 });
    expect(result.finalCwd).toBe(path.join(dir, 'sub'));
  });

  test('a missing working directory is named in the output', async () => {
    const result = await runCommand('ls', { cwd: path.join(dir, 'gone'), timeoutMs: 60_000 });
    expect(result.exitCode).toBe(null);
    expect(result.output).toContain(path.join(dir, 'gone'));
  });

  test('a command can still open and use descriptors of its own above 2', async () => {
    const result = await runCommand(
      'exec 5>own.txt; echo five >&5; exec {v}>>own.txt; echo "v$v" >&$v; cat <(echo sub) <<<here; cat own.txt',
      { cwd: dir, timeoutMs: 60_000 },
    );
    expect(result.output).toBe('sub\nfive\nv10\n');
  });
});

/** The child's report and what it wrote to the pipe on its fd 100. */
interface InheritedFdRun {
  held: string[];
  outputs: string[];
  pipe: string;
}

/**
 * Starts testdata/inherited_fd_child.ts with a pipe on fd 100 that it inherits without
 * close-on-exec, as the host's own parent might leave one, and collects what reached the pipe.
 */
function runWithInheritedFd(cwd: string, mode: 'plain' | 'sandbox'): Promise<InheritedFdRun> {
  const script = fileURLToPath(new URL('./testdata/inherited_fd_child.ts', import.meta.url));
  const packageDir = fileURLToPath(new URL('..', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@toolshed/source', '--import', 'tsx', script, cwd, mode], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(97).fill('ignore'), 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let pipe = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const inherited = (child.stdio as ReadonlyArray<unknown>)[100] as Readable;
  inherited.on('data', (d: Buffer) => (pipe += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`inherited_fd_child exited with ${code}: ${stderr}`));
      else resolve({ ...(JSON.parse(stdout) as Omit<InheritedFdRun, 'pipe'>), pipe });
    });
  });
}

/** The fds of an `ls -l /proc/N/fd` listing other than 0–2 and the lister's own directory. */
function foreignFds(listing: string): string[] {
  return [...listing.matchAll(/ (\d+) -> (.*)$/gm)]
    .filter(([, fd, target]) => !['0', '1', '2'].includes(fd!) && !/^\/proc\/\d+\/fd$/.test(target!))
    .map(([, fd, target]) => `${fd} -> ${target}`);
}

describe('descriptors the host process inherited', () => {
  const check = (run: InheritedFdRun) => {
    // The setup leaks as intended: the host holds fd 100 and a bare spawn writes to it.
    expect(run.held).toContain('100');
    expect(run.pipe).toBe('control\n');
    const [listing, write, grandchild, background] = run.outputs;
    expect(listing).toMatch(/ 0 -> /);
    expect(foreignFds(listing!)).toEqual([]);
    expect(write).toContain('100: Bad file descriptor');
    expect(write).toContain('write=1');
    expect(foreignFds(grandchild!)).toEqual([]);
    expect(background).toContain('100: Bad file descriptor');
    expect(background).toMatch(/ 1 -> /);
    expect(foreignFds(background!)).toEqual([]);
  };

  test('do not reach commands the Bash tool runs, their children or background tasks', async () => {
    check(await runWithInheritedFd(dir, 'plain'));
  }, 60_000);

  test.skipIf(bwrap === undefined)(
    'do not reach sandboxed commands either',
    async () => {
      check(await runWithInheritedFd(dir, 'sandbox'));
    },
    60_000,
  );
});
