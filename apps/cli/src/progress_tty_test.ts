import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { cliNodeArgs } from './_test_cli.ts';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs the CLI in a pseudo-terminal (`script`) to the end; stdout and stderr together. */
export async function runInTerminal(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-tty-home-')));
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, ...cliNodeArgs(), ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: cliDir,
    env: { ...process.env, HOME: home, TOOLSHED_DEBUG: '', TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, output: output.replace(/\r\n/g, '\n') };
}

describe.skipIf(!hasScript)('progress lines in a terminal', () => {
  if (!hasScript) console.log('skipped: `script` (util-linux) is not installed, so no pseudo-terminal test runs');

  test('a Bash command that prints step 1, step 2, step 3 shows each once, in order', async () => {
    const cwd = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-progress-')));
    await mkdir(path.join(cwd, 'x'), { recursive: true });
    // Two lines inside one progress interval, then one line that stays the last for two intervals.
    const command = 'echo step 1; echo step 2; sleep 1.5; echo step 3; sleep 2.5';
    const r = await runInTerminal(['call', 'Bash', JSON.stringify({ command }), '--yes', '--cwd', cwd], {
      NO_COLOR: '1',
    });
    expect(r.code, r.output).toBe(0);
    const shown = [...r.output.matchAll(/toolshed: Bash: (step \d)/g)].map((m) => m[1]);
    expect(shown, r.output).toEqual(['step 1', 'step 2', 'step 3']);
  }, 60_000);
});
