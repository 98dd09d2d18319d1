// Attack on the guard's model of everyday programs (not git): options the tables did not know,
// or knew only when spelled out in full. GNU getopt takes any unique abbreviation of a long
// option (`--files0=F` is `--files0-from=F`, `--comp=sh` is `--compress-program=sh`); tree reads
// the files of `--hintro=F`, `--houtro=F`, `--infofile=F` and `--gitfile=F`; binutils' strings
// reads its options from `@FILE` (and shows the words it cannot open); `find -files0-from F`
// walks the folders F names; split, csplit, mkfifo and mknod had no table (an unknown read,
// which bypassPermissions and `Bash(split:*)` allow). Each command below was run for real in the
// project (GNU coreutils 9, findutils 4.9, tree 2.1, binutils strings) and printed the secret,
// made `pwned` through sh, or made the protected file named beside it; the guard allowed it.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { shellDecider } from './testdata/shell_decider.ts';

const SECRET = 'KEY=s3cr3t-value';
const PROGRAMS = [
  'sort',
  'wc',
  'du',
  'file',
  'tree',
  'strings',
  'find',
  'install',
  'split',
  'csplit',
  'mkfifo',
  'mknod',
  'shred',
  'cp',
  'rg',
  'xxd',
];
const RULES = PROGRAMS.map((p) => `Bash(${p}:*)`);
const reader = shellDecider('toolshed-everyday-read-', RULES, { deny: ['Read(./.env)'] });
const writer = shellDecider('toolshed-everyday-write-', RULES);
const editDenier = shellDecider('toolshed-everyday-edit-', ['Bash(chmod:*)'], { deny: ['Edit(./src/**)'] });

