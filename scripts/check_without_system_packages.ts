// The README's promise, checked: on a machine with only Node 20 — no ripgrep, bubblewrap or
// strace — the tests that need one skip with a printed reason and every other test passes.
// Runs the test files of the packages that use those programs in a view of this machine where
// the three are gone: under bubblewrap, the whole file system as it is, with /dev/null (not
// executable) mounted over each of them on PATH and in /usr/bin, so that neither a PATH lookup
// nor a fixed path finds them. Fails unless vitest passes and prints each skip reason. Run by
// `.ci/run`, where all three are installed; where bubblewrap itself is missing, the machine is
// already such a machine and the check says so.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const LEFT_OUT = ['rg', 'bwrap', 'strace'];
/** What each missing program's tests print, so a silent skip (or none at all) fails this check. */
const SKIP_REASONS = [
  'ripgrep (rg) is not installed',
  '[skip] the bubblewrap sandbox tests of tool-shell: bwrap is not installed',
  '[skip] the strace corpus test: strace is not installed',
];
const TEST_DIRS = ['packages/tool-fs', 'packages/tool-shell'];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const dirs = [...new Set([...(process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/bin'])];
const found = dirs.flatMap((dir) => LEFT_OUT.map((name) => path.join(dir, name))).filter(executable);
const bwrap = found.find((file) => path.basename(file) === 'bwrap');
const env = { ...process.env } as Record<string, string>;
delete env['RIPGREP_PATH'];
const command = bwrap
  ? [bwrap, '--dev-bind', '/', '/', ...found.flatMap((file) => ['--ro-bind', '/dev/null', file]), '--', 'npx']
  : ['npx'];
if (!bwrap) console.log('bubblewrap is not installed: this machine already lacks it, so the tests run as they are.');
const run = spawnSync(command[0]!, [...command.slice(1), 'vitest', 'run', ...TEST_DIRS], {
  cwd: root,
  env,
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const output = `${run.stdout}\n${run.stderr}`;
// Without bubblewrap nothing can be hidden: skip reasons are required only when all three are absent.
const notHidden = bwrap ? [] : found;
const missing = SKIP_REASONS.filter((reason) => !output.includes(reason));
const summary = (output.match(/Tests\s+.*\n/)?.[0] ?? '(no summary)').replace(/\x1b\[[0-9;]*m/g, '').trim();
if (run.status !== 0 || (notHidden.length === 0 && missing.length > 0)) {
  process.stderr.write(output.slice(-6000));
  throw new Error(
    `Without ${LEFT_OUT.join(', ')}: vitest exited ${run.status}${missing.length ? `; no skip reason printed for: ${missing.join(' | ')}` : ''}`,
  );
}
console.log(
  `Without ${LEFT_OUT.join(', ')}: the tests of ${TEST_DIRS.join(' and ')} pass, each skip explained (${summary})`,
);
