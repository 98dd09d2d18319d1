import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { benchCommand } from './bench_command.ts';
import { cli } from './_test_io.ts';

function sink() {
  let text = '';
  return {
    write: (chunk: string) => (text += chunk),
    get text() {
      return text;
    },
  };
}

test('toolshed bench --help runs the bench of the checkout and lists its suites, result_persistence among them', async () => {
  const r = await cli(['bench', '--help']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('Usage: tsx src/main.ts [suite...] [--quick]');
  expect(r.stdout).toContain('result_persistence');
}, 60_000);

test("toolshed bench passes on the bench's usage error and its exit code 2", async () => {
  const r = await cli(['bench', 'no_such_suite']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Unknown suite "no_such_suite"');
}, 60_000);

test('toolshed bench outside a checkout says there is no bench and exits 2', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'toolshed-no-bench-'));
  try {
    const stdout = sink();
    const stderr = sink();
    const code = await benchCommand(
      ['--quick'],
      { stdout, stderr, stdin: process.stdin, isTTY: false },
      { benchDir: dir },
    );
    expect(code).toBe(2);
    expect(stderr.text).toContain(`there is none at "${dir}"`);
    expect(stderr.text).toContain('pnpm install && pnpm build');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
