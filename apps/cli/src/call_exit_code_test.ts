import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runToolshed } from './_test_process.ts';

async function dirs(): Promise<{ home: string; cwd: string }> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'toolshed-exit-')));
  await mkdir(path.join(root, 'home'));
  await mkdir(path.join(root, 'project'));
  return { home: path.join(root, 'home'), cwd: path.join(root, 'project') };
}

describe('toolshed call Bash: the exit code follows the command', () => {
  test('a command that exits 0 exits 0', async () => {
    const { home, cwd } = await dirs();
    const r = await runToolshed(['call', 'Bash', '{"command":"echo fine"}', '--yes', '--cwd', cwd], { home });
    expect(r.stdout, r.stderr).toBe('fine\n');
    expect(r.code).toBe(0);
  });

  test('a command that exits non-zero exits 1, and its output is still printed', async () => {
    const { home, cwd } = await dirs();
    const r = await runToolshed(['call', 'Bash', '{"command":"echo broken; exit 3"}', '--yes', '--cwd', cwd], { home });
    expect(r.stdout).toBe('broken\nExit code 3\n');
    expect(r.code).toBe(1);
  });

  test('a command that prints nothing and times out exits 1 and does not claim output', async () => {
    const { home, cwd } = await dirs();
    const r = await runToolshed(['call', 'Bash', '{"command":"sleep 30","timeout":300}', '--yes', '--cwd', cwd], {
      home,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('timed out after 300 ms');
    expect(r.stdout).toContain('it printed nothing before then');
    expect(r.stdout).not.toContain('output above');
  });

  test('a command that printed before timing out says the output above is what it printed', async () => {
    const { home, cwd } = await dirs();
    const r = await runToolshed(
      ['call', 'Bash', '{"command":"echo started; sleep 30","timeout":1000}', '--yes', '--cwd', cwd],
      { home },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^started\nCommand timed out after 1000 ms .*the output above is what it printed until then\.\n$/,
    );
  });
});
