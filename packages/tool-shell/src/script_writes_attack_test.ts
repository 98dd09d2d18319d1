// Eighth attack: programs the guard has a table for, whose table missed what their scripts,
// options and environment make them do. `sed` and `awk` scripts write files and run commands in
// forms the guard's patterns did not see (`1!w F`, `s|a|b|w F`, `1e CMD`, a script in a file);
// `sed --i` is `--in-place` (GNU getopt takes a unique abbreviation); `env -S '…'` runs the
// command in its string, `env -iC DIR` moves it, `time -o F` writes F; and `TAR_OPTIONS`,
// `CURL_HOME`, `XDG_CONFIG_HOME`, `WGETRC` set on the command add options (`--index-file`,
// `output =`, `logfile =`) that write. Each command below was run in a copy of the project (bash 5, GNU sed
// 4.9, mawk, GNU tar 1.34, curl 7.88, wget 1.21, GNU time) and wrote the protected file named
// beside it, or printed the Read-denied one; the guard allowed it under `Bash(PROGRAM:*)`, in
// every mode.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const PROGRAMS = [
  'sed',
  'awk',
  'env',
  'time',
  'tar',
  'curl',
  'wget',
  'cp',
  'timeout',
  'cat',
  'rg',
  'less',
  'file',
  'md5sum',
];
const RULES = PROGRAMS.map((p) => `Bash(${p}:*)`);
const { root, explain, inEveryMode, runInCopy } = shellDecider('toolshed-script-writes-', RULES);
const denied = shellDecider('toolshed-script-reads-', RULES, { deny: ['Read(./secret.env)'] });

