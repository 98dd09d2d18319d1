// Attack on the guard's model of programs that run another program: `setsid rm x`, `chrt 0 rm x`,
// `flock F rm x`, `script -c 'rm x'`, `perf stat rm x`… The guard looked through `timeout`, `nice`,
// `nohup`, `sudo` and a few more, but not through the other runners of util-linux, strace or a
// program it does not know at all: their command was never seen. So, in bypassPermissions (and
// under an allow rule for the runner), a `Bash(rm:*)` deny rule let `setsid rm x` delete x, and
// `setsid cp a .git/hooks/pre-commit` made a hook with no question. Programs that change what a
// path means (`mount --bind .git/hooks d`, `unshare -rm …`) made a write to `d/pre-commit` land in
// `.git/hooks`. Each command below was run for real in the project (util-linux 2.38+, strace)
// and did what its comment says, where the guard allowed it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const deny = shellDecider('toolshed-runners-deny-', [], { deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'] });
const writer = shellDecider('toolshed-runners-write-', []);
const allowed = shellDecider('toolshed-runners-allow-', ['Bash(perf:*)', 'Bash(setsid:*)'], { deny: ['Bash(rm:*)'] });

const has = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

async function project(dir: string): Promise<void> {
  await mkdir(path.join(dir, '.git', 'hooks'), { recursive: true });
  await mkdir(path.join(dir, 'd'), { recursive: true });
  await writeFile(path.join(dir, 'x'), 'x\n');
  await writeFile(path.join(dir, 'a'), '#!/bin/sh\necho pwned\n');
}

let denyDir = '';
let writeDir = '';
let allowDir = '';
beforeAll(async () => {
  denyDir = path.join(deny.root(), 'p');
  writeDir = path.join(writer.root(), 'p');
  allowDir = path.join(allowed.root(), 'p');
  await Promise.all([project(denyDir), project(writeDir), project(allowDir)]);
});

/** Runners the guard now looks through: each runs `rm x` (and deletes x, run for real). */
const TABLED_RUNNERS: ReadonlyArray<[command: string, program: string]> = [
  ['setsid rm x', 'setsid'],
  ['setsid -w rm x', 'setsid'],
  ['chrt -o 0 rm x', 'chrt'],
  ['chrt --other 0 rm x', 'chrt'],
  ['taskset 1 rm x', 'taskset'],
  ['taskset -c 0 rm x', 'taskset'],
  ['flock /tmp/toolshed-runners.lock rm x', 'flock'],
  ['flock -w 5 /tmp/toolshed-runners.lock rm x', 'flock'],
  ["flock /tmp/toolshed-runners.lock -c 'rm x'", 'flock'],
  ['prlimit --nofile=512 rm x', 'prlimit'],
  ['prlimit -n rm x', 'prlimit'],
  ['setarch x86_64 -R rm x', 'setarch'],
  ['setarch -R rm x', 'setarch'],
  ['linux64 rm x', 'linux64'],
  ['strace -f -o /dev/null rm x', 'strace'],
  ['strace -qqe trace=none rm x', 'strace'],
  ["script -qc 'rm x' /dev/null", 'script'],
  ["script -q -c 'rm x' /dev/null", 'script'],
  ['nice setsid timeout 5 rm x', 'setsid'],
];

/** Programs the guard does not know at all, whose arguments end in a command a rule names. */
const UNKNOWN_RUNNERS: ReadonlyArray<[command: string, program: string]> = [
  ['perf stat -- rm x', 'perf'],
  ['valgrind -q rm x', 'valgrind'],
  ['systemd-run --user rm x', 'systemd-run'],
  ['firejail rm x', 'firejail'],
  ["fish -c 'rm x'", 'fish'],
  ["runuser -u nobody -- sh -c 'rm x'", 'runuser'],
  ['mytool --then rm -rf x', ''],
  ["ssh localhost 'rm x'", 'ssh'],
  ["at now <<< 'rm x'", 'at'],
  // Which program runs is known only when it runs.
  ['x=rm; $x x', ''],
  ['rm${IFS}x', ''],
];