const has = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** What the command prints (standard output and error) when run for real in `dir`. */
function output(dir: string, command: string): string {
  try {
    return execFileSync('bash', ['-c', `${command} 2>&1`], { cwd: dir, encoding: 'utf8', timeout: 10_000 });
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

let clones = 0;
/** A fresh copy of `dir`, left for the test file's cleanup (the root goes after all tests). */
async function cloneOf(dir: string): Promise<string> {
  const copy = `${dir}-clone-${++clones}`;
  await cp(dir, copy, { recursive: true });
  return copy;
}

async function project(dir: string): Promise<void> {
  const files: Record<string, string> = {
    '.env': `${SECRET}\n`,
    names0: '.env\0',
    folders0: 'secrets\0',
    'secrets/token.txt': 't\n',
    opts: '-n\n1\n.env\n',
    'a.txt': 'b\na\n',
    // Lines sort pipes to its --compress-program: each a command for `sh` (a builtin: no process left behind).
    'big.txt': ':>pwned\n'.repeat(4000),
    'src/a.ts': 'a\n',
    '.git/hooks/.keep': '',
    '.claude/.keep': '',
    'bin/.keep': '',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

let readDir = '';
let writeDir = '';
beforeAll(async () => {
  readDir = path.join(reader.root(), 'p');
  writeDir = path.join(writer.root(), 'p');
  await project(readDir);
  await project(writeDir);
});

describe('options that read a file the guard did not declare (Read(./.env) is denied)', () => {
  // Each opened .env (the secret, or its count, size or type, is in what it printed): the guard
  // declared no read of it, nor of the list naming it.
  const CASES: [string, string, string, string][] = [
    ['wc', 'wc --files0=names0', ' 17 .env', 'ask'],
    ['wc', 'wc --files0-fr=names0', ' 17 .env', 'ask'],
    ['du', 'du --files0=names0', '.env', 'ask'],
    ['sort', 'sort --files0=names0', SECRET, 'ask'],
    ['file', 'file --files-f names0', '.env: ASCII text', 'ask'],
    ['tree', 'tree -H . --hintro=.env', SECRET, 'deny'],
    ['tree', 'tree -H . --hintro .env bin', SECRET, 'deny'],
    ['tree', 'tree -H . --houtro=.env', SECRET, 'deny'],
    ['strings', 'strings @.env', SECRET, 'deny'],
    ['strings', 'strings @opts', SECRET, 'ask'],
    // file -m takes a list of magic files, split at `:`, and shows a line it cannot parse.
    ['file', 'file -m a.txt:.env a.txt', SECRET, 'deny'],
    ['file', 'file --magic-file=a.txt:.env a.txt', SECRET, 'deny'],
    // file reads its magic from $MAGIC, as from -m, and shows a line it cannot parse.
    ['file', 'MAGIC=.env file a.txt', SECRET, 'ask'],
    ['file', 'export MAGIC=.env; file a.txt', SECRET, 'ask'],
    // Whole options that begin a longer one of the table, which took the next word for its value.
    ['column', 'column --table .env', SECRET, 'deny'],
    ['grep', 'grep --binary KEY .env', SECRET, 'deny'],
    // grep takes an abbreviation of --directories' value too (argmatch): `-d rec` searches folders.
    ['grep', 'grep -d rec KEY .', SECRET, 'deny'],
    ['grep', 'grep --directories recurse KEY .', SECRET, 'deny'],
    ['grep', 'grep --dir=rec KEY .', SECRET, 'deny'],
    ['grep', 'egrep -drecurse KEY .', SECRET, 'deny'],
    // getopt takes --recursive cut short: the folders are searched, or copied, whole.
    ['grep', 'grep --recur KEY .', SECRET, 'deny'],
    ['cp', 'cp --rec . ../copy && cat ../copy/.env', SECRET, 'deny'],
    // jq's --tab and --seq take no value: the filter after them is no value, and the file after it is read.
    ['jq', 'jq -R --tab . .env', SECRET, 'deny'],
    ['jq', 'jq -R --seq . .env', SECRET, 'deny'],
    // `--run-tests FILE` takes no filter: FILE is read, and shown in the errors of what it cannot compile.
    ['jq', 'jq --run-tests .env', SECRET, 'deny'],
    // hexdump shows the format file it cannot parse.
    ['hexdump', 'hexdump --format-file=.env a.txt', SECRET, 'deny'],
  ];
  test.each(CASES)('%s: %s', async (program, command, shown, behavior) => {
    if (!has(program)) return console.log(`[skip] ${program} is not installed`);
    expect(output(readDir, command)).toContain(shown);
    await reader.inEveryMode(readDir, command, behavior);
  });

  test('find -files0-from F walks the folders F names: not known before it runs', async () => {
    expect(output(readDir, 'find -files0-from folders0')).toContain('secrets/token.txt');
    await reader.inEveryMode(readDir, 'find -files0-from folders0', 'ask');
  });

  test('rg --ignore is a flag: the path after the pattern is searched, outside the working directory', async () => {
    await writeFile(path.join(writer.root(), 'outside.txt'), `${SECRET}\n`);
    // The real run needs ripgrep; the guard's decision does not.
    if (has('rg')) expect(output(writeDir, 'rg --ignore KEY ../outside.txt')).toContain(SECRET);
    else console.log('[skip] the real rg --ignore run: ripgrep (rg) is not installed');
    expect(await writer.decide(writeDir, 'rg --ignore KEY ../outside.txt')).toBe('ask');
  });

  test('shred --random-source F reads F (strace: openat .env) and writes what it draws from it into the file', async () => {
    for (const command of ['shred -n 1 --random-source=.env a.txt', 'shred -n1 --random .env a.txt'])
      await reader.inEveryMode(readDir, command, 'deny');
  });

  test('hostname -F F reads F (to set the name from it)', async () => {
    await reader.inEveryMode(readDir, 'hostname -F .env', 'deny');
  });

  test('tree --infofile and --gitfile read the file they name', async () => {
    for (const command of ['tree --info --infofile=.env', 'tree --gitfile=.env'])
      await reader.inEveryMode(readDir, command, 'deny');
  });
});

describe('abbreviated options that run a program (Bash(sort:*), Bash(install:*) allow the command)', () => {
  test.each([
    'sort -S 1K --compress=sh big.txt',
    'sort -S 1K --comp sh big.txt',
    'sort -S 1K --compress-prog=sh big.txt',
  ])('%s made pwned; it asks, in every mode', async (command) => {
    // A copy of its own: sort may leave a compressor running after it fails, writing in it.
    const copy = await cloneOf(writeDir);
    execFileSync('bash', ['-c', `${command} >/dev/null 2>&1 || true`], { cwd: copy, timeout: 10_000 });
    expect(existsSync(path.join(copy, 'pwned'))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });

  test.each(['X=--pre=sh; rg $X touch run.sh', 'X=--compress-program=sh; sort -S 1K $X big.txt'])(
    '%s: a word not known before it runs may be the option that runs a program; it asks, in every mode',
    async (command) => {
      await writeFile(path.join(writeDir, 'run.sh'), 'touch pwned\n');
      const program = command.includes(' rg ') ? 'rg' : 'sort';
      // The real run needs the program; the guard's decision does not.
      if (has(program)) {
        const copy = await cloneOf(writeDir);
        execFileSync('bash', ['-c', `${command} >/dev/null 2>&1 || true`], { cwd: copy, timeout: 10_000 });
        expect(existsSync(path.join(copy, 'pwned'))).toBe(true);
      } else console.log(`[skip] the real run of ${command}: ${program} is not installed`);
      await writer.inEveryMode(writeDir, command, 'ask');
    },
  );

  test('install -s --strip-prog=sh runs the program named on the file installed; it asks, in every mode', async () => {
    await writeFile(path.join(writeDir, 'run.sh'), 'touch pwned\n');
    const command = 'install -s --strip-prog=sh run.sh bin/x';
    const copy = await writer.runInCopy(writeDir, command);
    expect(existsSync(path.join(copy, 'pwned'))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });
});

describe('options that run a program, of programs the read-only list knows (not installed here: by their manuals)', () => {
  // fd -x/-X runs a command per file found or on all of them (`fd -H . -X rm` removes .git's files);
  // rg 14's --hostname-bin runs a program for the host name of its hyperlinks.
  const fdRules = shellDecider('toolshed-everyday-fd-', ['Bash(fd:*)', 'Bash(rg:*)']);
  test.each([
    'fd -H . -X rm',
    'fd -x rm',
    'fd --exec rm',
    'fd --exec-batch rm',
    'fd -Hx rm',
    'rg --hostname-bin=sh --hyperlink-format={host} x',
  ])('%s asks, in every mode', async (command) => {
    await fdRules.inEveryMode(writeDir, command, 'ask');
  });
});

describe('programs whose short options are not getopt bundles', () => {
  // tree gives each letter of a bundle that takes a value the next word, in turn (`-oL FILE 1`);
  // the guard read `-oL` as `-o L`, writing ./L, and FILE as a folder listed.
  test.each([
    ['tree -oL .claude/settings.json 1', '.claude/settings.json'],
    ['tree -Lo 1 .claude/x', '.claude/x'],
  ])('%s writes %s; it asks, in every mode', async (command, made) => {
    if (!has('tree')) return console.log('[skip] tree is not installed');
    const copy = await writer.runInCopy(writeDir, command);
    expect(existsSync(path.join(copy, made))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });

  // xxd reads each word as one option named by its first letter: `-ps` is -p (plain), not -p -s VALUE.
  test.each(['xxd -ps .env', 'xxd -plain .env', 'xxd -u -ps .env'])('%s prints .env: denied', async (command) => {
    if (!has('xxd')) return console.log('[skip] xxd is not installed');
    expect(output(readDir, command).toLowerCase()).toContain(Buffer.from(SECRET).toString('hex'));
    await reader.inEveryMode(readDir, command, 'deny');
  });

  test('tree and xxd options that take a value still do', async () => {
    for (const command of ['tree -L 2 src', 'tree -aL 1 -P "*.ts" src', 'xxd -c8 a.txt', 'xxd -s 1 -l 2 a.txt'])
      expect(await reader.decide(readDir, command), command).toBe('allow');
    expect(await reader.decide(readDir, 'xxd -c 8 .env')).toBe('deny');
    expect(await reader.decide(readDir, 'tree -aL 1 .env')).toBe('deny');
  });
});

describe('programs that make the files they name, which had no table (no deny rule at all)', () => {
  const CASES: [string, string, string][] = [
    // The 20th one-letter suffix is `t`.
    ['split', 'split -n 20 -a 1 a.txt .git/hooks/pre-commi', '.git/hooks/pre-commit'],
    ['csplit', 'csplit -s -f .claude/x a.txt 2', '.claude/x00'],
    ['mkfifo', 'mkfifo .claude/settings.json', '.claude/settings.json'],
    ['mknod', 'mknod .claude/settings.json p', '.claude/settings.json'],
  ];
  test.each(CASES)('%s: %s asks, in every mode', async (program, command, made) => {
    if (!has(program)) return console.log(`[skip] ${program} is not installed`);
    const copy = await writer.runInCopy(writeDir, command);
    expect(existsSync(path.join(copy, made))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });
});

describe('everyday forms stay as they were', () => {
  test.each([
    'sort a.txt',
    'sort -S 1M -T /tmp a.txt',
    'wc -l a.txt src/a.ts',
    'du -sh src',
    'file a.txt',
    'tree -L 2 src',
    'tree -H . src',
    'strings a.txt',
    "find . -name '*.ts'",
    // It had no table: "the files hostname opens" were not known, which a Read deny rule asked about.
    'hostname',
    'hostname -s',
  ])('%s is allowed in default mode', async (command) => {
    expect(await reader.decide(readDir, command)).toBe('allow');
  });

  test('install and split to a plain place are allowed by their rule in acceptEdits', async () => {
    expect(await writer.decide(writeDir, 'install -m 644 a.txt bin/x', 'acceptEdits')).toBe('allow');
    expect(await writer.decide(writeDir, 'mkfifo bin/fifo', 'acceptEdits')).toBe('allow');
  });
});

describe("jq's env and $ENV print the environment, as printenv does", () => {
  test.each([
    'jq -n env',
    'jq -n env.TOOLSHED_TEST_TOKEN',
    "jq -n '$ENV.TOOLSHED_TEST_TOKEN'",
    "jq -rn '$ENV|to_entries[]|.value'",
    'jq -n "$P"',
  ])('%s is not auto-approved', async (command) => {
    if (!has('jq')) return console.log('[skip] jq is not installed');
    if (!command.includes('$P')) {
      const shown = execFileSync('bash', ['-c', command], {
        encoding: 'utf8',
        env: { ...process.env, TOOLSHED_TEST_TOKEN: 'tok-123' },
      });
      expect(shown).toContain('tok-123');
    }
    expect(await writer.decide(writeDir, command)).toBe('ask');
  });

  test('jq filters that read no environment stay read-only', async () => {
    await writeFile(path.join(writeDir, 'a.json'), '{"env":1,"environment":2}\n');
    for (const command of ['jq .env a.json', "jq -r '.environment' a.json", 'jq -n "[1,2]|length"'])
      expect(await writer.decide(writeDir, command), command).toBe('allow');
  });
});

describe("chmod's modes that begin with a dash are its mode, not options", () => {
  test('chmod -s,u+x .git/hooks/pre-commit makes a hook run; it asks, in every mode', async () => {
    await writeFile(path.join(writeDir, '.git/hooks/pre-commit'), 'touch pwned\n', { mode: 0o644 });
    const command = 'chmod -s,u+x .git/hooks/pre-commit';
    const copy = await writer.runInCopy(writeDir, command);
    expect(statSync(path.join(copy, '.git/hooks/pre-commit')).mode & 0o100).toBe(0o100);
    await writer.inEveryMode(writeDir, command, 'ask');
    await writer.inEveryMode(writeDir, 'chmod -Rx,u+x .git/hooks', 'ask');
  });

  test('chmod -w src/a.ts is an edit of src/a.ts, which Edit(./src/**) denies', async () => {
    const editDenied = await editDenier.inEveryMode(writeDir, 'chmod -w src/a.ts', 'deny');
    expect(editDenied[0]?.reason).toContain('Edit(./src/**)');
  });
});

describe('bash builtins run through `builtin` or `command`', () => {
  // `builtin source .env` and `command eval 'cat .env'` ran what they name, as without the prefix;
  // the guard declared nothing (the prefix hid the builtin), so bypassPermissions allowed them.
  test.each([
    ["builtin eval 'cat .env'", 'deny'],
    ["command eval 'cat .env'", 'deny'],
    ['builtin source .env', 'deny'],
    ['command . .env', 'deny'],
    ['command -p source .env', 'deny'],
    // command's -p and a `--` before the name (found in review: the prefix check looked at the first word only).
    ["command -p eval 'cat .env'", 'deny'],
    ["command -- eval 'cat .env'", 'deny'],
    ["builtin command eval 'cat .env'", 'deny'],
    ['builtin eval "$C"', 'ask'],
  ])('%s: %s, in every mode', async (command, behavior) => {
    if (!command.includes('$C')) expect(output(readDir, `${command}; echo "[$KEY]"`)).toContain('s3cr3t');
    await reader.inEveryMode(readDir, command, behavior);
  });
});

describe('variable names with a subscript, which bash evaluates as arithmetic', () => {
  // bash expands `$(…)` in the subscript of an indexed array's element it assigns or tests: each
  // made .claude/p; the guard declared nothing (printf and test open no files), which
  // bypassPermissions allowed.
  test.each([
    "printf -v 'x[$(touch .claude/p)]' %s 1",
    "printf -v'x[$(touch .claude/p)]' %s 1",
    "read 'x[$(touch .claude/p)]' <<< 1",
    "declare 'x[$(touch .claude/p)]=1'",
    "test -v 'x[$(touch .claude/p)]'",
    "[ -v 'x[`touch .claude/p`]' ]",
    "[[ -v 'x[$(touch .claude/p)]' ]]",
    "let 'x[$(touch .claude/p)]=1'",
    // mapfile -C runs its callback as a command.
    "mapfile -C 'touch .claude/p' -c 1 x < a.txt",
    // The same builtins through `builtin` or `command` (found in review).
    "builtin printf -v 'x[$(touch .claude/p)]' %s 1",
    "command printf -v 'x[$(touch .claude/p)]' %s 1",
    "builtin declare 'x[$(touch .claude/p)]=1'",
    "builtin mapfile -C 'touch .claude/p' -c 1 x < a.txt",
    "command -p read 'x[$(touch .claude/p)]' <<< 1",
  ])('%s asks, in every mode', async (command) => {
    const copy = await writer.runInCopy(writeDir, command);
    expect(existsSync(path.join(copy, '.claude/p'))).toBe(true);
    await writer.inEveryMode(writeDir, command, 'ask');
  });

  test('names without an expansion in a subscript stay as they were', async () => {
    for (const command of ['read -r line < a.txt', 'test -v HOME', 'printf -v x %s 1', 'declare -a list'])
      expect(await writer.decide(writeDir, command, 'bypassPermissions'), command).toBe('allow');
  });
});

describe('watch runs its words through sh -c, and -d takes no value', () => {
  // Each made .claude/p (watch runs its command at once, with no terminal too); the guard read
  // `'touch .claude/p'` as a program named `p`, and `-d touch` as an option with its value.
  const watcher = shellDecider('toolshed-everyday-watch-', ['Bash(watch:*)']);
  const watchReader = shellDecider('toolshed-everyday-watch-read-', ['Bash(watch:*)'], { deny: ['Read(./.env)'] });
  test.each([
    "watch -n 1 'touch .claude/p'",
    'watch -n 1 touch .claude/p',
    'watch -d touch .claude/p',
    "watch -n1 'cat a.txt; touch .claude/p'",
    'watch -n1 "$C"',
  ])('%s asks, in every mode', async (command) => {
    if (!has('watch')) return console.log('[skip] watch is not installed');
    if (!command.includes('$C')) {
      const copy = await writer.runInCopy(writeDir, `timeout 2 ${command}`);
      expect(existsSync(path.join(copy, '.claude/p'))).toBe(true);
    }
    await watcher.inEveryMode(writeDir, command, 'ask');
  });

  test("watch's command is read as a script: a read of .env is denied, and -x runs the words as they are", async () => {
    await watchReader.inEveryMode(writeDir, "watch -n 1 'cat .env'", 'deny');
    await watchReader.inEveryMode(writeDir, 'watch -x cat .env', 'deny');
    expect(await watchReader.decide(writeDir, 'watch -n 5 wc -l a.txt')).toBe('allow');
  });
});