let dir = '';
beforeAll(async () => {
  dir = path.join(root(), 'p');
  const files: Record<string, string> = {
    'src/a.ts': 'a\n',
    'pre-commit': 'a\n',
    'two.txt': 'a\nb\n',
    'secret.env': 'KEY=1\n',
    '.husky/.keep': '',
    'payload/.husky/pre-commit': 'touch pwned\n',
    'prog.sed': 'w .husky/pre-commit\n',
    'prog.awk': 'BEGIN { print "touch pwned" > ".husky/pre-commit" }\n',
    '.curlrc': 'output = .husky/pre-commit\n',
    'xdg/.curlrc': 'output = .husky/pre-commit\n',
    rc: 'logfile = .husky/pre-commit\n',
    'rg.cfg': '--pre=sh\n',
    'src/run.txt': 'touch .husky/pre-commit; echo x\n',
    magic: '0\tstring\tabc\tABC file\n',
    'run.sh': 'touch .husky/pre-commit\n',
    'hook.txt': 'a[$(touch .husky/pre-commit)]\n',
    'prompt.txt': '$(touch .husky/pre-commit)\n',
    '.bashrc': 'touch .husky/pre-commit\n',
    '.profile': 'touch .husky/pre-commit\n',
    'bin/cat': '#!/bin/sh\nexec /bin/cat secret.env\n',
    '.vscode/.keep': '',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  execFileSync('tar', ['-cf', 'evil.tar', '-C', 'payload', '.husky'], { cwd: dir });
});

const HOOK = '.husky/pre-commit';
const CASES: [string, string][] = [
  ['sed --i s/a/b/ .husky/pre-commit', ''],
  ["sed --in='.husky/*' s/a/b/ pre-commit", HOOK],
  ["sed -n '1!w .husky/pre-commit' src/a.ts", HOOK],
  ["sed -n '$!w .husky/pre-commit' two.txt", HOOK],
  ["sed 's|a|b|w .husky/pre-commit' src/a.ts", HOOK],
  ["sed -n '\\%a%w .husky/pre-commit' src/a.ts", HOOK],
  ["sed -n --expression='1!W .husky/pre-commit' src/a.ts", HOOK],
  ["sed '1e touch .husky/pre-commit' src/a.ts", HOOK],
  ["sed '$e touch .husky/pre-commit' src/a.ts", HOOK],
  ["sed '1~2e touch .husky/pre-commit' src/a.ts", HOOK],
  ["sed 's|a|touch .husky/pre-commit|e' src/a.ts", HOOK],
  ['sed -n -f prog.sed src/a.ts', HOOK],
  ['sed -n --file=prog.sed src/a.ts', HOOK],
  ['awk -f prog.awk src/a.ts', HOOK],
  ['awk --file=prog.awk src/a.ts', ''],
  ['awk -W exec prog.awk src/a.ts', HOOK],
  ["env -S 'tar -xf evil.tar'", HOOK],
  ["env -vS'tar -xf evil.tar'", ''],
  ['env -iC .husky cp ../src/a.ts pre-commit', HOOK],
  ['env -iu X cp src/a.ts .husky/pre-commit', HOOK],
  ['timeout -s KILL 5 env -iu X cp src/a.ts .husky/pre-commit', HOOK],
  ['/usr/bin/time -o .husky/pre-commit true', HOOK],
  ['command time --out .husky/pre-commit true', HOOK],
  ['TAR_OPTIONS=--index-file=.husky/pre-commit tar -tf evil.tar', HOOK],
  ['export TAR_OPTIONS=--index-file=.husky/pre-commit; tar -tf evil.tar', HOOK],
  ['CURL_HOME=. curl -s file://DIR/src/a.ts', HOOK],
  ['XDG_CONFIG_HOME=xdg curl -s file://DIR/src/a.ts', HOOK],
  ['HOME=. curl -s file://DIR/src/a.ts', HOOK],
  ['WGETRC=rc wget -O - http://127.0.0.1:9/', HOOK],
  // The variable reaches the program through a shell's script, a function, or a later export.
  ["TAR_OPTIONS=--index-file=.husky/pre-commit bash -c 'tar -tf evil.tar'", HOOK],
  ["export LESSOPEN='|touch .husky/pre-commit; cat %s'; sh -c 'less src/a.ts'", HOOK],
  ['f() { tar -tf evil.tar; }; TAR_OPTIONS=--index-file=.husky/pre-commit f', HOOK],
  ['read -r TAR_OPTIONS <<< --index-file=.husky/pre-commit; export TAR_OPTIONS; tar -tf evil.tar', HOOK],
  ['set -a; : "${TAR_OPTIONS:=--index-file=.husky/pre-commit}"; tar -tf evil.tar', HOOK],
  ["TAR_OPTIONS=--index-file=.husky/pre-commit eval 'tar -tf evil.tar'", HOOK],
  // bash runs BASH_ENV before its script.
  ["BASH_ENV=./run.sh bash -c 'true'", HOOK],
  // bash evaluates a variable's value as arithmetic, and `a[$(CMD)]` in it runs CMD.
  ["x='a[$(touch .husky/pre-commit)]'; (( x ))", HOOK],
  ["x='a[$(touch .husky/pre-commit)]'; [[ $x -eq 1 ]]", HOOK],
  ["x='a[$(touch .husky/pre-commit)]'; echo ${arr[x]}", HOOK],
  ['x=\'a[$(touch .husky/pre-commit)]\'; test -v "$x"', HOOK],
  ["x='a[$(touch .husky/pre-commit)]'; let x", HOOK],
  ["declare -i z='a[$(touch .husky/pre-commit)]'", HOOK],
  ['read -r x < hook.txt; echo $(( x + 1 ))', HOOK],
  ["bash -c 'echo $(( $1 ))' _ 'a[$(touch .husky/pre-commit)]'", HOOK],
  // Ninth attack. GNU sed reads a bracket expression whole: the `/` in `[/a]` does not end the
  // address, so what follows `]/` is the command (the reader took `a` for append, and its text).
  ["sed -n '/[/a]/w .husky/pre-commit' src/a.ts", HOOK],
  ["sed -n '\\%[%a]%w .husky/pre-commit' src/a.ts", HOOK],
  // POSIXLY_CORRECT: options end at the first operand, so the script is `w …` and `-e p` are files.
  ["POSIXLY_CORRECT=1 sed 'w .husky/pre-commit' -e p src/a.ts", HOOK],
  ["export POSIXLY_CORRECT=1; sed 'w .husky/pre-commit' -e p src/a.ts", HOOK],
  // More places bash evaluates a name's value: indirection, `${@:x}`, `a=([x]=…)`, `unset 'a[x]'`,
  // and a value assigned in `${x:=…}`.
  ['read -r x < hook.txt; echo ${!x}', HOOK],
  ['read -r x < hook.txt; echo ${@:x}', HOOK],
  ['read -r x < hook.txt; a=([x]=1)', HOOK],
  ["read -r x < hook.txt; a=(1 2); unset 'a[x]'", HOOK],
  [": ${x:='a[$(touch .husky/pre-commit)]'}; (( x ))", HOOK],
  // `${x@P}` expands x's value as a prompt, and a prompt's `$(…)` runs.
  ['read -r x < prompt.txt; echo "${x@P}"', HOOK],
  // Under xtrace bash expands PS4 before each command it traces, in the shell the command runs in;
  // bash -i reads $HOME/.bashrc and bash -l $HOME/.profile (zsh reads $HOME/.zshenv always).
  ["PS4='$(touch .husky/pre-commit)'; set -x; true", HOOK],
  ["export PS4='$(touch .husky/pre-commit)'; set -o xtrace; true", HOOK],
  ['HOME=. bash -ic true', HOOK],
  ['HOME=. bash -lc true', HOOK],
  // Builtins the tables took to touch no file: trap runs its string at exit, history -w writes.
  ["trap 'touch .husky/pre-commit' EXIT", HOOK],
  ['history -w .husky/pre-commit', HOOK],
  // rg runs `sh FILE` for each file it searches (--pre in its config); less runs LESSOPEN, with no terminal too.
  ['RIPGREP_CONFIG_PATH=rg.cfg rg x src', HOOK],
  ["LESSOPEN='|touch .husky/pre-commit; cat %s' less src/a.ts", HOOK],
  ['LD_PRELOAD=./x.so cat src/a.ts', ''],
  // file -C compiles the magic file into NAME.mgc in the folder it runs in.
  ['cd .vscode && file -C -m ../magic', '.vscode/magic.mgc'],
];

/** Whether ripgrep is installed: CI hides it once to check that tests without it pass. */
const HAS_RG = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v rg'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('a script, option or environment that makes a tabled program write', () => {
  test.each(CASES)('%s writes %s: it asks, in every mode', async (template, written) => {
    const command = template.replaceAll('DIR', `${dir}-run`);
    // The proof runs the real program; the decision below needs none.
    const runnable = HAS_RG || !/(^|[\s;&|])rg\s/.test(command);
    if (!runnable) console.log(`not run (ripgrep is not installed): ${command}; its decision is still checked`);
    if (written !== '' && runnable) {
      const copy = await runInCopy(dir, command);
      expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    }
    const asked = template.replaceAll('DIR', dir);
    await inEveryMode(dir, asked, 'ask');
  });
});