describe('a deny rule on a command holds through the programs that run it (bypassPermissions)', () => {
  for (const [command, program] of TABLED_RUNNERS) {
    test.skipIf(!has(program))(`${command}: denied by Bash(rm:*), as \`rm x\` is`, async () => {
      // Proof that it runs rm: x is gone (where the runner may run here: strace needs ptrace).
      const copy = await deny.runInCopy(denyDir, command);
      if (existsSync(path.join(copy, 'x')))
        console.log(`${command}: did not run on this machine; the decision is still checked`);
      const decision = await deny.explain(denyDir, command, 'bypassPermissions');
      expect(decision.behavior, decision.reason).toBe('deny');
      expect(decision.reason).toContain('Bash(rm:*)');
    });
  }

  for (const [command, program] of UNKNOWN_RUNNERS) {
    test(`${command}: asks, in every mode, naming the rule (${program || 'an unknown program'} may run \`rm\`)`, async () => {
      const decisions = await deny.inEveryMode(denyDir, command, 'ask');
      expect(decisions.at(-1)!.reason).toContain('Bash(rm:*)');
      // An allow rule for the runner is not one for what it runs.
      const underAllow = await allowed.explain(allowDir, command, 'default');
      expect(underAllow.behavior, underAllow.reason).not.toBe('allow');
    });
  }

  // Tables whose options had a value the other way round: `--replace` takes one only attached,
  // so `rm` was read as its value; `--userspec U` and `--groups G` take the next word, so `/`
  // was read as chroot's root and `1000` as the command.
  test('xargs --replace rm {} and chroot --userspec U / rm x: denied by Bash(rm:*)', async () => {
    const copy = await deny.runInCopy(denyDir, 'echo x | xargs --replace rm {}');
    expect(existsSync(path.join(copy, 'x')), 'xargs --replace rm {} deletes x').toBe(false);
    expect(await deny.decide(denyDir, 'echo x | xargs --replace rm {}', 'bypassPermissions')).toBe('deny');
    expect(await deny.decide(denyDir, 'chroot --userspec 1000 / rm x', 'bypassPermissions')).toBe('deny');
    expect(await deny.decide(denyDir, 'chroot --groups 10 / rm x', 'bypassPermissions')).toBe('deny');
  });

  // sudo's getopt takes a value for -T, -R, -a, -c and every long option with one; `-h` only attached.
  test('sudo -T 10 rm x, sudo --user root rm x, sudo -h rm x: denied by Bash(rm:*)', async () => {
    for (const command of ['sudo -T 10 rm x', 'sudo --user root rm x', 'sudo -h rm x', 'sudo -c staff rm x']) {
      expect(await deny.decide(denyDir, command, 'bypassPermissions'), command).toBe('deny');
    }
  });

  // `chroot P cp /a /.git/hooks/pre-commit` writes P/.git/hooks/pre-commit: under another root no path means what the guard reads.
  test('chroot, sudo -R ROOT and sudo -D DIR move every path: what they write is not known, so they ask', async () => {
    for (const command of [
      'chroot . cp /a /.git/hooks/pre-commit',
      'sudo -R . cp /a /.git/hooks/pre-commit',
      'sudo -nD .git/hooks cp a pre-commit',
      'sudo --chr=. cp /a /.git/hooks/pre-commit',
    ]) {
      const [decision] = await writer.inEveryMode(writeDir, command, 'ask');
      expect(decision!.reason, command).toContain('another root or directory');
    }
  });

  test('an ask rule holds the same way: `setsid git push` and `perf stat git push` ask in bypassPermissions', async () => {
    expect(await deny.decide(denyDir, 'setsid git push', 'bypassPermissions')).toBe('ask');
    expect(await deny.decide(denyDir, 'perf stat git push origin main', 'bypassPermissions')).toBe('ask');
  });

  test('an allow rule for the runner does not allow what a deny rule names: `setsid rm x` under Bash(setsid:*)', async () => {
    expect(await allowed.decide(allowDir, 'setsid rm x', 'default')).toBe('deny');
  });

  test('what runs no denied command stays as it was: `echo rm x`, `git rm x`, `mytool build`, `setsid ls`', async () => {
    expect(await deny.decide(denyDir, 'echo rm x', 'bypassPermissions')).toBe('allow');
    expect(await deny.decide(denyDir, 'mytool build', 'bypassPermissions')).toBe('allow');
    expect(await deny.decide(denyDir, 'setsid ls', 'bypassPermissions')).toBe('allow');
    expect(await allowed.decide(allowDir, 'perf stat -- ls', 'default')).toBe('allow');
  });
});