describe('a sed script, or bash itself, that reads a Read-denied file', () => {
  test.each([
    "sed -n '1!r secret.env' two.txt",
    "sed -n '\\%b%r secret.env' two.txt",
    "sed '1!R secret.env' two.txt",
    // `$(< F)` is bash's own read of F (the parser dropped a redirection with no command).
    'echo "$(< secret.env)"',
    'x=$(<secret.env); echo "$x"',
    // A bracket expression holds the address's delimiter (`[/a]`): `a]/r F` is not append text.
    "sed '/[/a]/r secret.env' two.txt",
  ])('%s prints secret.env: it is denied, in every mode', async (command) => {
    const copy = await runInCopy(dir, `${command} > out.txt`);
    expect(readFileSync(path.join(copy, 'out.txt'), 'utf8')).toContain('KEY=1');
    for (const decision of await denied.inEveryMode(dir, command, 'deny'))
      expect(decision.reason).toContain('Read(./secret.env)');
  });
});

describe('a variable that makes any program write a log where the command says', () => {
  test('LD_DEBUG_OUTPUT=.husky/pre-commit writes .husky/pre-commit.PID: it asks, in every mode', async () => {
    const command = 'LD_DEBUG=files LD_DEBUG_OUTPUT=.husky/pre-commit cat src/a.ts';
    const copy = await runInCopy(dir, command);
    expect(readdirSync(path.join(copy, '.husky')).some((f) => f.startsWith('pre-commit.'))).toBe(true);
    for (const decision of await inEveryMode(dir, command, 'ask')) expect(decision.reason).toContain('LD_DEBUG_OUTPUT');
  });
});

describe('a PATH changed in the command, so that a tabled name runs another program', () => {
  test.each(['PATH=bin:$PATH cat src/a.ts', 'export PATH="$PWD/bin:$PATH"; cat src/a.ts'])(
    '%s prints secret.env: it asks, in every mode, under a Read deny rule',
    async (command) => {
      const copy = await runInCopy(dir, `chmod +x bin/cat; ${command} > out.txt`);
      expect(readFileSync(path.join(copy, 'out.txt'), 'utf8')).toContain('KEY=1');
      for (const decision of await denied.inEveryMode(dir, command, 'ask')) expect(decision.reason).toContain('PATH');
    },
  );
});

describe('a builtin that reads a Read-denied file or renames a program', () => {
  test.each([
    ['history -r secret.env; history', 'KEY=1'],
    ['hash -p ./bin/cat cat; cat src/a.ts', 'KEY=1'],
  ])('%s prints %s: it is not allowed, in any mode', async (command, printed) => {
    const copy = await runInCopy(dir, `chmod +x bin/cat; ${command} > out.txt`);
    expect(readFileSync(path.join(copy, 'out.txt'), 'utf8')).toContain(printed);
    for (const mode of MODES) {
      const decision = await denied.explain(dir, command, mode);
      expect(decision.behavior, `${command} (${mode}): ${decision.reason}`).not.toBe('allow');
    }
  });
});

describe('a checksum list that names a Read-denied file', () => {
  test.each(['md5sum -c sums', 'sha256sum --check sums'])(
    '%s reads the files it lists: it asks, in every mode',
    async (command) => {
      const program = command.split(' ')[0]!;
      const copy = await runInCopy(dir, `${program} secret.env > sums; ${command} > out.txt`);
      expect(readFileSync(path.join(copy, 'out.txt'), 'utf8')).toContain('secret.env: OK');
      for (const decision of await denied.inEveryMode(dir, command, 'ask'))
        expect(decision.reason).toContain('Read(./secret.env)');
    },
  );
});

describe('what these programs only read or print is still allowed', () => {
  test.each([
    "sed 's/hello/world/' src/a.ts",
    "sed -n '/x/p' src/a.ts",
    "sed -e 's/a/b/' -e 's/x/y/g' src/a.ts",
    "sed 's/a/b/w /dev/stdout' src/a.ts",
    "sed -E 's#(a|b)#[\\1]#g; /^$/d' src/a.ts",
    "sed '/start/,/end/{s/a/b/;p}' src/a.ts",
    "sed '1i header' src/a.ts",
    // A bracket expression that holds the delimiter, as GNU sed reads it.
    "sed 's/[/]/_/g' src/a.ts",
    "sed -n '/[/]/p; s|[|]|_|' src/a.ts",
    "sed -n '/^[^]/]*$/p' src/a.ts",
    // Text of `a\`, where the next -e piece goes on (GNU sed joins them with a newline).
    "sed -e 'a\\' -e 'w .husky/pre-commit' src/a.ts",
    'sed -i s/a/b/ src/a.ts',
    "awk '{ print $1 }' src/a.ts",
    "awk -F: -v x=1 '{ print x }' src/a.ts",
    'env -i LANG=C cat src/a.ts',
    'LANG=C tar -tf evil.tar',
    'LC_ALL=C rg x src',
    'echo "$HOME"; curl -s https://example.com/x',
    'echo "$PATH"; cat src/a.ts',
    'n=0; for f in src/*.ts; do n=$((n + 1)); done; echo $n',
    'for i in 1 2 3; do echo $((i * 2)); done',
    'set -x; echo "$PS4"; true',
    // A count read from wc or git rev-list --count is a number.
    'n=$(wc -l < src/a.ts); echo $((n + 1))',
    'count=$(cat src/a.ts | wc -l); if (( count > 0 )); then echo y; fi',
    'x=$(git rev-list --count HEAD); echo $((x + 1))',
    '[[ $? -eq 0 ]] && echo ok',
    'history | tail -5',
    'hash -r',
    "bash -c 'cat src/a.ts'",
    'md5sum src/a.ts',
    'file src/a.ts',
    'time cat src/a.ts',
    'curl -s https://example.com/x',
  ])('%s is allowed by its rule, in bypassPermissions', async (command) => {
    const decision = await explain(dir, command, 'bypassPermissions');
    expect(decision.behavior, decision.reason).toBe('allow');
  });
});