describe('protected writes through a runner ask in every mode', () => {
  const cases: ReadonlyArray<[command: string, program: string]> = [
    ['setsid cp a .git/hooks/pre-commit', 'setsid'],
    ['chrt -o 0 cp a .git/hooks/pre-commit', 'chrt'],
    ['taskset 1 cp a .git/hooks/pre-commit', 'taskset'],
    ['prlimit --nofile=512 cp a .git/hooks/pre-commit', 'prlimit'],
    ['linux64 cp a .git/hooks/pre-commit', 'linux64'],
    ['strace -o /dev/null cp a .git/hooks/pre-commit', 'strace'],
    ["flock /tmp/toolshed-runners.lock -c 'cp a .git/hooks/pre-commit'", 'flock'],
    // The runner's own files: flock makes its lock file, strace writes its log.
    ['flock .git/hooks/pre-commit true', 'flock'],
    ['strace -o .git/hooks/pre-commit true', 'strace'],
    ['strace --output=.git/hooks/pre-commit true', 'strace'],
  ];
  for (const [command, program] of cases) {
    test.skipIf(!has(program))(`${command}`, async () => {
      const copy = await writer.runInCopy(writeDir, command);
      if (!existsSync(path.join(copy, '.git', 'hooks', 'pre-commit')))
        console.log(`${command}: did not run on this machine; the decision is still checked`);
      await writer.inEveryMode(writeDir, command, 'ask');
    });
  }

  test.skipIf(!has('strace'))('strace -o "|CMD" runs CMD: what it writes is not known, so it asks', async () => {
    const command = `strace -o '|sh -c ": > pwned"' true`;
    const copy = await writer.runInCopy(writeDir, command);
    expect(existsSync(path.join(copy, 'pwned'))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });
});

describe('programs that change what a path means ask in every mode', () => {
  test.skipIf(!has('unshare'))("unshare -rm sh -c 'mount --bind .git/hooks d && cp a d/pre-commit'", async () => {
    // Run for real only inside a mount namespace of its own: the bind mount ends with it.
    const command = "unshare -rm sh -c 'mount --bind .git/hooks d && cp a d/pre-commit'";
    const copy = await writer.runInCopy(writeDir, command);
    if (!existsSync(path.join(copy, '.git', 'hooks', 'pre-commit')))
      console.log(`${command}: user namespaces are not permitted here; the decision is still checked`);
    await writer.inEveryMode(writeDir, command, 'ask');
  });

  // Not run: outside a namespace of its own the mount would outlive the test.
  for (const command of [
    'mount --bind .git/hooks d && cp a d/pre-commit',
    'mount -o bind .git/hooks d',
    'nsenter -t 1 -m cp a .git/hooks/pre-commit',
    'unshare -m --root=/ cp a d/pre-commit',
    'bindfs .git/hooks d && cp a d/pre-commit',
  ]) {
    test(command, async () => {
      await writer.inEveryMode(writeDir, command, 'ask');
    });
  }
});

// Found by a review of the first fix, each run for real where it is safe.
describe('what the first fix left open', () => {
  const protectedWrites = [
    // An unknown program whose words hold a known writer: perf ran cp and made the hook.
    'perf stat cp a .git/hooks/pre-commit',
    'perf stat -- cp a .claude/settings.json',
    'firejail --noprofile cp a .git/hooks/pre-commit',
    "gdb -batch -ex 'shell cp a .git/hooks/pre-commit'",
    // `--` before a leading value: the value was read as the program.
    'chrt -o -- 0 cp a .claude/settings.json',
    'timeout -- 5 cp a .git/hooks/post-checkout',
    "taskset -- 1 sh -c 'cp a .git/hooks/pre-commit'",
    "flock -- lk -c 'echo pwn > .claude/settings.local.json'",
    'flock -- .git/hooks/pre-push true',
    // Nine wrappers deep: the unwrapping stopped at eight.
    'nice nice nice nice nice nice nice nice nice cp a .git/hooks/pre-commit',
    // Commands an unknown program takes from its standard input or a file.
    "echo 'cp a .git/hooks/pre-commit' | at now",
    'crontab jobs.txt',
  ];
  for (const command of protectedWrites) {
    test(`${command}: asks in every mode`, async () => {
      await writer.inEveryMode(writeDir, command, 'ask');
    });
  }

  const deniedRuns = [
    'flock -- f -c "rm x"',
    'nice nice nice nice nice nice nice nice nice rm x',
    'perf stat sh -c "r${Z}m x"',
    'perf stat $X x',
    "gdb -batch -ex 'shell rm y'",
    "vim -es -c ':!rm z' -c q",
    'ssh localhost \'r"m"\' x',
    "ssh localhost '\\rm' x",
    'perf stat bash <<EOF\nrm x\nEOF',
  ];
  for (const command of deniedRuns) {
    test(`${JSON.stringify(command)}: not allowed in bypassPermissions under Bash(rm:*)`, async () => {
      const decision = await deny.explain(denyDir, command, 'bypassPermissions');
      expect(decision.behavior, decision.reason).not.toBe('allow');
    });
  }

  test('a subcommand named like a denied program is not that program: `docker rm web`, `npm rm x`, `gh pr create --title "rm deps"`', async () => {
    for (const command of [
      'docker rm web',
      'docker compose rm -f',
      'npm rm lodash',
      'pnpm rm lodash',
      'aws s3 rm s3://b/k',
      "gh pr create --title 'rm unused deps' --body x",
    ]) {
      expect(await deny.decide(denyDir, command, 'bypassPermissions'), command).toBe('allow');
    }
    // What such a program runs after `--`, or in a shell string, is still looked at.
    expect(await deny.decide(denyDir, 'kubectl exec pod -- rm x', 'bypassPermissions')).toBe('ask');
    expect(await deny.decide(denyDir, "docker exec box sh -c 'rm x'", 'bypassPermissions')).toBe('ask');
  });
});
